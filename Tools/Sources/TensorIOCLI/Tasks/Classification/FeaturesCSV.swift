import Foundation
@_spi(Internal) import TensorIO
import TensorIOVision
import TensorIOToolSupport

/// `train-classifier --features-csv FILE`: a header row whose first column is `label`, then one row per item,
/// its class name and its feature values; read bounded (the file's size, the rows, the columns), every
/// problem one ``CLIError`` naming `FILE:LINE`.
///
/// Fields are separated by commas, spaces around them ignored; a field may be quoted (`"a, b"`, `""` for a
/// quote inside). Blank lines are skipped; a UTF-8 byte-order mark and `\r\n` line ends are accepted.
enum FeaturesCSV {
    /// The largest file read.
    static let maximumFileBytes = 256 << 20
    /// The most feature columns: what the widest head takes.
    static let maximumFeatures = ClassifierHeadDescription.maximumFeatures

    /// The classes of the file at `path`, in the order their labels first appear, each with its rows in
    /// file order.
    ///
    /// - Parameters:
    ///   - path: The file, as given on the command line (messages name it so).
    ///   - limits: At most ``ClassifierTrainingLimits/maximumItems`` rows, and
    ///     ``ClassifierTrainingLimits/maximumItemsPerClass`` of one class.
    /// - Throws: ``CLIError`` naming the file, and the line where a line is wrong.
    static func read(_ path: String, limits: ClassifierTrainingLimits) throws -> [LabeledFeatures] {
        let data: Data
        do {
            data = try UntrustedFile.read(URL(fileURLWithPath: path), limit: maximumFileBytes, name: path, limitName: "")
        } catch let error as TensorIOError where error.code == .limitExceeded {
            throw CLIError("--features-csv \(path) is larger than the limit of \(maximumFileBytes >> 20) MB")
        } catch let error as TensorIOError {
            throw CLIError("--features-csv \(error.message)")
        }
        return try parse(data, name: path, limits: limits)
    }

    /// ``read(_:limits:)`` on bytes already read; `name` is the file's name in messages.
    static func parse(_ data: Data, name: String, limits: ClassifierTrainingLimits) throws -> [LabeledFeatures] {
        try data.withUnsafeBytes { raw in
            try parse(raw.bindMemory(to: UInt8.self), name: name, limits: limits)
        }
    }

    /// One field of a line: its bytes in the file (spaces around it trimmed), or a quoted field's text.
    enum Field {
        case bytes(Range<Int>)
        case quoted(String)
    }

