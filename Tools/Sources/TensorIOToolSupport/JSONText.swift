import Foundation
@_spi(Internal) package import TensorIO

/// Writes JSON with keys in the order given (Foundation's encoder sorts or scrambles them, and the
/// outputs must come in model.json order) and numbers in their shortest exact form.
package enum JSONText {
    /// A JSON value to print.
    package indirect enum Value {
        case null
        case bool(Bool)
        case integer(Int64)
        case float(Float)
        case double(Double)
        case string(String)
        case array([Value])
        case object([(String, Value)])
    }

    package static func render(_ value: Value) -> String {
        var text = ""
        write(value, into: &text)
        return text
    }

    /// The value as a document to read and edit (`model.json`): two-space indents, one member per line,
    /// arrays of numbers and strings on one line.
    package static func renderPretty(_ value: Value) -> String {
        var text = ""
        writePretty(value, indent: "", into: &text)
        return text + "\n"
    }

    private static func writePretty(_ value: Value, indent: String, into text: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let items) where items.contains(where: { if case .array = $0 { true } else if case .object = $0 { true } else { false } }):
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                writePretty(item, indent: inner, into: &text)
                text += index < items.count - 1 ? ",\n" : "\n"
            }
            text += indent + "]"
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += ", " }
                write(item, into: &text)
            }
            text += "]"
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (index, (key, item)) in members.enumerated() {
                text += inner + JSONStringLiteral.quoted(key) + ": "
                writePretty(item, indent: inner, into: &text)
                text += index < members.count - 1 ? ",\n" : "\n"
            }
            text += indent + "}"
        default:
            write(value, into: &text)
        }
    }

    private static func write(_ value: Value, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number): text += String(number)
        case .float(let number): text += format(number.isFinite ? number.description : nil)
        case .double(let number):
            // A double that is exactly a float (a float32 tensor's value) prints as the short float.
            if let single = Float(exactly: number) {
                text += format(single.isFinite ? single.description : nil)
            } else {
                text += format(number.isFinite ? number.description : nil)
            }
        case .string(let string): text += JSONStringLiteral.quoted(string)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                write(item, into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { text += "," }
                text += JSONStringLiteral.quoted(key) + ":"
                write(item, into: &text)
            }
            text += "}"
        }
    }

    /// Swift prints 25.0; JSON readers and people prefer 25. Infinities and NaN have no JSON form.
    private static func format(_ description: String?) -> String {
        guard let description else { return "null" }
        return description.hasSuffix(".0") ? String(description.dropLast(2)) : description
    }
}

extension JSONText.Value {
    /// The numbers of an output: one JSON number for a single element, else an array flattened
    /// row-major.
    package init(_ numbers: NumericArray) {
        let values: [JSONText.Value] = switch numbers {
        case .float32(let values): values.map { .float($0) }
        case .float64(let values): values.map { .double($0) }
        case .bool(let values): values.map { .bool($0) }
        case .uint8(let values): values.map { .integer(Int64($0)) }
        case .int8(let values): values.map { .integer(Int64($0)) }
        case .int16(let values): values.map { .integer(Int64($0)) }
        case .int32(let values): values.map { .integer(Int64($0)) }
        case .int64(let values): values.map { .integer($0) }
        case .int(let values): values.map { .integer(Int64($0)) }
        case .uint16(let values): values.map { .integer(Int64($0)) }
        case .uint32(let values): values.map { .integer(Int64($0)) }
        case .uint64(let values): values.map { Int64(exactly: $0).map { .integer($0) } ?? .double(Double($0)) }
        case .uint(let values): values.map { Int64(exactly: $0).map { .integer($0) } ?? .double(Double($0)) }
        }
        self = values.count == 1 ? values[0] : .array(values)
    }
}

extension JSONText {
    /// `value` encoded in the tool's JSON style: snake_case keys (as every `--json` output of the tool has,
    /// whereas the repository server's HTTP API keeps camelCase), sorted, dates in ISO 8601.
    package static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
