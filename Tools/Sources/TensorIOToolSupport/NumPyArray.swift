package import Foundation
@_spi(Internal) package import TensorIO

/// One array in NumPy's `.npy` format (`numpy.save`), as `saved_model_cli` and Python scripts hand them over.
///
/// Read from untrusted bytes: the header must be a NumPy header dictionary of at most
/// ``maximumHeaderBytes``, with at most ``maximumDimensions`` dimensions whose product is overflow-checked,
/// and the data must be exactly that many elements. Numbers (`b1`, `i1`…`i8`, `u1`…`u8`, `f2`, `f4`,
/// `f8`) in either byte order are read; strings, objects, complex numbers, structured types and
/// Fortran-ordered arrays of more than one dimension are refused with a sentence saying so.
package struct NumPyArray {
    /// The array's shape (empty for a scalar).
    package var shape: [Int]
    /// The elements in row-major order, in the array's own type (`f2` widened to float32).
    package var values: NumericArray

    /// The longest header read.
    package static let maximumHeaderBytes = 65_536
    /// The most dimensions read.
    package static let maximumDimensions = 32

    private static let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)

    /// Whether `data` starts like a `.npy` file.
    package static func recognizes(_ data: Data) -> Bool {
        data.count >= magic.count && data.prefix(magic.count).elementsEqual(magic)
    }

    /// Parses a whole `.npy` file.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - source: How messages call it (a path, or `name.npy in inputs.npz`).
    /// - Throws: ``CLIError`` naming `source` and the problem.
    package init(_ data: Data, source: String) throws {
        let bytes = [UInt8](data)
        func failure(_ problem: String) -> CLIError { CLIError("\(source): \(problem)") }
        guard Self.recognizes(data), bytes.count >= 10 else {
            throw failure("not a NumPy .npy file (it does not start with \\x93NUMPY)")
        }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw failure("the .npy header is cut short") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        default:
            throw failure(".npy format version \(major) is not supported (1, 2 and 3 are)")
        }
        guard headerLength <= Self.maximumHeaderBytes else {
            throw failure("the .npy header claims \(headerLength) bytes, more than the limit of \(Self.maximumHeaderBytes)")
        }
        guard bytes.count - headerStart >= headerLength else { throw failure("the .npy header is cut short") }
        let header = String(decoding: bytes[headerStart..<(headerStart + headerLength)], as: UTF8.self)
        let fields = try NumPyHeader(header, source: source)
        guard !fields.fortranOrder || fields.shape.count <= 1 else {
            throw failure("the array is in Fortran (column-major) order; save it with numpy.ascontiguousarray first")
        }
        var count = 1
        for dimension in fields.shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow else { throw failure("the shape \(fields.shape) holds more elements than can be counted") }
            count = product
        }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: fields.type.size)
        let dataStart = headerStart + headerLength
        guard !overflow, byteCount == bytes.count - dataStart else {
            throw failure("the shape \(fields.shape) of \(fields.type.name) needs \(overflow ? "more" : String(byteCount)) bytes of data, but the file holds \(bytes.count - dataStart)")
        }
        shape = fields.shape
        values = fields.type.read(bytes[dataStart...], count: count)
    }
}

/// The dictionary at the start of a `.npy` file: `{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }`.
private struct NumPyHeader {
    var type: NumPyElementType
    var fortranOrder: Bool
    var shape: [Int]

    init(_ text: String, source: String) throws {
        func failure(_ problem: String) -> CLIError { CLIError("\(source): \(problem)") }
        var scanner = HeaderScanner(text)
        var descr: String?
        var fortran: Bool?
        var shape: [Int]?
        try scanner.expect("{", or: failure("the .npy header is not a Python dictionary"))
        while !scanner.consume("}") {
            guard let key = scanner.quoted() else { throw failure("the .npy header is not a Python dictionary") }
            try scanner.expect(":", or: failure("the .npy header is not a Python dictionary"))
            switch key {
            case "descr":
                guard let value = scanner.quoted() else {
                    throw failure("the array's type is a structured type, which is not supported")
                }
                descr = value
            case "fortran_order":
                if scanner.consume("True") { fortran = true } else if scanner.consume("False") { fortran = false } else {
                    throw failure("fortran_order in the .npy header is neither True nor False")
                }
            case "shape":
                shape = try scanner.tuple(maximumCount: NumPyArray.maximumDimensions, failure: failure("the shape in the .npy header is not a tuple of at most \(NumPyArray.maximumDimensions) sizes"))
            default:
                throw failure("the .npy header has an unknown key '\(key)'")
            }
            if !scanner.consume(",") {
                try scanner.expect("}", or: failure("the .npy header is not a Python dictionary"))
                break
            }
        }
        guard let descr, let fortran, let shape else {
            throw failure("the .npy header lacks descr, fortran_order or shape")
        }
        guard let type = NumPyElementType(descr) else {
            throw failure("the array's type '\(descr)' is not a number type TensorIO reads (b1, i1-i8, u1-u8, f2, f4, f8)")
        }
        self.type = type
        fortranOrder = fortran
        self.shape = shape
    }
}

