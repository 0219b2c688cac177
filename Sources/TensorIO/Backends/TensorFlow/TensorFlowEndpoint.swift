internal import CTensorFlow

/// A layer joined to the graph endpoint it feeds or fetches, checked when the model loads.
struct TensorFlowEndpoint: @unchecked Sendable {
    let layer: LayerDescription
    let output: TF_Output
    let dataType: DataType
    /// What the graph knows of the shape (`-1` where unknown), or `nil` when not even the rank is known.
    let staticShape: [Int]?
    let quantizer: Quantizer?
    let dequantizer: Dequantizer?

    /// Resolves `layer.name` in the graph and checks its type and, where the graph knows it, its size.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) naming the layer.
    init(
        layer: LayerDescription, in session: TensorFlowSession, quantizedModel: Bool?, isInput: Bool
    ) throws {
        guard let output = session.endpoint(named: layer.name) else {
            throw TensorIOError.layerMismatch(
                "the graph (tags \(session.tags)) has no operation named \"\(layer.name)\"; a layer's name is the graph's operation name, optionally with an output index (\"name:0\")",
                layer: layer.name
            )
        }
        let graphType = session.elementType(of: output)
        let staticShape = session.staticShape(of: output)
        let facts = TensorFacts(
            name: layer.name, dataType: DataType(tensorFlowType: graphType),
            typeName: DataType.tensorFlowTypeName(graphType), shape: staticShape, quantization: nil
        )
        // TensorFlow graphs carry no per-tensor scale, so `{"from": "tensor"}` fails the check.
        let binding = try LayerTensorCheck.binding(
            layer: layer, tensor: facts, shape: staticShape ?? layer.shape, quantizedModel: quantizedModel,
            isInput: isInput
        )
        let dataType = binding.dataType
        let quantizer = binding.quantizer
        let dequantizer = binding.dequantizer
        self.layer = layer
        self.output = output
        self.dataType = dataType
        self.staticShape = staticShape
        self.quantizer = quantizer
        self.dequantizer = dequantizer
    }

    /// The shape of a tensor holding `itemCount` items for this layer.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) when the layer or the graph
    ///   cannot take that many items.
    func feedShape(itemCount: Int) throws -> [Int] {
        var shape: [Int]
        if let fixed = staticShape, fixed.dropFirst().allSatisfy({ $0 >= 0 }) {
            shape = fixed
            if fixed.first == -1 { shape[0] = itemCount }
        } else {
            shape = layer.isBatched ? [itemCount] + layer.shape.dropFirst() : layer.shape
        }
        if shape.contains(where: { $0 < 0 }) {
            // The graph leaves inner sizes open and model.json does not fix them either.
            throw TensorIOError.invalidInput(
                "cannot tell the tensor's shape: the graph gives \(staticShape.map { "\($0)" } ?? "no shape") and model.json \(layer.shape)",
                layer: layer.name
            )
        }
        let total = shape.reduce(1, *)
        guard total == itemCount * layer.elementCount else {
            let reason = layer.isBatched
                ? "the graph's tensor has the fixed shape \(staticShape ?? shape)"
                : "model.json's shape \(layer.shape) has no batch dimension (a first -1)"
            throw TensorIOError.invalidInput(
                "\(itemCount) items cannot be fed: \(reason), which holds \(total / max(layer.elementCount, 1)) item(s)",
                layer: layer.name
            )
        }
        return shape
    }

    /// The binding that writes or reads one item of `itemShape`.
    func itemBinding(shape itemShape: [Int]) -> TensorBinding {
        TensorBinding(layer: layer, dataType: dataType, shape: itemShape, quantizer: quantizer, dequantizer: dequantizer)
    }

    /// Makes the tensor fed for `values`, one value per item.
    ///
    /// - Throws: ``TensorIOError`` naming the layer (and the item, in a batch of several) when a value
    ///   does not fit.
    func makeTensor(_ values: [InputValue], runtime: TensorFlowRuntime.Handle) throws -> TensorFlowTensor {
        let shape = try feedShape(itemCount: values.count)
        let binding = itemBinding(shape: [layer.elementCount])
        let itemBytes = binding.byteCount
        let tensor = try TensorFlowTensor(
            runtime: runtime, type: dataType.tensorFlowType, shape: shape, byteCount: itemBytes * values.count
        )
        guard itemBytes > 0, !values.isEmpty else { return tensor }  // nothing to write
        guard let memory = tensor.memory else {
            throw TensorIOError(.runtimeFailure, "TensorFlow returned a tensor without storage", location: "layer \"\(layer.name)\"")
        }
        try binding.writeItems(values, to: memory)
        return tensor
    }

    /// Reads a fetched tensor: whole, or split into `itemCount` items along its first dimension.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) when the tensor's type or size
    ///   disagrees with the layer.
    func read(_ tensor: TensorFlowTensor, splittingInto itemCount: Int?) throws -> [Output.Value] {
        let shape = tensor.shape
        let total = shape.reduce(1, *)
        guard DataType(tensorFlowType: tensor.type) == dataType else {
            throw TensorIOError.layerMismatch(
                "the graph returned \(DataType.tensorFlowTypeName(tensor.type)) values, not \(dataType)", layer: layer.name
            )
        }
        let items = itemCount ?? 1
        let perItem = itemCount == nil ? total : (shape.first == items ? total / max(items, 1) : -1)
        guard perItem == layer.elementCount || (itemCount == nil && layer.isBatched && total % max(layer.elementCount, 1) == 0) else {
            throw TensorIOError.layerMismatch(
                "the graph returned a tensor of shape \(shape) (\(total) elements), but model.json's shape \(layer.shape) has \(layer.elementCount) elements per item",
                layer: layer.name
            )
        }
        // A layer always has at least one element, so an empty tensor is the graph's fault, not an empty answer.
        guard let memory = tensor.memory, total > 0, memory.byteCount >= total * dataType.byteCount else {
            throw TensorIOError.layerMismatch("the graph returned an empty tensor of shape \(shape)", layer: layer.name)
        }
        guard let itemCount else {
            return [itemBinding(shape: shape).read(from: memory)]
        }
        // Each item reads as if it had run alone: a batch dimension of 1.
        let itemShape = [1] + shape.dropFirst()
        let binding = itemBinding(shape: itemShape)
        let itemBytes = perItem * dataType.byteCount
        return (0..<itemCount).map { binding.read(from: memory.slice(from: $0 * itemBytes, count: itemBytes)) }
    }

    /// What `tensorio inspect` shows.
    var tensorDescription: TensorDescription {
        TensorDescription(
            name: layer.name, layerName: layer.name, typeName: dataType.rawValue,
            shape: staticShape ?? layer.shape
        )
    }
}
