import Foundation

extension TensorBinding {
    /// Writes a value into this input tensor's memory, converting each number to the tensor's type.
    ///
    /// Numbers must match the tensor's element count and raw bytes its byte count; bytes and numbers of
    /// the tensor's own type are copied with one `memcpy`.
    ///
    /// The common case, numbers already of the tensor's type and count, is inlined into the run; every
    /// other value goes through `writeConverting(_:to:)`.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) naming the layer, what it expects
    ///   and what was given.
    @inline(__always)
    func write(_ value: InputValue, to destination: TensorMemory) throws {
        if case .numbers(let numbers) = value, quantizer == nil,
           numbers.copyBytes(ifElementsAre: dataType, count: elementCount, to: destination)
        {
            return
        }
        try writeConverting(value, to: destination)
    }

    /// ``write(_:to:)`` for every value that is not a plain copy.
    @inline(never)
    private func writeConverting(_ value: InputValue, to destination: TensorMemory) throws {
        switch value {
        case .image(let image):
            try writeImage(image, to: destination)
        case .bytes(let data):
            guard data.count == byteCount else {
                throw TensorIOError.invalidInput(
                    "expected \(byteCount) bytes (\(elementCount) \(dataType) values), got \(data.count) bytes",
                    layer: layer.name
                )
            }
            data.withUnsafeBytes { destination.copyBytes(from: $0) }
        case .named, .positional:
            throw TensorIOError.invalidInput(
                "expected \(elementCount) numbers or \(byteCount) bytes, got \(value.summary)", layer: layer.name
            )
        case .numbers(let numbers):
            guard numbers.count == elementCount else {
                throw TensorIOError.invalidInput(
                    "expected \(elementCount) \(elementCount == 1 ? "number" : "numbers") (shape \(shape)), got \(numbers.count)",
                    layer: layer.name
                )
            }
            var writer = ElementWriter(
                destination: destination, dataType: dataType, quantizer: quantizer, layerName: layer.name
            )
            try numbers.visit(&writer)
        }
    }
}

/// Converts numbers into a tensor's element type, element by element.
private struct ElementWriter: NumericVisitor {
    typealias Failure = TensorIOError

    let destination: TensorMemory
    let dataType: DataType
    let quantizer: Quantizer?
    let layerName: String
    var offset = 0

    init(destination: TensorMemory, dataType: DataType, quantizer: Quantizer?, layerName: String) {
        self.destination = destination
        self.dataType = dataType
        self.quantizer = quantizer
        self.layerName = layerName
    }

    mutating func visit<S: NumericElement>(_ source: UnsafeBufferPointer<S>) throws(TensorIOError) {
        defer { offset += source.count }
        // Numbers already of the tensor's type get here only for a quantized layer: `write` copies the
        // others in one go.
        let start = destination.slice(from: offset * dataType.byteCount, count: source.count * dataType.byteCount)
        switch dataType {
        case .float32:
            let target = start.elements(Float.self, count: source.count)
            // Doubles (what data files give) take a loop of their own that the compiler vectorises.
            if S.self == Double.self, !target.storeReportingInfinity(doubles: source) {
                break
            }
            // Other element types (and doubles when an infinity came out): convert, and note a finite
            // value that became infinite; the first one is named below.
            var overflow: UInt8 = 0
            for index in source.indices {
                let value = source[index].doubleValue
                let converted = Float(value)
                overflow |= (converted.isInfinite ? 1 : 0) & (value.isFinite ? 1 : 0)
                target[index] = converted
            }
            if overflow != 0, let index = source.indices.first(where: {
                let value = source[$0].doubleValue
                return Float(value).isInfinite && value.isFinite
            }) {
                throw TensorIOError.invalidInput(
                    "value \(source[index].doubleValue) at index \(offset + index) does not fit the layer's float32 elements",
                    layer: layerName
                )
            }
        case .float64:
            let target = start.elements(Double.self, count: source.count)
            for index in source.indices { target[index] = source[index].doubleValue }
        case .float16:
            let target = start.elements(UInt16.self, count: source.count)
            for index in source.indices { target[index] = HalfFloat.bits(from: Float(source[index].doubleValue)) }
        case .bool:
            let target = start.elements(UInt8.self, count: source.count)
            for index in source.indices { target[index] = source[index].doubleValue != 0 ? 1 : 0 }
        case .uint8: try writeIntegers(source, at: start, as: UInt8.self)
        case .int8: try writeIntegers(source, at: start, as: Int8.self)
        case .int16: try writeIntegers(source, at: start, as: Int16.self)
        case .int32: try writeIntegers(source, at: start, as: Int32.self)
        case .int64: try writeIntegers(source, at: start, as: Int64.self)
        }
    }

