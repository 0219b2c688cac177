/// Whether a layer of `model.json` agrees with the tensor it binds to: element type, element count, and
/// the quantization it asks for. Written once for loading (which stops at the first disagreement, as a
/// ``TensorIOError/Code/layerMismatch`` naming the layer) and for `tensorio inspect` (which shows them all).
enum LayerTensorCheck {
    /// One way a layer disagrees with its tensor.
    struct Problem: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case unsupportedType, dataType, elementCount, quantization
        }

        var kind: Kind
        /// A sentence that names the layer's side and the tensor.
        var message: String
    }

    /// Every disagreement between `layer` and `tensor`, in the order loading checks them.
    ///
    /// - Parameters:
    ///   - layer: The layer as `model.json` describes it.
    ///   - tensor: The tensor it binds to.
    ///   - quantizedModel: `model.quantized`, which gives the type of layers without a `dtype`.
    ///   - isInput: Whether the layer is an input (it quantizes) or an output (it dequantizes).
    static func problems(
        layer: LayerDescription, tensor: TensorFacts, quantizedModel: Bool?, isInput: Bool
    ) -> [Problem] {
        var problems: [Problem] = []
        let quoted = "the model's tensor \"\(tensor.name)\""
        if let dataType = tensor.dataType {
            if let expected = layer.dataType(quantizedModel: quantizedModel), expected != dataType {
                let reason = layer.declaredDataType != nil
                    ? "its dtype is \(expected)"
                    : "model.quantized is \(quantizedModel ?? false) and no dtype is given, which means \(expected)"
                problems.append(Problem(kind: .dataType, message: "\(reason), but \(quoted) holds \(dataType) values"))
            }
        } else {
            problems.append(Problem(
                kind: .unsupportedType, message: "\(quoted) holds \(tensor.typeName) values, which TensorIO cannot read or write"
            ))
        }
        if let count = elementCountProblem(layer: layer, tensor: tensor, isOutput: !isInput) {
            problems.append(Problem(kind: .elementCount, message: count))
        }
        let key = isInput ? "quantize" : "dequantize"
        if let spec = layer.quantization, let dataType = tensor.dataType {
            if dataType.isFloatingPoint {
                problems.append(Problem(
                    kind: .quantization, message: "\(key) is given, but \(quoted) holds \(dataType) values, not integers"
                ))
            } else if spec == .fromTensor, (tensor.perTensorQuantization?.scale ?? 0) <= 0 {
                problems.append(Problem(
                    kind: .quantization,
                    message: "\(key).from is \"tensor\", but \(quoted) has no per-tensor scale and zero point (or a scale that is not positive)"
                ))
            }
        }
        return problems
    }

    /// Joins a layer to its tensor after checking they agree.
    ///
    /// - Parameters:
    ///   - layer: The layer.
    ///   - tensor: The tensor, as the runtime reports it.
    ///   - shape: The tensor's real shape, batch resolved, for the binding's byte count.
    ///   - quantizedModel: `model.quantized`.
    ///   - isInput: Whether the layer is an input.
    /// - Returns: The binding a run writes or reads through.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) naming the layer, with the first
    ///   disagreement.
    static func binding(
        layer: LayerDescription, tensor: TensorFacts, shape: [Int], quantizedModel: Bool?, isInput: Bool
    ) throws -> TensorBinding {
        if let first = problems(layer: layer, tensor: tensor, quantizedModel: quantizedModel, isInput: isInput).first {
            throw TensorIOError.layerMismatch(first.message, layer: layer.name)
        }
        guard let dataType = tensor.dataType else {
            throw TensorIOError.layerMismatch("the model's tensor \"\(tensor.name)\" has no element type", layer: layer.name)
        }
        let parameters = tensor.perTensorQuantization
        return TensorBinding(
            layer: layer, dataType: dataType, shape: shape,
            quantizer: isInput ? layer.quantization.flatMap {
                Quantizer($0, tensorScale: parameters?.scale, zeroPoint: parameters?.zeroPoint ?? 0)
            } : nil,
            dequantizer: isInput ? nil : layer.quantization.flatMap {
                Dequantizer($0, tensorScale: parameters?.scale, zeroPoint: parameters?.zeroPoint ?? 0)
            }
        )
    }

    /// The element-count disagreement, if any. Only dimensions the tensor fixes are compared: a first
    /// `-1` (or a batched layer over a tensor with a batch dimension) compares the count per item. Shapes
    /// come from model files (a SavedModel's signature is read without any other check), so every product
    /// is overflow-checked: a shape whose count no integer holds is a disagreement, not a trap.
    private static func elementCountProblem(layer: LayerDescription, tensor: TensorFacts, isOutput: Bool) -> String? {
        guard let shape = tensor.shape else { return nil }
        // Only an output's -1 is a size the runtime decides; an input's first -1 stays the batch.
        if isOutput, layer.shape.dropFirst().contains(-1) || layer.shape == [-1] && shape.count != 1 {
            return sizedShapeProblem(layer: layer, shape: shape, tensorName: tensor.name)
        }
        guard shape.dropFirst().allSatisfy({ $0 >= 0 }) else { return nil }
        let perItem = product(shape.dropFirst())
        let total = shape.first == -1 ? perItem : product(shape)
        let fits: Bool
        switch shape.first {
        case nil: fits = layer.elementCount == 1  // a rank-0 scalar
        case -1: fits = perItem == layer.elementCount
        case _?:
            fits = total == layer.elementCount
                || (layer.isBatched && shape.count == layer.shape.count && perItem == layer.elementCount)
        }
        guard !fits else { return nil }
        let count = total.map { "\($0) elements\(shape.first == -1 ? " per item" : "")" } ?? "more elements than a count can hold"
        return "model.json's shape \(layer.shape) has \(layer.elementCount) elements, but the model's tensor \"\(tensor.name)\" has shape \(shape) (\(count))"
    }

    /// The disagreement between an output layer whose shape leaves sizes to the runtime (`-1` past the
    /// first dimension, or `[-1]` alone) and the shape the tensor has: `[-1]` takes any shape; otherwise
    /// the ranks must agree and every size the layer fixes must be the tensor's.
    private static func sizedShapeProblem(layer: LayerDescription, shape: [Int], tensorName: String) -> String? {
        if layer.shape == [-1] { return nil }
        let agrees = layer.shape.count == shape.count
            && zip(layer.shape, shape).allSatisfy { declared, actual in declared == -1 || declared == actual }
        guard !agrees else { return nil }
        return "model.json's shape \(layer.shape) does not fit the model's tensor \"\(tensorName)\" of shape \(shape) (-1 takes any size; the others must match, as must the number of dimensions)"
    }

    /// The disagreement between an output layer and the shape the runtime reports for its tensor after a
    /// run, when that shape is no longer the one the binding was made for.
    ///
    /// - Returns: A sentence naming the layer's shape and the tensor's, or `nil` when they agree.
    static func runShapeProblem(layer: LayerDescription, shape: [Int], tensorName: String) -> String? {
        elementCountProblem(
            layer: layer, tensor: TensorFacts(name: tensorName, dataType: nil, typeName: "", shape: shape, quantization: nil),
            isOutput: true
        )
    }

    /// The product of `dimensions`, or `nil` when it overflows.
    static func product(_ dimensions: some Sequence<Int>) -> Int? {
        var result = 1
        for dimension in dimensions {
            let (next, overflow) = result.multipliedReportingOverflow(by: dimension)
            if overflow { return nil }
            result = next
        }
        return result
    }
}

extension TensorFacts {
    /// The per-tensor scale and zero point, when the tensor has them.
    var perTensorQuantization: (scale: Float, zeroPoint: Int64)? {
        if case .perTensor(let scale, let zeroPoint)? = quantization { return (scale, zeroPoint) }
        return nil
    }
}
