/// What a runtime, or the model file read without one, says about the tensor a layer binds to: all the
/// layer-against-tensor checks need, whichever backend it comes from.
struct TensorFacts: Sendable {
    /// The name errors and `tensorio inspect` show (a signature's name, or a graph operation's).
    var name: String
    /// The element type, when TensorIO can read and write it.
    var dataType: DataType?
    /// The element type's name, also for types TensorIO cannot use.
    var typeName: String
    /// The shape, `-1` where a dimension is not fixed; `nil` when not even the rank is known.
    var shape: [Int]?
    /// The tensor's own quantization parameters, if it has any.
    var quantization: TensorQuantization?
}
