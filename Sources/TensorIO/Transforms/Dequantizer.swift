/// Turns quantized integers back into floats for an output array layer: `q × scale + bias`.
public struct Dequantizer: Sendable, Hashable {
    /// Multiplies the quantized value.
    public var scale: Float
    /// Added after scaling.
    public var bias: Float

    /// Creates a dequantizer computing `q × scale + bias`.
    public init(scale: Float, bias: Float) {
        self.scale = scale
        self.bias = bias
    }

    /// The dequantizer for a standard range: [0,1] → `q / 255`, [-1,1] → `q × 2/255 − 1`.
    public init(standard range: StandardRange) {
        switch range {
        case .zeroToOne: self.init(scale: 1 / 255, bias: 0)
        case .minusOneToOne: self.init(scale: 2 / 255, bias: -1)
        }
    }

    /// The dequantizer matching a tensor's own parameters: `v = (q − zeroPoint) × tensorScale`.
    public init(tensorScale: Float, zeroPoint: Int64) {
        self.init(scale: tensorScale, bias: -Float(zeroPoint) * tensorScale)
    }

    /// Dequantizes one value.
    @inlinable
    public func callAsFunction(_ value: Float) -> Float { value * scale + bias }
}
