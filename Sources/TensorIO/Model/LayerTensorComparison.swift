import Foundation
internal import TensorIOModelFile

/// A bundle's layers set beside the tensors its model really has, read from the model file without
/// loading it (TFLite: the FlatBuffer's entry point; TensorFlow: `saved_model.pb`'s signature), with every
/// disagreement, not only the first that loading stops at. What `tensorio inspect` shows when a bundle
/// does not match its model.
@_spi(Internal) public struct LayerTensorComparison: Sendable {
    /// One row: a layer (or `nil`: a tensor no layer binds), its tensor (or `nil`), and what disagrees.
    @_spi(Internal) public struct Row: Sendable {
        @_spi(Internal) public var side: String
        @_spi(Internal) public var layer: LayerDescription?
        @_spi(Internal) public var tensorName: String?
        @_spi(Internal) public var tensorType: String?
        @_spi(Internal) public var tensorShape: [Int]?
        @_spi(Internal) public var problems: [String]
    }

    @_spi(Internal) public var rows: [Row]
    /// `model.quantized`, which decides the type of layers without a `dtype`.
    @_spi(Internal) public var quantizedModel: Bool?
    /// Whether any row has a problem.
    @_spi(Internal) public var agrees: Bool { rows.allSatisfy(\.problems.isEmpty) }

    /// Compares the bundle's prediction layers with the model file's tensors.
    ///
    /// - Parameters:
    ///   - bundle: The bundle.
    ///   - limits: Bounds on the model file.
    /// - Throws: ``TensorIOError`` when the model file itself cannot be read.
    @_spi(Internal) public init(bundle: ModelBundle, limits: ModelLimits = ModelLimits()) throws {
        quantizedModel = bundle.modelFile.isQuantized
        guard let file = bundle.modelFileURL else { rows = []; return }
        typealias Tensor = (name: String, alias: String, type: DataType?, typeName: String, shape: [Int]?, quantization: TensorQuantization?)
        var inputs: [Tensor] = []
        var outputs: [Tensor] = []
        if bundle.modelFile.backend == "tensorflow" {
            let tag = bundle.modelFile.modes.contains(.train) ? "train" : "serve"
            let signature = try SavedModelSignature.read(savedModelAt: file, tag: tag, limits: limits)
            inputs = signature.inputs.map { ($0.layerName, $0.tensorName, $0.dataType, $0.typeName, $0.shape, nil) }
            outputs = signature.outputs.map { ($0.layerName, $0.tensorName, $0.dataType, $0.typeName, $0.shape, nil) }
        } else {
            // The signature and tensor order loading would use, so position-bound layers pair as they bind.
            let entry = try TFLiteEntryPoints.readPredictionEntry(of: bundle, limits: limits)
            func convert(_ tensor: TFLiteEntryPoints.Tensor) -> Tensor {
                (tensor.name, tensor.tensorName, tensor.dataType, tensor.typeName, tensor.shape, tensor.quantization)
            }
            inputs = entry.inputs.map(convert)
            outputs = entry.outputs.map(convert)
        }
        let quantized = bundle.modelFile.isQuantized
        var rows: [Row] = []
        for (side, layers, tensors) in [("input", bundle.predictionInputs, inputs), ("output", bundle.predictionOutputs, outputs)] {
            // Bound as the backends bind: by name, then the tensor's own name, then what is left in order.
            var claimed = [Bool](repeating: false, count: tensors.count)
            var bound = [Int?](repeating: nil, count: layers.count)
            for (index, layer) in layers.enumerated() {
                if let match = tensors.indices.first(where: { !claimed[$0] && (tensors[$0].name == layer.name || tensors[$0].alias == layer.name) }) {
                    claimed[match] = true
                    bound[index] = match
                }
            }
            if bundle.modelFile.backend != "tensorflow" {
                var rest = tensors.indices.filter { !claimed[$0] }.makeIterator()
                for index in bound.indices where bound[index] == nil {
                    bound[index] = rest.next()
                    if let match = bound[index] { claimed[match] = true }
                }
            }
            for (index, layer) in layers.enumerated() {
                guard let match = bound[index] else {
                    rows.append(Row(side: side, layer: layer, problems: ["the model has no \(side) tensor for this layer"]))
                    continue
                }
                let tensor = tensors[match]
                var problems: [String] = []
                if tensor.name != layer.name, tensor.alias != layer.name {
                    problems.append("bound by position: the tensor is called \"\(tensor.name)\"")
                }
                let facts = TensorFacts(
                    name: tensor.name, dataType: tensor.type, typeName: tensor.typeName, shape: tensor.shape,
                    quantization: tensor.quantization
                )
                problems += LayerTensorCheck.problems(
                    layer: layer, tensor: facts, quantizedModel: quantized, isInput: side == "input"
                ).map(\.message)
                rows.append(Row(side: side, layer: layer, tensorName: tensor.name, tensorType: tensor.typeName, tensorShape: tensor.shape, problems: problems))
            }
            for index in tensors.indices where !claimed[index] {
                let tensor = tensors[index]
                rows.append(Row(side: side, layer: nil, tensorName: tensor.name, tensorType: tensor.typeName, tensorShape: tensor.shape,
                                problems: ["no layer in model.json for this \(side) tensor"]))
            }
        }
        self.rows = rows
    }
}