    /// Quantized layers round and clamp to the type's range; other integer layers round floats to the
    /// nearest integer and refuse values the type cannot hold.
    private func writeIntegers<S: NumericElement, D: FixedWidthInteger>(
        _ source: UnsafeBufferPointer<S>, at start: TensorMemory, as _: D.Type
    ) throws(TensorIOError) {
        let target = start.elements(D.self, count: source.count)
        if let quantizer {
            let low = Float(D.min), high = Float(D.max)
            for index in source.indices {
                let value = quantizer.unrounded(Float(source[index].doubleValue)).rounded()
                target[index] = value.isNaN ? 0 : D(max(low, min(high, value)))
            }
            return
        }
        for index in source.indices {
            let converted: D?
            if S.isInteger {
                converted = source[index].exactInt64.flatMap { D(exactly: $0) }
            } else {
                converted = D(exactly: source[index].doubleValue.rounded())
            }
            guard let converted else {
                throw TensorIOError.invalidInput(
                    "value \(source[index]) at index \(offset + index) does not fit the layer's \(dataType) elements",
                    layer: layerName
                )
            }
            target[index] = converted
        }
    }
}

extension TensorBinding {
    /// The binding of one item of this layer (`layer.elementCount` elements), for tensors that hold a
    /// batch of items.
    func item(shape itemShape: [Int]? = nil) -> TensorBinding {
        let item = TensorBinding(
            layer: layer, dataType: dataType, shape: itemShape ?? [layer.elementCount], quantizer: quantizer,
            dequantizer: dequantizer
        )
        return item
    }

    /// Writes one value per item, one item after another from `destination`; errors name the item when
    /// there are several.
    ///
    /// - Throws: ``TensorIOError`` naming the item and layer when a value does not fit.
    func writeItems(_ values: [InputValue], to destination: TensorMemory) throws {
        let item = item()
        let itemBytes = item.byteCount
        for (index, value) in values.enumerated() {
            try TensorIOError.locating(item: index, of: values.count) {
                try item.write(value, to: destination.slice(from: index * itemBytes, count: itemBytes))
            }
        }
    }
}

extension TensorBinding {
    /// Writes a batch column of `count` items, one item after another from `destination`. A column kept
    /// as one array of numbers (``Batch/Column/numbers(_:width:)``) is written with one conversion over
    /// the whole tensor, where a value per item costs a dispatch and a check per item; errors name the
    /// item either way.
    func writeItems(_ column: Batch.Column, count: Int, to destination: TensorMemory) throws {
        // Rows of a data source's table into a float32 tensor: each row copied from the table's float32
        // numbers (converted once, as this conversion would), no array gathered in between.
        if case .rows(let table, let indices) = column, dataType == .float32, quantizer == nil,
           table.width == layer.elementCount, indices.count * table.width == elementCount, let floats = table.float32 {
            destination.copyRows(indices, width: table.width, of: floats)
            return
        }
        if let (numbers, width) = column.gatheredNumbers, width == layer.elementCount, numbers.count == elementCount,
           (try? write(.numbers(numbers), to: destination)) != nil {
            return
        }
        // Item by item, which says which item did not fit.
        try writeItems(column.values(count: count), to: destination)
    }
}