/// A tiny scanner for the Python literal in a `.npy` header; every loop advances or ends.
private struct HeaderScanner {
    private let characters: [Character]
    private var position = 0

    init(_ text: String) { characters = Array(text) }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    mutating func consume(_ literal: String) -> Bool {
        skipSpaces()
        let expected = Array(literal)
        guard position + expected.count <= characters.count,
              Array(characters[position..<(position + expected.count)]) == expected else { return false }
        position += expected.count
        return true
    }

    mutating func expect(_ literal: String, or error: CLIError) throws {
        guard consume(literal) else { throw error }
    }

    /// A '…' or "…" string without escapes.
    mutating func quoted() -> String? {
        skipSpaces()
        guard position < characters.count, characters[position] == "'" || characters[position] == "\"" else { return nil }
        let quote = characters[position]
        guard let end = characters[(position + 1)...].firstIndex(of: quote) else { return nil }
        let value = String(characters[(position + 1)..<end])
        position = end + 1
        return value
    }

    /// `()`, `(3,)` or `(1, 224, 224, 3)` of non-negative integers (Python 2 writes `3L`).
    mutating func tuple(maximumCount: Int, failure: CLIError) throws -> [Int] {
        try expect("(", or: failure)
        var values: [Int] = []
        while !consume(")") {
            skipSpaces()
            var digits = ""
            while position < characters.count, let digit = characters[position].wholeNumberValue, characters[position].isASCII {
                guard digits.count < 19 else { throw failure }
                digits.append(Character(String(digit)))
                position += 1
            }
            _ = consume("L")
            guard let value = Int(digits), values.count < maximumCount else { throw failure }
            values.append(value)
            if !consume(",") {
                try expect(")", or: failure)
                break
            }
        }
        return values
    }
}

/// The element types of `.npy` files that hold numbers.
private struct NumPyElementType {
    enum Kind { case bool, signed, unsigned, float }
    var kind: Kind
    var size: Int
    var bigEndian: Bool
    var name: String

    init?(_ descr: String) {
        var text = Substring(descr)
        bigEndian = false
        if let order = text.first, "<>|=".contains(order) {
            bigEndian = order == ">"
            text = text.dropFirst()
        }
        guard let letter = text.first, let size = Int(text.dropFirst()) else { return nil }
        switch (letter, size) {
        case ("b", 1): kind = .bool
        case ("i", 1), ("i", 2), ("i", 4), ("i", 8): kind = .signed
        case ("u", 1), ("u", 2), ("u", 4), ("u", 8): kind = .unsigned
        case ("f", 2), ("f", 4), ("f", 8): kind = .float
        default: return nil
        }
        self.size = size
        name = descr
    }

    /// `count` elements from `bytes` (exactly `count × size` of them, checked by the caller).
    func read(_ bytes: ArraySlice<UInt8>, count: Int) -> NumericArray {
        // One unaligned load per element, swapped only when the file's order is not the machine's.
        func words<Word: FixedWidthInteger>(_: Word.Type) -> [Word] {
            bytes.withUnsafeBytes { raw in
                (0..<count).map { index in
                    let word = raw.loadUnaligned(fromByteOffset: index * size, as: Word.self)
                    return bigEndian ? Word(bigEndian: word) : Word(littleEndian: word)
                }
            }
        }
        switch (kind, size) {
        case (.bool, _): return .bool(words(UInt8.self).map { $0 != 0 })
        case (.signed, 1): return .int8(words(Int8.self))
        case (.signed, 2): return .int16(words(Int16.self))
        case (.signed, 4): return .int32(words(Int32.self))
        case (.signed, _): return .int64(words(Int64.self))
        case (.unsigned, 1): return .uint8(words(UInt8.self))
        case (.unsigned, 2): return .uint16(words(UInt16.self))
        case (.unsigned, 4): return .uint32(words(UInt32.self))
        case (.unsigned, _): return .uint64(words(UInt64.self))
        case (.float, 2): return .float32(words(UInt16.self).map(HalfFloat.float(from:)))
        case (.float, 4): return .float32(words(UInt32.self).map(Float.init(bitPattern:)))
        case (.float, _): return .float64(words(UInt64.self).map(Double.init(bitPattern:)))
        }
    }
}
