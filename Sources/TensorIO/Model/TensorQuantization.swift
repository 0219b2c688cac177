/// A tensor's quantization parameters: real value = (q − zeroPoint) × scale.
public enum TensorQuantization: Sendable, Hashable {
    /// One scale and zero point for the whole tensor.
    case perTensor(scale: Float, zeroPoint: Int64)
    /// A scale and zero point per slice along one dimension.
    case perChannel(dimension: Int, scales: [Float], zeroPoints: [Int64])
}
