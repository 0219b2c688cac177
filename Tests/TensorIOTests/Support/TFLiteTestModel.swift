@testable import TensorIO
@testable import TensorIOModelFile

/// A FlatBuffers table to serialize: fields by vtable slot.
struct FlatBufferTestTable {
    var fields: [(slot: Int, value: FlatBufferTestValue)]

    init(_ fields: [(Int, FlatBufferTestValue)] = []) {
        self.fields = fields.map { (slot: $0.0, value: $0.1) }
    }

    /// Sets (or adds) the field in `slot`.
    mutating func set(_ slot: Int, _ value: FlatBufferTestValue) {
        fields.removeAll { $0.slot == slot }
        fields.append((slot, value))
    }
}

/// A field value: inline scalars, or offsets to tables, vectors and strings.
indirect enum FlatBufferTestValue {
    case uint8(UInt8)
    case int8(Int8)
    case int32(Int32)
    case uint32(UInt32)
    case uint64(UInt64)
    case table(FlatBufferTestTable)
    case tables([FlatBufferTestTable])
    case int32s([Int32])
    case int64s([Int64])
    case floats([Float])
    case bytes([UInt8])
    case string(String)
    /// A vector or string header claiming `count` elements with none after it: a length that runs
    /// past the end of the buffer.
    case claimedVector(count: UInt32)

    var inlineByteCount: Int {
        switch self {
        case .uint8, .int8: 1
        case .uint64: 8
        default: 4
        }
    }
}

/// Writes FlatBuffers front to back, for tests that need a model with exactly the fields they name.
///
/// Children are placed after the table or vector that points to them, so every `uoffset` is forward
/// (as the format requires); each vtable sits just before its table. Nothing is aligned: the verifier
/// must not depend on alignment, and these buffers are never given to LiteRT.
struct FlatBufferTestWriter {
    private(set) var bytes: [UInt8] = []

    /// The serialized buffer: root offset, identifier, then the root table.
    static func serialize(_ root: FlatBufferTestTable, identifier: String = "TFL3") -> [UInt8] {
        var writer = FlatBufferTestWriter()
        writer.bytes = [0, 0, 0, 0] + Array(identifier.utf8.prefix(4))
        let position = writer.place(root)
        writer.patch(UInt32(position), at: 0)
        return writer.bytes
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func patch(_ value: UInt32, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[position + index] = byte }
        }
    }

    /// Points the offset stored at `position` at `target`.
    private mutating func link(_ position: Int, to target: Int) {
        patch(UInt32(target - position), at: position)
    }

    private mutating func place(_ table: FlatBufferTestTable) -> Int {
        let slotCount = (table.fields.map(\.slot).max() ?? -1) + 1
        var fieldOffsets = Array(repeating: UInt16(0), count: slotCount)
        var objectByteCount = 4
        for field in table.fields {
            fieldOffsets[field.slot] = UInt16(objectByteCount)
            objectByteCount += field.value.inlineByteCount
        }
        let vtable = bytes.count
        append(UInt16(4 + 2 * slotCount))
        append(UInt16(objectByteCount))
        for offset in fieldOffsets { append(offset) }
        let position = bytes.count
        append(Int32(position - vtable))
        var pending: [(position: Int, value: FlatBufferTestValue)] = []
        for field in table.fields {
            let fieldPosition = bytes.count
            switch field.value {
            case .uint8(let value): append(value)
            case .int8(let value): append(value)
            case .int32(let value): append(value)
            case .uint32(let value): append(value)
            case .uint64(let value): append(value)
            default:
                append(UInt32(0))
                pending.append((fieldPosition, field.value))
            }
        }
        for (fieldPosition, value) in pending {
            link(fieldPosition, to: place(value))
        }
        return position
    }

    private mutating func place(_ value: FlatBufferTestValue) -> Int {
        let position = bytes.count
        switch value {
        case .table(let table):
            return place(table)
        case .tables(let tables):
            append(UInt32(tables.count))
            let slots = bytes.count
            for _ in tables { append(UInt32(0)) }
            for (index, table) in tables.enumerated() {
                link(slots + 4 * index, to: place(table))
            }
        case .int32s(let values):
            append(UInt32(values.count))
            for value in values { append(value) }
        case .int64s(let values):
            append(UInt32(values.count))
            for value in values { append(value) }
        case .floats(let values):
            append(UInt32(values.count))
            for value in values { append(value.bitPattern) }
        case .bytes(let values):
            append(UInt32(values.count))
            bytes.append(contentsOf: values)
        case .claimedVector(let count):
            append(count)
        case .string(let text):
            append(UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        case .uint8, .int8, .int32, .uint32, .uint64:
            preconditionFailure("scalars are stored inline")
        }
        return position
    }
}

