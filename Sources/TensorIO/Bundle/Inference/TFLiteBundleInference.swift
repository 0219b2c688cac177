package import Foundation
internal import TensorIOModelFile
package import TensorIOMetadata

/// Infers a bundle from a `.tflite` file: layers from its entry point's real tensors, refined by its
/// TFLite Model Metadata (names, descriptions, image properties, normalization, labels) when it has some.
///
/// Every byte is checked before use: the file by ``TFLiteModelVerifier``, the metadata by its own
/// structural check, the appended zip by the bounded zip reader. LiteRT is not involved.
package struct TFLiteBundleInference {
    package let fileURL: URL
    package let options: BundleInferenceOptions
    let limits: ModelLimits
    /// The tasks that infer their entries, in order.
    let tasks: TaskRegistry
    private(set) var notes: [InferredBundle.Note] = []
    private(set) var assets: [String: Data] = [:]

    // What tasks infer from (set once the layers are made). A task may settle the image input's
    // preparation (`inputs`) and say so in `imageTask`, so that a later task leaves the input alone.
    /// The input layers; tasks may change how an image input is prepared.
    package var inputs: [LayerDescription] = []
    /// The output layers.
    package private(set) var outputs: [LayerDescription] = []
    /// Each input's tensor metadata, in input order.
    package private(set) var inputMetadata: [TFLiteMetadata.TensorMetadata?] = []
    /// Each output's tensor metadata, in output order.
    package private(set) var outputMetadata: [TFLiteMetadata.TensorMetadata?] = []
    /// The metadata of the entry point's subgraph.
    package private(set) var subgraph: TFLiteMetadata.SubgraphMetadata?
    /// The files zipped onto the model.
    package private(set) var attachments = ModelAttachments()
    /// The task that described the model's image input (its outputs are that task's), if one did.
    package var imageTask: String?

    init(fileURL: URL, options: BundleInferenceOptions, limits: ModelLimits, tasks: TaskRegistry) {
        self.fileURL = fileURL
        self.options = options
        self.limits = limits
        self.tasks = tasks
    }

    /// Whether the model has one input and it is an image: what the vision tasks infer from.
    package var hasOneImageInput: Bool { inputs.count == 1 && inputs[0].isImage }

    mutating func infer() throws -> ModelJSON {
        let fileName = fileURL.lastPathComponent
        let file = try MappedModelFile(
            bundleDirectory: fileURL.deletingLastPathComponent(), fileName: fileName, limits: limits
        )
        _ = try TFLiteModelVerifier.verify(file.bytes, limits: limits, fileName: fileName)
        let (entry, metadata, attachments) = try TensorIOError.reporting {
            (
                try TFLiteEntryPoints.read(fromModel: file.bytes, fileName: fileName),
                try TFLiteMetadata.read(fromModel: file.bytes, fileName: fileName),
                try ModelAttachments.read(fromModel: file.bytes, fileName: fileName)
            )
        }

        if let metadata {
            note(.inferred, "TFLite metadata\(metadata.name.map { " \"\($0)\"" } ?? "")\(metadata.version.map { " version \($0)" } ?? "")")
            let missing = attachments.missingFiles(namedIn: metadata)
            if !missing.isEmpty {
                note(.unknown, "the metadata names files the model does not carry: \(missing.joined(separator: ", "))")
            }
            reportUnused(metadata)
        } else {
            note(.unknown, "the model has no TFLite metadata: layers come from its tensors alone")
        }
        if let key = entry.signatureKey {
            note(.inferred, "signature \"\(key)\": \(entry.inputs.count) input(s), \(entry.outputs.count) output(s)")
        } else {
            note(.inferred, "no signature: subgraph 0's \(entry.inputs.count) input(s) and \(entry.outputs.count) output(s)")
        }

        let subgraph = entry.subgraphIndex == 0 ? metadata?.subgraphs.first : nil
        func tensorMetadata(_ tensor: TFLiteEntryPoints.Tensor, in order: [Int], _ list: [TFLiteMetadata.TensorMetadata]?) -> TFLiteMetadata.TensorMetadata? {
            guard let list, let position = order.firstIndex(of: tensor.tensorIndex), position < list.count else { return nil }
            return list[position]
        }
        var inputs: [LayerDescription] = []
        var inputMetadata: [TFLiteMetadata.TensorMetadata?] = []
        for tensor in entry.inputs {
            let metadata = tensorMetadata(tensor, in: entry.mainSubgraphInputs, subgraph?.inputs)
            inputMetadata.append(metadata)
            inputs.append(try inputLayer(tensor, metadata: metadata))
        }
        var outputs: [LayerDescription] = []
        var outputMetadata: [TFLiteMetadata.TensorMetadata?] = []
        for tensor in entry.outputs {
            let metadata = tensorMetadata(tensor, in: entry.mainSubgraphOutputs, subgraph?.outputs)
            outputMetadata.append(metadata)
            outputs.append(try outputLayer(tensor, metadata: metadata, attachments: attachments))
        }
        self.inputs = inputs
        self.outputs = outputs
        self.inputMetadata = inputMetadata
        self.outputMetadata = outputMetadata
        self.subgraph = subgraph
        self.attachments = attachments
        var descriptions: [String: any TaskDescription] = [:]
        for task in tasks.inferenceOrder {
            if let description = try inferTask(task) { descriptions[task.entryKey] = description }
        }
        inputs = self.inputs
        for name in options.imageInputs.subtracting(inputs.map(\.name)).sorted() {
            throw TensorIOError(.invalidInput, "no input named \"\(name)\" to make an image (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
        }
        for name in Set(options.labels.keys).subtracting(outputs.map(\.name)).sorted() {
            throw TensorIOError(.invalidInput, "no output named \"\(name)\" to label (outputs: \(outputs.map(\.name).joined(separator: ", ")))")
        }

        let stem = fileURL.deletingPathExtension().lastPathComponent
        return ModelJSON(
            name: metadata?.name ?? stem,
            details: [metadata?.description, subgraph?.description].compactMap { $0 }.joined(separator: " "),
            identifier: stem, version: metadata?.version ?? "1", author: metadata?.author ?? "",
            license: metadata?.license ?? "", isPlaceholder: false,
            modelFile: ModelFileDescription(path: fileName, backend: "tflite", isQuantized: nil, modes: [.predict]),
            inputs: inputs, outputs: outputs, placeholders: [], training: nil, options: ModelOptions(),
            tasks: BundleTasks(descriptions: descriptions, limits: limits)
        )
    }

    /// One registered task's inference (opened from the existential).
    private mutating func inferTask<Task: ModelTask>(_ task: Task.Type) throws -> (any TaskDescription)? {
        try Task.infer(&self)
    }

    // MARK: - Layers

    private mutating func inputLayer(_ tensor: TFLiteEntryPoints.Tensor, metadata: TFLiteMetadata.TensorMetadata?) throws -> LayerDescription {
        let name = tensor.name
        guard let dataType = tensor.dataType else {
            throw TensorIOError(.unsupported, "input \"\(name)\" holds \(tensor.typeName) values, which TensorIO cannot feed", location: "model.file")
        }
        describe(name, metadata)
        var imageProperties: TFLiteMetadata.ImageProperties?
        if case .image(let properties)? = metadata?.content { imageProperties = properties }
        let isImage = imageProperties != nil || options.imageInputs.contains(name)
        if isImage {
            return try imageLayer(tensor, dataType: dataType, properties: imageProperties, metadata: metadata)
        }
        if looksLikeImage(tensor.shape), dataType == .float32 || dataType == .uint8 {
            note(.unknown, layer: name, "shaped like an image \(tensor.shape): give --image \(name) to feed it pictures")
        }
        return arrayLayer(tensor, dataType: dataType, shape: arrayShape(tensor), quantized: "real values are quantized")
    }

    /// An array layer of `tensor`, with the tensor's own quantization when its integers are quantized per
    /// tensor; `quantized` says what happens to the values then.
    private mutating func arrayLayer(
        _ tensor: TFLiteEntryPoints.Tensor, dataType: DataType, shape: [Int], quantized: String
    ) -> LayerDescription {
        var quantization: QuantizationSpec?
        if !dataType.isFloatingPoint, case .perTensor? = tensor.quantization {
            quantization = .fromTensor
            note(.inferred, layer: tensor.name, "quantized \(dataType): \(quantized) with the tensor's own scale and zero point")
        }
        let layer = LayerDescription(
            name: tensor.name, shape: shape, declaredDataType: dataType, kind: .array(quantization: quantization)
        )
        note(.inferred, layer: tensor.name, "array \(dataType) \(layer.shape)")
        return layer
    }

    private mutating func imageLayer(
        _ tensor: TFLiteEntryPoints.Tensor, dataType: DataType, properties: TFLiteMetadata.ImageProperties?,
        metadata: TFLiteMetadata.TensorMetadata?
    ) throws -> LayerDescription {
        let name = tensor.name
        let shape = tensor.shape
        guard dataType == .float32 || dataType == .uint8,
              shape.count == 4, [1, -1].contains(shape[0]), shape[1] > 0, shape[2] > 0, [1, 3].contains(shape[3])
        else {
            throw TensorIOError(
                .unsupported,
                "input \"\(name)\" cannot take images: it holds \(dataType) values of shape \(shape), and image layers are float32 or uint8 tensors of shape [1, height, width, 1 or 3]",
                location: "inputs"
            )
        }
        let channels = shape[3]
        var format: ImageTensorFormat = channels == 1 ? .gray : .rgb
        switch properties?.colorSpace {
        case .rgb? where channels == 3, .grayscale? where channels == 1:
            note(.inferred, layer: name, "image \(shape[2])×\(shape[1]) \(format.rawValue) (colour space from the metadata)")
        case .rgb?, .grayscale?:
            note(.unknown, layer: name, "the metadata's colour space does not fit \(channels) channel(s): \(format.rawValue) assumed")
        case .unknown?, nil:
            note(.unknown, layer: name, "image \(shape[2])×\(shape[1]): no colour space given, \(format.rawValue) assumed from \(channels) channel(s)")
            format = channels == 1 ? .gray : .rgb
        }
        var normalizationSpec: NormalizationSpec?
        let normalization = metadata?.processUnits.lazy.compactMap { unit -> ([Float], [Float])? in
            if case .normalization(let mean, let std) = unit { return (mean, std) }
            return nil
        }.first
        if dataType == .uint8 {
            // As the TFLite Task Library does: a uint8 input takes pixel bytes as they are.
            note(.inferred, layer: name, "uint8 pixels go in as they are" + (normalization == nil ? "" : " (the metadata's normalization applies to float inputs only)"))
        } else if let (mean, std) = normalization {
            guard let spec = NormalizationSpec.meanAndStandardDeviation(mean: mean, std: std) else {
                throw TensorIOError(.invalidModelFile, "input \"\(name)\": the metadata's normalization (mean \(mean), std \(std)) is not one or three finite means and non-zero deviations", location: "model.file")
            }
            normalizationSpec = spec
            note(.inferred, layer: name, "normalize (p - \(mean)) / \(std) from the metadata")
        } else if let spec = options.normalization {
            normalizationSpec = spec
            note(.inferred, layer: name, "normalize as --normalize says")
        } else {
            note(.unknown, layer: name, "no normalization known: pixels go in as 0…255 floats; give --normalize (for example [-1,1])")
        }
        return LayerDescription(
            name: name, shape: [shape[1], shape[2], channels], declaredDataType: dataType,
            kind: .image(format: format, normalization: normalizationSpec)
        )
    }

    private mutating func outputLayer(
        _ tensor: TFLiteEntryPoints.Tensor, metadata: TFLiteMetadata.TensorMetadata?, attachments: ModelAttachments
    ) throws -> LayerDescription {
        let name = tensor.name
        guard let dataType = tensor.dataType else {
            throw TensorIOError(.unsupported, "output \"\(name)\" holds \(tensor.typeName) values, which TensorIO cannot read", location: "model.file")
        }
        describe(name, metadata)
        var layer = arrayLayer(tensor, dataType: dataType, shape: outputShape(tensor), quantized: "dequantized")
        if let labels = options.labels[name] {
            try attach(labels, named: "\(name)-labels.txt", to: &layer, source: "--labels")
        } else if case .image? = metadata?.content {
            // A mask's labels name its categories (its last dimension), not its elements: the segmentation
            // inference reads them.
        } else if let file = labelsFile(metadata), let data = attachments[file.name] {
            guard let text = String(data: data, encoding: .utf8) else {
                throw TensorIOError(.invalidModelFile, "the labels file \"\(file.name)\" packed in the model is not UTF-8 text", location: "model.file")
            }
            try attach(ModelBundleValidator.labels(inText: text), named: file.name, to: &layer, source: "the metadata's \(file.name)\(file.locale.map { " (locale \($0))" } ?? "")")
        }
        for file in metadata?.associatedFiles ?? [] where file.type == .tensorValueLabels {
            note(.unused, layer: name, "value labels \(file.name): not used (TensorIO labels elements, not values)")
        }
        return layer
    }

    /// The axis labels file to use: the one in the requested locale, else the first.
    package mutating func labelsFile(_ metadata: TFLiteMetadata.TensorMetadata?) -> TFLiteMetadata.AssociatedFile? {
        let files = (metadata?.associatedFiles ?? []).filter { $0.type == .tensorAxisLabels }
        guard let first = files.first else { return nil }
        guard let locale = options.locale else { return first }
        if let match = files.first(where: { $0.locale == locale }) { return match }
        note(.unknown, "no labels in locale \"\(locale)\" (locales: \(files.map { $0.locale ?? "none" }.joined(separator: ", "))): the first labels file is used")
        return first
    }

    private mutating func attach(_ labels: [String], named file: String, to layer: inout LayerDescription, source: String) throws {
        guard labels.count == layer.elementCount else {
            note(.unknown, layer: layer.name, "\(source) has \(labels.count) labels but the output has \(layer.elementCount) elements: not used")
            return
        }
        layer = layer.with(labels: LayerLabels(file: file, values: labels))
        assets[file] = Data((labels.joined(separator: "\n") + "\n").utf8)
        note(.inferred, layer: layer.name, "\(labels.count) labels from \(source)")
    }

    // MARK: - Helpers

    /// The tensor's shape as a layer shape: a dynamic first dimension is the batch (-1); a dynamic inner
    /// dimension cannot be a layer size, so it takes the size 1 the model stores, with a note.
    private mutating func arrayShape(_ tensor: TFLiteEntryPoints.Tensor) -> [Int] {
        guard !tensor.shape.isEmpty else { return [1] }  // rank 0: one number
        var shape = tensor.shape
        for index in shape.indices.dropFirst() where shape[index] < 0 {
            shape[index] = 1
            note(.unknown, layer: tensor.name, "dimension \(index) is dynamic: model.json fixes it at 1; edit the shape to the size you feed")
        }
        return shape
    }

    /// An output's shape as a layer shape: `-1` wherever the file leaves the size to the runtime, which
    /// reports it when the model is prepared and after each run; `[-1]` (any shape) for an output whose
    /// operator sizes it and the file gives no shape at all.
    private mutating func outputShape(_ tensor: TFLiteEntryPoints.Tensor) -> [Int] {
        if tensor.isSizedByOperator {
            note(.unknown, layer: tensor.name, "sized at run time: the file gives no shape, the operator that writes it decides; model.json says [-1] (any shape), and each run reads the shape the runtime reports")
            return [-1]
        }
        guard !tensor.shape.isEmpty else { return [1] }  // rank 0: one number
        for index in tensor.shape.indices.dropFirst() where tensor.shape[index] < 0 {
            note(.unknown, layer: tensor.name, "dimension \(index) is sized at run time: model.json says -1, and each run reads the size the runtime reports")
        }
        return tensor.shape
    }

    private func looksLikeImage(_ shape: [Int]) -> Bool {
        shape.count == 4 && [1, -1].contains(shape[0]) && shape[1] > 1 && shape[2] > 1 && [1, 3].contains(shape[3])
    }

    private mutating func describe(_ layer: String, _ metadata: TFLiteMetadata.TensorMetadata?) {
        guard let metadata else { return }
        let text = [metadata.name.map { "\"\($0)\"" }, metadata.description].compactMap { $0 }.joined(separator: ": ")
        if !text.isEmpty { note(.inferred, layer: layer, "the metadata calls it \(text)") }
        if case .boundingBox(let box)? = metadata.content {
            note(.unused, layer: layer, "bounding-box properties (\(box.type), \(box.coordinateType)): not used, the boxes come back as numbers")
        }
        for unit in metadata.processUnits {
            switch unit {
            case .normalization: break  // used for float image inputs
            case .scoreCalibration(let transformation, let defaultScore):
                note(.unused, layer: layer, "score calibration (\(transformation), default \(defaultScore)): not applied, scores come back raw")
            case .scoreThresholding(let threshold):
                note(.unused, layer: layer, "score threshold \(threshold): not applied (use --threshold)")
            case .regexTokenizer, .bertTokenizer, .sentencePieceTokenizer:
                break  // read by the text inference, which says what it made of them
            case .other(let name):
                note(.unused, layer: layer, "process unit \(name): not used")
            }
        }
        for file in metadata.associatedFiles where ![.tensorAxisLabels, .tensorValueLabels].contains(file.type) {
            note(.unused, layer: layer, "associated file \(file.name) (\(file.type)): not used")
        }
    }

    private mutating func reportUnused(_ metadata: TFLiteMetadata) {
        for subgraph in metadata.subgraphs {
            for unit in subgraph.inputProcessUnits + subgraph.outputProcessUnits {
                if case .bertTokenizer = unit { continue }  // read by the text inference
                if case .sentencePieceTokenizer = unit { continue }
                note(.unused, "subgraph process unit \(unit): not used")
            }
            if !subgraph.inputTensorGroups.isEmpty || !subgraph.outputTensorGroups.isEmpty {
                note(.unused, "tensor groups: not used")
            }
            // DETECTOR_METADATA and SEGMENTER_METADATA are read by the detection and segmentation inference,
            // which say what they made of them.
            let read: Set<String?> = [DetectorMetadata.customMetadataName, SegmenterMetadata.customMetadataName]
            for custom in subgraph.customMetadata where !read.contains(custom.name) {
                note(.unused, "custom metadata \(custom.name ?? "(unnamed)") (\(custom.data.count) bytes): not used")
            }
            for file in subgraph.associatedFiles {
                note(.unused, "associated file \(file.name) (\(file.type)): not used")
            }
        }
        for file in metadata.associatedFiles {
            note(.unused, "associated file \(file.name) (\(file.type)): not used")
        }
        if metadata.subgraphs.count > 1 {
            note(.unused, "metadata for \(metadata.subgraphs.count - 1) more subgraph(s): only the first is read")
        }
    }

    package mutating func note(_ kind: InferredBundle.Note.Kind, layer: String? = nil, _ message: String) {
        notes.append(InferredBundle.Note(kind, layer: layer, message))
    }

    /// The labels in a labels file packed in the model (`nil` when the model does not carry it), one per
    /// line; the file goes to `assets/` as it is read.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidModelFile``) when it is not UTF-8 text.
    package mutating func packedLabels(_ file: TFLiteMetadata.AssociatedFile, attachments: ModelAttachments) throws -> [String]? {
        guard let data = attachments[file.name] else { return nil }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TensorIOError(.invalidModelFile, "the labels file \"\(file.name)\" packed in the model is not UTF-8 text", location: "model.file")
        }
        let values = ModelBundleValidator.labels(inText: text)
        addAsset(file.name, Data((values.joined(separator: "\n") + "\n").utf8))
        return values
    }

    /// Leaves a file out of the bundle's `assets/` folder again.
    package mutating func dropAsset(_ name: String) {
        assets[name] = nil
    }

    /// A file for the bundle's `assets/` folder.
    package mutating func addAsset(_ name: String, _ data: Data) {
        assets[name] = data
    }
}
