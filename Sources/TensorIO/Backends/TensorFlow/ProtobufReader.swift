/// The little of the protocol-buffer wire format TensorIO needs to read a SavedModel's `saved_model.pb`
/// (its signatures) and a `MetaGraphDef` (its saver), without a protocol-buffer library.
///
/// The bytes come from files, so nothing is trusted: a length past the end, a varint of more than ten
/// bytes or a deprecated group makes the message malformed (`nil`), never a read outside the buffer.
/// Every loop consumes at least one byte per step, so it ends.
enum ProtobufReader {
    /// One field of a message, as stored.
    enum Value {
        case varint(UInt64)
        case fixed64
        case fixed32
        case bytes(UnsafeRawBufferPointer)
    }

    /// Every top-level field of `message` in order, or `nil` when it is malformed.
    static func fields(of message: UnsafeRawBufferPointer) -> [(number: UInt64, value: Value)]? {
        var offset = 0
        var fields: [(number: UInt64, value: Value)] = []
        while offset < message.count {
            guard let key = varint(message, &offset) else { return nil }
            let number = key >> 3
            switch key & 7 {
            case 0:
                guard let value = varint(message, &offset) else { return nil }
                fields.append((number, .varint(value)))
            case 1:
                guard message.count - offset >= 8 else { return nil }
                offset += 8
                fields.append((number, .fixed64))
            case 5:
                guard message.count - offset >= 4 else { return nil }
                offset += 4
                fields.append((number, .fixed32))
            case 2:
                guard let length = varint(message, &offset), length <= UInt64(message.count - offset) else { return nil }
                let end = offset + Int(length)
                fields.append((number, .bytes(UnsafeRawBufferPointer(rebasing: message[offset..<end]))))
                offset = end
            default:  // groups (3, 4) are long deprecated and not used by TensorFlow's messages
                return nil
            }
        }
        return fields
    }

    /// The bytes of every length-delimited field `number` at the top level of `message`, in order; `nil`
    /// when the message is malformed.
    static func lengthDelimitedFields(_ number: UInt64, in message: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer]? {
        fields(of: message)?.compactMap { field in
            guard field.number == number, case .bytes(let bytes) = field.value else { return nil }
            return bytes
        }
    }

    /// The bytes of the last length-delimited field `number` at the top level of `message` (the last one
    /// wins, as protocol buffers merge), or `nil` when absent or the message is malformed.
    static func lengthDelimitedField(_ number: UInt64, in message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        lengthDelimitedFields(number, in: message)?.last
    }

    /// The last varint field `number` at the top level of `message`, or `nil`.
    static func varintField(_ number: UInt64, in message: UnsafeRawBufferPointer) -> UInt64? {
        fields(of: message)?.reversed().lazy.compactMap { field -> UInt64? in
            guard field.number == number, case .varint(let value) = field.value else { return nil }
            return value
        }.first
    }

    private static func varint(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
