/// One number read from a tensor, in the kind the tensor holds (how outputs are converted between types).
enum Scalar: Sendable, Hashable, CustomStringConvertible {
    /// Any integer element type.
    case integer(Int64)
    /// Any floating-point element type (and dequantized values).
    case floatingPoint(Double)
    /// A bool element.
    case boolean(Bool)

    /// The value as a `Double`.
    var doubleValue: Double {
        switch self {
        case .integer(let value): return Double(value)
        case .floatingPoint(let value): return value
        case .boolean(let value): return value ? 1 : 0
        }
    }

    var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .floatingPoint(let value): return String(value)
        case .boolean(let value): return String(value)
        }
    }
}