/// A small, valid TFLite model (one ADD of an input and a constant) whose parts tests change to make
/// exactly one thing wrong.
struct TFLiteTestModel {
    typealias Schema = TFLiteSchema

    var operatorCodes = [FlatBufferTestTable([(Schema.OperatorCode.builtinCode, .int32(0))])]
    var tensors = [
        Self.tensor(shape: [1, 4], buffer: 0, name: "input"),
        Self.tensor(shape: [1, 4], buffer: 1, name: "constant"),
        Self.tensor(shape: [1, 4], buffer: 0, name: "output"),
    ]
    var operators = [
        FlatBufferTestTable([
            (Schema.Operator.opcodeIndex, .uint32(0)),
            (Schema.Operator.inputs, .int32s([0, 1])),
            (Schema.Operator.outputs, .int32s([2])),
        ]),
    ]
    var subgraphInputs: [Int32] = [0]
    var subgraphOutputs: [Int32] = [2]
    /// Subgraphs after the main one.
    var extraSubgraphs: [FlatBufferTestTable] = []
    var buffers = [FlatBufferTestTable(), FlatBufferTestTable([(Schema.Buffer.data, .bytes(Array(repeating: 0, count: 16)))])]
    var signatures = [
        FlatBufferTestTable([
            (Schema.SignatureDef.inputs, .tables([FlatBufferTestTable([(Schema.TensorMap.name, .string("x")), (Schema.TensorMap.tensorIndex, .uint32(0))])])),
            (Schema.SignatureDef.outputs, .tables([FlatBufferTestTable([(Schema.TensorMap.name, .string("y")), (Schema.TensorMap.tensorIndex, .uint32(2))])])),
            (Schema.SignatureDef.signatureKey, .string("serving_default")),
            (Schema.SignatureDef.subgraphIndex, .uint32(0)),
        ]),
    ]
    var metadataBuffers: [Int32]?
    /// `Model.metadata` entries (name and buffer index), such as `TFLITE_METADATA`.
    var metadata: [FlatBufferTestTable]?
    var identifier = "TFL3"

    /// A float32 tensor (unless `type` says otherwise).
    static func tensor(shape: [Int32], type: Int8 = 0, buffer: UInt32, name: String) -> FlatBufferTestTable {
        FlatBufferTestTable([
            (Schema.Tensor.shape, .int32s(shape)),
            (Schema.Tensor.type, .int8(type)),
            (Schema.Tensor.buffer, .uint32(buffer)),
            (Schema.Tensor.name, .string(name)),
        ])
    }

    /// A subgraph with one tensor and no operators.
    static func emptySubgraph() -> FlatBufferTestTable {
        FlatBufferTestTable([
            (Schema.SubGraph.tensors, .tables([tensor(shape: [1], buffer: 0, name: "t")])),
            (Schema.SubGraph.inputs, .int32s([0])),
            (Schema.SubGraph.outputs, .int32s([0])),
        ])
    }

    func serialized() -> [UInt8] {
        let main = FlatBufferTestTable([
            (Schema.SubGraph.tensors, .tables(tensors)),
            (Schema.SubGraph.inputs, .int32s(subgraphInputs)),
            (Schema.SubGraph.outputs, .int32s(subgraphOutputs)),
            (Schema.SubGraph.operators, .tables(operators)),
            (Schema.SubGraph.name, .string("main")),
        ])
        var model = FlatBufferTestTable([
            (Schema.Model.version, .uint32(3)),
            (Schema.Model.operatorCodes, .tables(operatorCodes)),
            (Schema.Model.subgraphs, .tables([main] + extraSubgraphs)),
            (Schema.Model.buffers, .tables(buffers)),
            (Schema.Model.signatureDefs, .tables(signatures)),
        ])
        if let metadataBuffers { model.set(Schema.Model.metadataBuffer, .int32s(metadataBuffers)) }
        if let metadata { model.set(Schema.Model.metadata, .tables(metadata)) }
        return FlatBufferTestWriter.serialize(model, identifier: identifier)
    }
}
