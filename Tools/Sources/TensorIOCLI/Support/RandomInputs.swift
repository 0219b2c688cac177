import TensorIO

/// Random values of the right type and count for every input layer, as benchmark_model feeds. Image
/// layers get tensor values too (not pictures), so the timed run is TensorIO's own path around the invoke;
/// `--image` measures the picture path end to end.
enum RandomInputs {
    /// - Parameter model: A loaded model: each layer's element type is its tensor's, which `model.json`
    ///   may leave unsaid.
    static func value(for model: any Model) throws -> InputValue {
        var generator = SystemRandomNumberGenerator()
        var values: [String: InputValue] = [:]
        let tensors = try model.tensorDescriptions().inputs
        for layer in model.bundle.predictionInputs {
            let count = layer.elementCount
            let tensorType = tensors.first { $0.layerName == layer.name }.flatMap { DataType(rawValue: $0.typeName) }
            switch layer.dataType(quantizedModel: model.bundle.modelFile.isQuantized) ?? tensorType ?? .float32 {
            case .float16, .float32, .float64:
                values[layer.name] = .numbers(.float32((0..<count).map { _ in Float.random(in: -1...1, using: &generator) }))
            case .uint8:
                values[layer.name] = .numbers(.uint8((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            case .bool:
                values[layer.name] = .numbers(.bool((0..<count).map { _ in Bool.random(using: &generator) }))
            case .int8, .int16, .int32, .int64:
                values[layer.name] = .numbers(.int8((0..<count).map { _ in Int8.random(in: 0...100, using: &generator) }))
            }
        }
        return .named(values)
    }
}
