import Foundation
internal import TensorIOSupport

/// Named tensors in the safetensors format (Hugging Face's): an 8-byte little-endian header length, a
/// JSON header giving each tensor's dtype, shape and byte range, then the raw little-endian bytes.
///
/// TensorIO keeps the weights a TensorFlow Lite model learnt on the device in this format: it is simple,
/// has no code in it, and Python reads it with `safetensors.numpy.load_file`.
struct SafetensorsFile: Sendable, Hashable {
    struct Tensor: Sendable, Hashable {
        var dataType: DataType
        var shape: [Int]
        var bytes: Data
    }

    /// The tensors by name.
    var tensors: [String: Tensor]

    init(tensors: [String: Tensor]) {
        self.tensors = tensors
    }

    /// Reads a file.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``) naming the file and what is wrong with it.
    init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TensorIOError(.io, "cannot read the weights file \(url.path): \(SystemErrorText.reason(of: error))")
        }
        func corrupt(_ reason: String) -> TensorIOError {
            TensorIOError(.io, "\(url.lastPathComponent) is not a valid safetensors file: \(reason)")
        }
        guard data.count >= 8 else { throw corrupt("it is \(data.count) bytes long") }
        let headerLength = data.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        guard headerLength <= UInt64(data.count - 8) else { throw corrupt("its header claims \(headerLength) bytes") }
        let body = data.startIndex + 8 + Int(headerLength)
        let header: JSONValue
        do {
            header = try JSONValue(parsing: Data(data[(data.startIndex + 8)..<body]))
        } catch {
            throw corrupt("its header is not JSON")
        }
        guard case .object(let entries) = header else { throw corrupt("its header is not a JSON object") }
        var tensors: [String: Tensor] = [:]
        for (name, entry) in entries where name != "__metadata__" {
            guard case .object(let fields) = entry,
                  case .string(let dtype)? = fields["dtype"], let dataType = Self.dataType(dtype),
                  case .array(let shapeValues)? = fields["shape"],
                  case .array(let offsets)? = fields["data_offsets"], offsets.count == 2,
                  case .number(let begin) = offsets[0], case .number(let end) = offsets[1],
                  begin >= 0, end >= begin, end <= Double(data.count - (body - data.startIndex))
            else { throw corrupt("the entry for \"\(name)\" is malformed") }
            var shape: [Int] = []
            for value in shapeValues {
                guard case .number(let size) = value, size >= 0, size == size.rounded() else {
                    throw corrupt("the shape of \"\(name)\" is malformed")
                }
                shape.append(Int(size))
            }
            let byteCount = Int(end - begin)
            guard byteCount == shape.reduce(1, *) * dataType.byteCount else {
                throw corrupt("\"\(name)\" has \(byteCount) bytes for shape \(shape) of \(dataType)")
            }
            tensors[name] = Tensor(dataType: dataType, shape: shape, bytes: data[(body + Int(begin))..<(body + Int(end))])
        }
        self.tensors = tensors
    }

    /// Writes the file atomically (a temporary file renamed into place).
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``) when it cannot be written.
    func write(to url: URL) throws {
        var header = "{"
        var offset = 0
        for (index, name) in tensors.keys.sorted().enumerated() {
            let tensor = tensors[name]!
            if index > 0 { header += "," }
            header += "\(JSONStringLiteral.quoted(name)):{\"dtype\":\"\(Self.name(of: tensor.dataType))\",\"shape\":\(tensor.shape),\"data_offsets\":[\(offset),\(offset + tensor.bytes.count)]}"
            offset += tensor.bytes.count
        }
        header += "}"
        // Pad the header with spaces so the tensor bytes start 8-byte aligned, as the format recommends.
        while (header.utf8.count % 8) != 0 { header += " " }
        var data = Data()
        var length = UInt64(header.utf8.count).littleEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(contentsOf: header.utf8)
        for name in tensors.keys.sorted() { data.append(tensors[name]!.bytes) }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw TensorIOError(.io, "cannot write the weights file \(url.path): \(SystemErrorText.reason(of: error))")
        }
    }

    private static let names: [(DataType, String)] = [
        (.float32, "F32"), (.float64, "F64"), (.float16, "F16"), (.int64, "I64"), (.int32, "I32"),
        (.int16, "I16"), (.int8, "I8"), (.uint8, "U8"), (.bool, "BOOL"),
    ]

    private static func name(of type: DataType) -> String {
        names.first { $0.0 == type }?.1 ?? "U8"
    }

    private static func dataType(_ name: String) -> DataType? {
        names.first { $0.1 == name }?.0
    }
}
