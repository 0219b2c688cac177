/// An output layer's values with their shape and element type.
public struct TensorArray: Sendable, Hashable {
    /// The shape of the values (the tensor's real shape).
    public var shape: [Int]
    /// The element type the tensor reported; `float32` once values were dequantized.
    public var dataType: DataType
    /// The values, flattened row-major.
    public var values: NumericArray

    /// Creates an array.
    public init(shape: [Int], dataType: DataType, values: NumericArray) {
        self.shape = shape
        self.dataType = dataType
        self.values = values
    }

    /// The number of values.
    public var count: Int { values.count }

    /// The values as `Float`s.
    public var floats: [Float] { values.floats }

    /// The values as `Double`s.
    public var doubles: [Double] { values.doubles }
}
