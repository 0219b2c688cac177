/// Turns quantized integers back into floats for an output array layer: `q × scale + bias`.
///
/// Its memberwise `init(scale:bias:)` computes `q × scale + bias`; a `dequantize` entry makes one with
/// ``QuantizationTransform/init(_:tensorScale:zeroPoint:)``.
struct Dequantizer: QuantizationTransform, Sendable, Hashable {
    /// Multiplies the quantized value.
    public var scale: Float
    /// Added after scaling.
    public var bias: Float

    /// Dequantizes one value.
    @inlinable
    public func callAsFunction(_ value: Float) -> Float { value * scale + bias }
}

extension Dequantizer {
    /// The dequantizer for a standard range: [0,1] → `q / 255`, [-1,1] → `q × 2/255 − 1`.
    public init(standard range: StandardRange) {
        self.init(scale: range.width / 255, bias: range.lowerBound)
    }

    /// The dequantizer matching a tensor's own parameters: `v = (q − zeroPoint) × tensorScale`.
    public init(tensorScale: Float, zeroPoint: Int64) {
        self.init(scale: tensorScale, bias: -Float(zeroPoint) * tensorScale)
    }
}