    /// The parser works on the file's bytes: a field becomes a `String` only when it is a label or a name,
    /// so a large file of numbers is read without a string per value.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, name: String, limits: ClassifierTrainingLimits) throws -> [LabeledFeatures] {
        var header: [String]?
        var order: [String] = []
        var rows: [String: [[Float]]] = [:]
        var total = 0
        var lineNumber = 0
        var start = 0
        // A UTF-8 byte-order mark, as spreadsheets write.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var line = start..<end
            start = end + 1
            if line.last.map({ bytes[$0] == 0x0D }) == true { line = line.lowerBound..<(line.upperBound - 1) }
            func failure(_ message: String) -> CLIError { CLIError("\(name):\(lineNumber): \(message)") }
            if line.allSatisfy({ bytes[$0] == 0x20 || bytes[$0] == 0x09 }) { continue }
            let fields = try Self.fields(bytes, line, failure: failure)
            func text(_ field: Field) throws -> String {
                switch field {
                case .quoted(let text): return text
                case .bytes(let range):
                    guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
                        throw failure("not UTF-8 text")
                    }
                    return text
                }
            }
            guard let columns = header else {
                let names = try fields.map(text)
                guard names[0].lowercased() == "label" else {
                    throw failure("the header's first column must be \"label\" (the class name), not \"\(names[0].prefix(80))\"")
                }
                guard names.count >= 2 else { throw failure("the header names no feature column after \"label\"") }
                guard names.count - 1 <= maximumFeatures else {
                    throw failure("the header names \(names.count - 1) feature columns; a classifier takes at most \(maximumFeatures)")
                }
                header = names
                continue
            }
            guard fields.count == columns.count else {
                throw failure("\(fields.count) column\(fields.count == 1 ? "" : "s") where the header has \(columns.count)")
            }
            let label = try text(fields[0])
            guard !label.isEmpty else { throw failure("the label (the first column) is empty") }
            var vector = [Float]()
            vector.reserveCapacity(fields.count - 1)
            for column in 1..<fields.count {
                let value: Float?
                switch fields[column] {
                case .quoted(let text): value = Float(text)
                case .bytes(let range): value = number(bytes, range)
                }
                guard let value, value.isFinite else {
                    let shown = (try? text(fields[column]))?.prefix(80) ?? "?"
                    throw failure("column \(column + 1) (\(columns[column].prefix(80))) is \"\(shown)\", not \(value == nil ? "a number" : "a finite number")")
                }
                vector.append(value)
            }
            total += 1
            guard total <= limits.maximumItems else {
                throw failure("more than \(limits.maximumItems) rows; a classifier trains on at most that many")
            }
            if rows[label] == nil { order.append(label) }
            rows[label, default: []].append(vector)
            guard rows[label]!.count <= limits.maximumItemsPerClass else {
                throw failure("the class \"\(label.prefix(80))\" has more than \(limits.maximumItemsPerClass) rows; a class takes at most that many")
            }
        }
        guard header != nil else { throw CLIError("\(name): empty; give a header row (label,f1,f2,…) and one row per item") }
        guard total > 0 else { throw CLIError("\(name): no row after the header") }
        return order.map { LabeledFeatures(label: $0, features: rows[$0]!) }
    }

    /// A line's fields: separated by commas, each trimmed of spaces and tabs unless quoted.
    private static func fields(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, failure: (String) -> CLIError) throws -> [Field] {
        let (comma, quote, space, tab): (UInt8, UInt8, UInt8, UInt8) = (0x2C, 0x22, 0x20, 0x09)
        var fields: [Field] = []
        var index = line.lowerBound
        func skipSpaces() { while index < line.upperBound, bytes[index] == space || bytes[index] == tab { index += 1 } }
        while true {
            guard fields.count <= maximumFeatures + 1 else {
                throw failure("more than \(maximumFeatures + 1) columns; a classifier takes at most \(maximumFeatures) features")
            }
            skipSpaces()
            if index < line.upperBound, bytes[index] == quote {
                index += 1
                var field: [UInt8] = []
                var closed = false
                while index < line.upperBound {
                    let byte = bytes[index]
                    index += 1
                    if byte == quote {
                        if index < line.upperBound, bytes[index] == quote {
                            field.append(quote)
                            index += 1
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        field.append(byte)
                    }
                }
                guard closed else { throw failure("a quoted field has no closing quote") }
                guard let text = String(validating: field, as: UTF8.self) else { throw failure("not UTF-8 text") }
                fields.append(.quoted(text))
                skipSpaces()
                guard index < line.upperBound else { return fields }
                guard bytes[index] == comma else { throw failure("text after a quoted field's closing quote") }
                index += 1
            } else {
                let first = index
                while index < line.upperBound, bytes[index] != comma { index += 1 }
                var last = index
                while last > first, bytes[last - 1] == space || bytes[last - 1] == tab { last -= 1 }
                fields.append(.bytes(first..<last))
                guard index < line.upperBound else { return fields }
                index += 1
            }
        }
    }

    /// The number a field's bytes spell, all of them (C's `strtof`, as Swift's `Float(_:)` reads text).
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Float? {
        let count = range.count
        guard count > 0 else { return nil }
        guard count < 128 else { return String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).flatMap(Float.init) }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer -> Float? in
            for offset in 0..<count { buffer[offset] = CChar(bitPattern: bytes[range.lowerBound + offset]) }
            buffer[count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtof(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + count ? value : nil
        }
    }
}
