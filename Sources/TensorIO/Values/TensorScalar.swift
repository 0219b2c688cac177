/// A Swift number type whose arrays TensorIO reads without boxing each element.
///
/// `Float`, `Double`, every fixed-width integer, `Int`, `UInt` and `Bool` conform.
public protocol TensorScalar: ModelInput, Hashable {
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
}

extension TensorScalar where Self: BinaryInteger {
    public static var isInteger: Bool { true }
    @inlinable public var doubleValue: Double { Double(self) }
    @inlinable public var exactInt64: Int64? { Int64(exactly: self) }
}

extension TensorScalar where Self: BinaryFloatingPoint {
    public static var isInteger: Bool { false }
    @inlinable public var doubleValue: Double { Double(self) }
    @inlinable public var exactInt64: Int64? { Int64(exactly: self) }
}

extension UInt8: TensorScalar {
    public static func numericArray(_ values: [UInt8]) -> NumericArray { .uint8(values) }
    public static var matchingDataType: DataType? { .uint8 }
}

extension Int8: TensorScalar {
    public static func numericArray(_ values: [Int8]) -> NumericArray { .int8(values) }
    public static var matchingDataType: DataType? { .int8 }
}

extension Int16: TensorScalar {
    public static func numericArray(_ values: [Int16]) -> NumericArray { .int16(values) }
    public static var matchingDataType: DataType? { .int16 }
}

extension Int32: TensorScalar {
    public static func numericArray(_ values: [Int32]) -> NumericArray { .int32(values) }
    public static var matchingDataType: DataType? { .int32 }
}

extension Int64: TensorScalar {
    public static func numericArray(_ values: [Int64]) -> NumericArray { .int64(values) }
    public static var matchingDataType: DataType? { .int64 }
}

extension Int: TensorScalar {
    public static func numericArray(_ values: [Int]) -> NumericArray { .int(values) }
    public static var matchingDataType: DataType? { MemoryLayout<Int>.size == 8 ? .int64 : .int32 }
}

extension UInt16: TensorScalar {
    public static func numericArray(_ values: [UInt16]) -> NumericArray { .uint16(values) }
    public static var matchingDataType: DataType? { nil }
}

extension UInt32: TensorScalar {
    public static func numericArray(_ values: [UInt32]) -> NumericArray { .uint32(values) }
    public static var matchingDataType: DataType? { nil }
}

extension UInt64: TensorScalar {
    public static func numericArray(_ values: [UInt64]) -> NumericArray { .uint64(values) }
    public static var matchingDataType: DataType? { nil }
}

extension UInt: TensorScalar {
    public static func numericArray(_ values: [UInt]) -> NumericArray { .uint(values) }
    public static var matchingDataType: DataType? { nil }
}

extension Float: TensorScalar {
    public static func numericArray(_ values: [Float]) -> NumericArray { .float32(values) }
    public static var matchingDataType: DataType? { .float32 }
}

extension Double: TensorScalar {
    public static func numericArray(_ values: [Double]) -> NumericArray { .float64(values) }
    public static var matchingDataType: DataType? { .float64 }
}

extension Bool: TensorScalar {
    public static func numericArray(_ values: [Bool]) -> NumericArray { .bool(values) }
    public static var matchingDataType: DataType? { .bool }
    public static var isInteger: Bool { true }
    @inlinable public var doubleValue: Double { self ? 1 : 0 }
    @inlinable public var exactInt64: Int64? { self ? 1 : 0 }
}
