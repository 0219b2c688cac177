/// A Swift number type that TensorIO reads and writes without boxing each element.
///
/// `Float`, `Double`, every fixed-width integer, `Int`, `UInt` and `Bool` conform; arrays of them, nested
/// to any depth, are model inputs, and ``Output/values(as:)`` returns them. The protocol has no public
/// requirements: TensorIO's own number types are the only conforming types it knows how to convert.
public protocol TensorScalar: ModelInput, Hashable {}

/// What TensorIO needs from a number type, kept internal so that conforming `Int`, `Float` or `Bool`
/// adds no public members to them.
protocol NumericElement: TensorScalar {
    /// Wraps an array of this type.
    static func numericArray(_ values: [Self]) -> NumericArray
    /// The tensor element type with the same bytes, if any (`Int` is int64 on 64-bit platforms).
    static var matchingDataType: DataType? { get }
    /// Whether the type holds integers (including `Bool`).
    static var isInteger: Bool { get }
    /// The value as a `Double` (may round large integers).
    var doubleValue: Double { get }
    /// The value as an `Int64` when it is an integer that fits; `nil` otherwise.
    var exactInt64: Int64? { get }
    /// The number `scalar` stands for, when it fits this type (see ``Output/values(as:)``).
    init?(fitting scalar: Scalar)
}

extension NumericElement {
    public var inputValue: InputValue { .numbers(Self.numericArray([self])) }
    public static func inputValue(of elements: [Self]) -> InputValue { .numbers(Self.numericArray(elements)) }
}

extension NumericElement where Self: BinaryInteger {
    static var isInteger: Bool { true }
    var doubleValue: Double { Double(self) }
    var exactInt64: Int64? { Int64(exactly: self) }

    init?(fitting scalar: Scalar) {
        switch scalar {
        case .integer(let value): self.init(exactly: value)
        case .floatingPoint(let value): self.init(exactly: value)
        case .boolean(let value): self = value ? 1 : 0
        }
    }
}

extension NumericElement where Self: BinaryFloatingPoint {
    static var isInteger: Bool { false }
    var doubleValue: Double { Double(self) }
    var exactInt64: Int64? { Int64(exactly: self) }

    init?(fitting scalar: Scalar) {
        switch scalar {
        case .integer(let value): self.init(value)
        case .floatingPoint(let value): self.init(value)
        case .boolean(let value): self = value ? 1 : 0
        }
    }
}

extension UInt8: NumericElement {
    static func numericArray(_ values: [UInt8]) -> NumericArray { .uint8(values) }
    static var matchingDataType: DataType? { .uint8 }
}

extension Int8: NumericElement {
    static func numericArray(_ values: [Int8]) -> NumericArray { .int8(values) }
    static var matchingDataType: DataType? { .int8 }
}

extension Int16: NumericElement {
    static func numericArray(_ values: [Int16]) -> NumericArray { .int16(values) }
    static var matchingDataType: DataType? { .int16 }
}

extension Int32: NumericElement {
    static func numericArray(_ values: [Int32]) -> NumericArray { .int32(values) }
    static var matchingDataType: DataType? { .int32 }
}

extension Int64: NumericElement {
    static func numericArray(_ values: [Int64]) -> NumericArray { .int64(values) }
    static var matchingDataType: DataType? { .int64 }
}

extension Int: NumericElement {
    static func numericArray(_ values: [Int]) -> NumericArray { .int(values) }
    static var matchingDataType: DataType? { MemoryLayout<Int>.size == 8 ? .int64 : .int32 }
}

extension UInt16: NumericElement {
    static func numericArray(_ values: [UInt16]) -> NumericArray { .uint16(values) }
    static var matchingDataType: DataType? { nil }
}

extension UInt32: NumericElement {
    static func numericArray(_ values: [UInt32]) -> NumericArray { .uint32(values) }
    static var matchingDataType: DataType? { nil }
}

extension UInt64: NumericElement {
    static func numericArray(_ values: [UInt64]) -> NumericArray { .uint64(values) }
    static var matchingDataType: DataType? { nil }
}

extension UInt: NumericElement {
    static func numericArray(_ values: [UInt]) -> NumericArray { .uint(values) }
    static var matchingDataType: DataType? { nil }
}

extension Float: NumericElement {
    static func numericArray(_ values: [Float]) -> NumericArray { .float32(values) }
    static var matchingDataType: DataType? { .float32 }
}

extension Double: NumericElement {
    static func numericArray(_ values: [Double]) -> NumericArray { .float64(values) }
    static var matchingDataType: DataType? { .float64 }
}

extension Bool: NumericElement {
    static func numericArray(_ values: [Bool]) -> NumericArray { .bool(values) }
    static var matchingDataType: DataType? { .bool }
    static var isInteger: Bool { true }
    var doubleValue: Double { self ? 1 : 0 }
    var exactInt64: Int64? { self ? 1 : 0 }

    init?(fitting scalar: Scalar) {
        switch scalar {
        case .integer(let value) where value == 0 || value == 1: self = value == 1
        case .floatingPoint(let value) where value == 0 || value == 1: self = value == 1
        case .boolean(let value): self = value
        default: return nil
        }
    }
}
