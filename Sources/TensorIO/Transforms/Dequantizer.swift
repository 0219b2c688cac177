/// Turns quantized integers back into floats for an output array layer: `q × scale + bias`.
struct Dequantizer: Sendable, Hashable {
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

    /// The dequantizer a `dequantize` entry describes; `nil` for ``QuantizationSpec/fromTensor`` when the
    /// tensor's parameters are not given (or its scale is not positive).
    public init?(_ spec: QuantizationSpec, tensorScale: Float? = nil, zeroPoint: Int64 = 0) {
        switch spec {
        case .standard(let range): self.init(standard: range)
        case .scaleAndBias(let scale, let bias): self.init(scale: scale, bias: bias)
        case .fromTensor:
            guard let tensorScale, tensorScale > 0 else { return nil }
            self.init(tensorScale: tensorScale, zeroPoint: zeroPoint)
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
