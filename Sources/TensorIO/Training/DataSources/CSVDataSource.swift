public import Foundation
internal import TensorIOSupport

/// Training items from a CSV file whose header names the columns after input layers.
///
/// A column named like a layer (`label`) holds that layer's value: one number, or several separated by
/// spaces. Numbered columns (`pixel_0`, `pixel_1`, … for a layer `pixel`) hold one element each, joined in
/// index order. A single class index for a one-hot layer becomes the one-hot vector.
public struct CSVDataSource: BatchDataSource {
    public let keys: [String]
    /// Each row's fields, each one or more numbers.
    private let rows: [[[Double]]]
    /// For each key, the row's columns holding its elements, in element order.
    private let columns: [String: [Int]]
    private let layers: [String: LayerDescription]
    private let fileName: String
    /// When every row converts, the items' values by key: every item's numbers end to end (all items
    /// give a key as many numbers), a table per key, whose rows training batches hold.
    private var valueColumns: [Batch.Column]?

    /// Reads and checks the file.
    ///
    /// - Parameters:
    ///   - url: The CSV file: a header row, then one row per item.
    ///   - layers: The layers the items feed (a model's inputs).
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/io`` when the file cannot be read;
    ///   ``TensorIOError/Code/invalidInput`` naming the line and column when a column matches no layer, a
    ///   row has the wrong number of fields, or a field is not a number.
    public init(contentsOf url: URL, layers: LayerList) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw TensorIOError(.io, "cannot read the training data \(url.path): \(SystemErrorText.reason(of: error))")
        }
        let name = url.lastPathComponent
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { throw TensorIOError.invalidInput("\(name) is empty: it needs a header row naming the columns") }
        let header = Self.fields(lines.removeFirst())
        let known = Set(layers.names)

        var columns: [String: [(position: Int, column: Int)]] = [:]
        for (column, title) in header.enumerated() {
            if known.contains(title) {
                columns[title, default: []].append((-1, column))
            } else if let underscore = title.lastIndex(of: "_"), let position = Int(title[title.index(after: underscore)...]),
                      known.contains(String(title[..<underscore])) {
                columns[String(title[..<underscore]), default: []].append((position, column))
            } else {
                throw TensorIOError.invalidInput(
                    "\(name): column \(column + 1) \"\(title)\" matches no input layer (\(layers.names.map { "\"\($0)\"" }.joined(separator: ", "))); name columns after layers, or LAYER_0, LAYER_1, …"
                )
            }
        }
        for (key, parts) in columns where parts.count > 1 && parts.contains(where: { $0.position < 0 }) {
            throw TensorIOError.invalidInput("\(name): layer \"\(key)\" has both a column of its own name and numbered columns")
        }

        var rows: [[[Double]]] = []
        rows.reserveCapacity(lines.count)
        for (offset, line) in lines.enumerated() {
            let fields = Self.fields(line)
            let lineNumber = offset + 2
            guard fields.count == header.count else {
                throw TensorIOError.invalidInput("\(name) line \(lineNumber): \(fields.count) fields, but the header has \(header.count)")
            }
            rows.append(try fields.enumerated().map { column, field in
                // A layer's own column may hold several numbers separated by spaces.
                let values = try field.split(separator: " ", omittingEmptySubsequences: true).map { part in
                    guard let number = Double(part) else {
                        throw TensorIOError.invalidInput("\(name) line \(lineNumber), column \"\(header[column])\": \"\(field)\" is not a number")
                    }
                    return number
                }
                guard !values.isEmpty else {
                    throw TensorIOError.invalidInput("\(name) line \(lineNumber), column \"\(header[column])\": empty field")
                }
                return values
            })
        }
        self.keys = columns.keys.sorted()
        self.rows = rows
        self.columns = columns.mapValues { parts in parts.sorted { $0.position < $1.position }.map(\.column) }
        self.layers = Dictionary(layers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.fileName = name
        self.valueColumns = nil
        self.valueColumns = makeColumns()
    }

    /// Every row's values by key, or `nil` when a row does not convert (it throws when asked for) or a
    /// key's count of numbers differs between rows.
    private func makeColumns() -> [Batch.Column]? {
        Batch.Column.numbers(keys: keys, count: rows.count) { try? item(at: $0) }
    }

    public var count: Int { rows.count }

    public func item(at index: Int) throws -> Batch.Item {
        guard rows.indices.contains(index) else {
            throw TensorIOError.invalidInput("item \(index) is out of range: \(fileName) has \(rows.count) rows")
        }
        var item: Batch.Item = [:]
        for key in keys {
            let values = columns[key, default: []].flatMap { rows[index][$0] }
            item[key] = try TrainingValueEncoding.numbers(values, for: layers[key], at: "\(fileName) line \(index + 2)")
        }
        return item
    }

    /// - Throws: As ``item(at:)``, for the first item that fails.
    public func batch(at indices: [Int]) throws -> Batch {
        guard let valueColumns else { return try batchOfItems(at: indices) }
        if let index = indices.first(where: { !rows.indices.contains($0) }) {
            throw TensorIOError.invalidInput("item \(index) is out of range: \(fileName) has \(rows.count) rows")
        }
        return Batch(keys: keys, count: indices.count, columns: valueColumns.map { $0.gathering(indices) })
    }

    /// Splits a line on commas, honouring double quotes (a field may be quoted to hold commas or spaces).
    private static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\"" where quoted:
                quoted = false
            case "\"" where current.isEmpty:
                quoted = true
            case "," where !quoted:
                fields.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            default:
                current.append(character)
            }
        }
        fields.append(current.trimmingCharacters(in: .whitespaces))
        return fields
    }
}
