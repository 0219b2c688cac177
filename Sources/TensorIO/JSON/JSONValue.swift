public import Foundation

/// A parsed JSON document, kept as a tree so that `model.json` can be checked field by field and every
/// problem reported with its path.
@_spi(Internal) public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text.
    ///
    /// - Parameter data: UTF-8 JSON text.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidBundle``) saying where the syntax error is.
    @_spi(Internal) public init(parsing data: Data) throws {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw TensorIOError(.invalidBundle, JSONValue.describeSyntaxError(in: data))
        }
    }

    /// Where the first syntax error is, as "line L, column C: reason". JSONDecoder does not say; the
    /// older JSONSerialization parser gives a character offset, which is turned into a line and column.
    private static func describeSyntaxError(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "not a JSON document"
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not valid JSON"
            guard let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
                  let offset = Int(detail[range].dropFirst("character ".count))
            else { return detail }
            let prefix = data.prefix(offset)
            let line = prefix.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            let reason = detail.replacingOccurrences(of: #" around character \d+\.?"#, with: "", options: .regularExpression)
            return "line \(line), column \(column): \(reason.lowercased())"
        }
    }

    /// The value as written in JSON, shortened for use in messages.
    @_spi(Internal) public var brief: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return JSONValue.format(value)
        case .string(let value): return "\"\(value)\""
        case .array(let values):
            let inner = values.prefix(8).map(\.brief).joined(separator: ",")
            return values.count > 8 ? "[\(inner),…]" : "[\(inner)]"
        case .object: return "an object"
        }
    }

    /// The JSON type's name, for messages such as "expected a string, got a number".
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
