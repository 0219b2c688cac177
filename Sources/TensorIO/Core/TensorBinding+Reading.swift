import Foundation

extension TensorBinding {
    /// Reads this output tensor's memory into the value the layer calls for: labelled scores, numbers
    /// with their shape, pixels for image layers, or raw bytes for string layers.
    func read(from source: TensorMemory) -> Output.Value {
        switch outputForm {
        case .bytes:
            return .bytes(source.data(count: byteCount))
        case .image:
            if let image = readImage(from: source) { return .image(image) }
            return .numbers(readValues(from: source), shape: shape)
        case .scalar:
            return .numbers(readScalar(from: source), shape: shape)  // no loop for a single value
        case .labeled(let labels):
            return .labeled(LabeledScores(unchecked: labels, scores: readValues(from: source).floats))
        case .numbers:
            return .numbers(readValues(from: source), shape: shape)
        }
    }

    private func readScalar(from source: TensorMemory) -> NumericArray {
        if let dequantizer, !dataType.isFloatingPoint {
            let raw: Float = switch dataType {
            case .uint8, .bool: Float(source.load(as: UInt8.self))
            case .int8: Float(source.load(as: Int8.self))
            case .int16: Float(source.load(as: Int16.self))
            case .int32: Float(source.load(as: Int32.self))
            case .int64: Float(source.load(as: Int64.self))
            case .float16, .float32, .float64: 0
            }
            return .float32([dequantizer(raw)])
        }
        switch dataType {
        case .uint8: return .uint8([source.load(as: UInt8.self)])
        case .int8: return .int8([source.load(as: Int8.self)])
        case .int16: return .int16([source.load(as: Int16.self)])
        case .int32: return .int32([source.load(as: Int32.self)])
        case .int64: return .int64([source.load(as: Int64.self)])
        case .float16: return .float32([HalfFloat.float(from: source.load(as: UInt16.self))])
        case .float32: return .float32([source.load(as: Float.self)])
        case .float64: return .float64([source.load(as: Double.self)])
        case .bool: return .bool([source.load(as: UInt8.self) != 0])
        }
    }

    private func readValues(from source: TensorMemory) -> NumericArray {
        let count = elementCount
        if let dequantizer, !dataType.isFloatingPoint {
            var floats = [Float](repeating: 0, count: count)
            switch dataType {
            case .uint8: dequantize(source, as: UInt8.self, into: &floats, dequantizer)
            case .int8: dequantize(source, as: Int8.self, into: &floats, dequantizer)
            case .int16: dequantize(source, as: Int16.self, into: &floats, dequantizer)
            case .int32: dequantize(source, as: Int32.self, into: &floats, dequantizer)
            case .int64: dequantize(source, as: Int64.self, into: &floats, dequantizer)
            case .bool: dequantize(source, as: UInt8.self, into: &floats, dequantizer)
            case .float16, .float32, .float64: break
            }
            return .float32(floats)
        }
        switch dataType {
        case .uint8: return .uint8(copy(source, as: UInt8.self, count: count))
        case .int8: return .int8(copy(source, as: Int8.self, count: count))
        case .int16: return .int16(copy(source, as: Int16.self, count: count))
        case .int32: return .int32(copy(source, as: Int32.self, count: count))
        case .int64: return .int64(copy(source, as: Int64.self, count: count))
        case .float32: return .float32(copy(source, as: Float.self, count: count))
        case .float64: return .float64(copy(source, as: Double.self, count: count))
        case .float16: return .float32(copy(source, as: UInt16.self, count: count).map(HalfFloat.float(from:)))
        case .bool: return .bool(copy(source, as: UInt8.self, count: count).map { $0 != 0 })
        }
    }

    private func copy<T>(_ source: TensorMemory, as _: T.Type, count: Int) -> [T] {
        source.elements(T.self, count: count).array()
    }

    private func dequantize<T: BinaryInteger>(
        _ source: TensorMemory, as _: T.Type, into floats: inout [Float], _ dequantizer: Dequantizer
    ) {
        let typed = source.elements(T.self, count: floats.count)
        for index in floats.indices { floats[index] = dequantizer(Float(typed[index])) }
    }
}

extension TensorBinding {
    /// This output's binding for the shape the runtime reports after a run: `self` when the shape is the
    /// one the binding was made for, else a binding of the new shape, after checking that the shape fits
    /// the memory that holds the output and the shape `model.json` declares.
    ///
    /// - Parameters:
    ///   - shape: The shape the runtime reports for the output's tensor after the run.
    ///   - capacity: Bytes of the memory the run wrote the output into.
    ///   - tensorName: The tensor's name, for errors.
    ///   - fileName: The model file's name, for errors.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/layerMismatch``) naming the output, both shapes
    ///   and the file when the shape disagrees with `model.json`'s; (``TensorIOError/Code/runtimeFailure``)
    ///   when it needs more bytes than `capacity` (it is never read past its memory).
    func atRunShape(_ shape: [Int], capacity: Int, tensorName: String, fileName: String) throws -> TensorBinding {
        guard shape != self.shape else { return self }
        let elements = shape.allSatisfy { $0 >= 0 } ? LayerTensorCheck.product(shape) : nil
        let bytes = elements.flatMap { count in
            let (bytes, overflow) = count.multipliedReportingOverflow(by: dataType.byteCount)
            return overflow ? nil : bytes
        }
        guard let bytes, bytes <= capacity else {
            throw TensorIOError(
                .runtimeFailure,
                "\(fileName): after the run the runtime gives output \"\(layer.name)\" (tensor \"\(tensorName)\") the shape \(shape), more than the \(capacity) bytes that hold it; nothing was read",
                location: "layer \"\(layer.name)\""
            )
        }
        if let problem = LayerTensorCheck.runShapeProblem(layer: layer, shape: shape, tensorName: tensorName) {
            throw TensorIOError(
                .layerMismatch, "\(fileName): after the run, \(problem)", location: "layer \"\(layer.name)\""
            )
        }
        return TensorBinding(
            layer: layer, dataType: dataType, shape: shape, quantizer: quantizer, dequantizer: dequantizer
        )
    }
}
