/// Turns floats into quantized integers for an input array layer.
///
/// The original's formulas, `(v + bias) × scale`, but rounded to the nearest integer and clamped to the
/// element type's range where the original truncated with a C cast (see docs/differences.md).
struct Quantizer: Sendable, Hashable {
    /// Multiplies the biased value.
    public var scale: Float
    /// Added before scaling.
    public var bias: Float

    /// Creates a quantizer computing `(v + bias) × scale`.
    public init(scale: Float, bias: Float) {
        self.scale = scale
        self.bias = bias
    }

    /// The quantizer for a standard range: [0,1] → `v × 255`, [-1,1] → `(v + 1) × 127.5`.
    public init(standard range: StandardRange) {
        switch range {
        case .zeroToOne: self.init(scale: 255, bias: 0)
        case .minusOneToOne: self.init(scale: 127.5, bias: 1)
        }
    }

    /// The quantizer a `quantize` entry describes; `nil` for ``QuantizationSpec/fromTensor`` when the
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

    /// The quantizer matching a tensor's own parameters: `q = v / tensorScale + zeroPoint`.
    public init(tensorScale: Float, zeroPoint: Int64) {
        self.init(scale: 1 / tensorScale, bias: Float(zeroPoint) * tensorScale)
    }

    /// The quantized value before rounding.
    @inlinable
    public func unrounded(_ value: Float) -> Float { (value + bias) * scale }

    /// Quantizes to a byte, rounding to nearest and clamping to 0…255.
    @inlinable
    public func callAsFunction(_ value: Float) -> UInt8 { clampedByte(unrounded(value)) }
}

/// Rounds to nearest and clamps to 0…255; NaN becomes 0.
@inlinable
func clampedByte(_ value: Float) -> UInt8 {
    guard value > 0 else { return 0 }
    guard value < 255 else { return 255 }
    return UInt8(value.rounded())
}
