import Foundation

/// Infers a bundle from a TensorFlow SavedModel folder: one layer per tensor of the `serving_default`
/// signature of the meta graph tagged `serve`, read from `saved_model.pb` (no runtime involved).
///
/// Layers are named after the graph operations the signature names (TensorFlow binds by operation),
/// so an input the signature calls `x` may be the layer `serving_default_x`.
struct SavedModelBundleInference {
    let directory: URL
    let options: BundleInferenceOptions
    let limits: ModelLimits
    private(set) var notes: [InferredBundle.Note] = []

    init(directory: URL, options: BundleInferenceOptions, limits: ModelLimits) {
        self.directory = directory
        self.options = options
        self.limits = limits
    }

    mutating func infer() throws -> ModelJSON {
        let signature = try SavedModelSignature.read(savedModelAt: directory, limits: limits)
        notes.append(.init(.inferred, "signature \"\(signature.key)\" of the meta graph tagged [\(signature.tags.joined(separator: ", "))]: \(signature.inputs.count) input(s), \(signature.outputs.count) output(s)"))
        notes.append(.init(.unknown, "a SavedModel carries no metadata: no labels, normalization or image layers unless given"))
        let inputs = try signature.inputs.map { try layer($0, isInput: true) }
        let outputs = try signature.outputs.map { try layer($0, isInput: false) }
        for name in options.imageInputs.subtracting(inputs.map(\.name)).sorted() {
            throw TensorIOError(.invalidInput, "no input named \"\(name)\" to make an image (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
        }
        for name in Set(options.labels.keys).subtracting(outputs.map(\.name)).sorted() {
            throw TensorIOError(.invalidInput, "no output named \"\(name)\" to label (outputs: \(outputs.map(\.name).joined(separator: ", ")))")
        }
        let name = directory.lastPathComponent
        return ModelJSON(
            name: name, details: "", identifier: name, version: "1", author: "", license: "", isPlaceholder: false,
            modelFile: ModelFileDescription(path: name, backend: "tensorflow", isQuantized: nil, modes: [.predict]),
            inputs: inputs, outputs: outputs, placeholders: [], training: nil, options: ModelOptions()
        )
    }

    private mutating func layer(_ tensor: SavedModelSignature.Tensor, isInput: Bool) throws -> LayerDescription {
        let name = tensor.layerName
        guard let dataType = tensor.dataType else {
            throw TensorIOError(.unsupported, "\(isInput ? "input" : "output") \"\(tensor.key)\" holds \(tensor.typeName) values, which TensorIO cannot \(isInput ? "feed" : "read")", location: "model.file")
        }
        guard var shape = tensor.shape, !shape.isEmpty else {
            notes.append(.init(.inferred, layer: name, "signature key \"\(tensor.key)\": \(tensor.shape == nil ? "shape unknown, taken as" : "rank 0,") one number"))
            return LayerDescription(name: name, shape: tensor.shape == nil ? [1] : [], declaredDataType: dataType, kind: .scalar())
        }
        if isInput, options.imageInputs.contains(name) {
            guard shape.count == 4, [1, -1].contains(shape[0]), shape[1] > 0, shape[2] > 0, [1, 3].contains(shape[3]),
                  dataType == .float32 || dataType == .uint8
            else {
                throw TensorIOError(.unsupported, "input \"\(name)\" cannot take images: it holds \(dataType) values of shape \(shape)", location: "inputs")
            }
            let format: ImageTensorFormat = shape[3] == 1 ? .gray : .rgb
            let normalization = dataType == .float32 ? options.normalization : nil
            notes.append(.init(normalization == nil && dataType == .float32 ? .unknown : .inferred, layer: name,
                               "image \(shape[2])×\(shape[1]) \(format.rawValue)" + (normalization == nil && dataType == .float32 ? ", no normalization: give --normalize" : "")))
            return LayerDescription(
                name: name, shape: [shape[1], shape[2], shape[3]], declaredDataType: dataType,
                kind: .image(format: format, normalization: normalization)
            )
        }
        for index in shape.indices.dropFirst() where shape[index] < 0 {
            shape[index] = 1
            notes.append(.init(.unknown, layer: name, "dimension \(index) is dynamic: model.json fixes it at 1; edit the shape to the size you feed"))
        }
        var layer = LayerDescription(name: name, shape: shape, declaredDataType: dataType, kind: .array())
        notes.append(.init(.inferred, layer: name, "signature key \"\(tensor.key)\": array \(dataType) \(shape)"))
        if !isInput, let labels = options.labels[name] {
            if labels.count == layer.elementCount {
                layer = layer.with(labels: LayerLabels(file: "\(name)-labels.txt", values: labels))
                notes.append(.init(.inferred, layer: name, "\(labels.count) labels from --labels"))
            } else {
                notes.append(.init(.unknown, layer: name, "--labels has \(labels.count) labels but the output has \(layer.elementCount) elements: not used"))
            }
        }
        return layer
    }
}
