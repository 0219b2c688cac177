/// The element type of a tensor.
///
/// `model.json` names the first four in its `dtype` field as the original did; the others are what
/// models also report (and what TensorIO reads back), and may be named in `dtype` too.
public enum DataType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case uint8
    case int8
    case int16
    case int32
    case int64
    case float16
    case float32
    case float64
    case bool

    /// The size of one element in bytes.
    public var byteCount: Int {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .int16, .float16: return 2
        case .int32, .float32: return 4
        case .int64, .float64: return 8
        }
    }

    /// Whether elements are floating-point numbers.
    public var isFloatingPoint: Bool {
        switch self {
        case .float16, .float32, .float64: return true
        default: return false
        }
    }

    /// The smallest and largest value an integer element holds; `nil` for floating point and bool.
    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .uint8: return 0...255
        case .int8: return -128...127
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int64: return Int64.min...Int64.max
        case .bool: return 0...1
        case .float16, .float32, .float64: return nil
        }
    }

    public var description: String { rawValue }
}
