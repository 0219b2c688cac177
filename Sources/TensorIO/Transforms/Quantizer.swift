/// Turns floats into quantized integers for an input array layer.
///
/// The original's formulas, `(v + bias) × scale`, but rounded to the nearest integer and clamped to the
/// element type's range where the original truncated with a C cast (see docs/differences.md).
///
/// Its memberwise `init(scale:bias:)` computes `(v + bias) × scale`; a `quantize` entry makes one with
/// ``QuantizationTransform/init(_:tensorScale:zeroPoint:)``.
struct Quantizer: QuantizationTransform, Sendable, Hashable {
    /// Multiplies the biased value.
    public var scale: Float
    /// Added before scaling.
    public var bias: Float

    /// The quantized value before rounding.
    @inlinable
    public func unrounded(_ value: Float) -> Float { (value + bias) * scale }

    /// Quantizes to a byte, rounding to nearest and clamping to 0…255.
    @inlinable
    public func callAsFunction(_ value: Float) -> UInt8 { clampedByte(unrounded(value)) }
}

extension Quantizer {
    /// The quantizer for a standard range: [0,1] → `v × 255`, [-1,1] → `(v + 1) × 127.5`.
    public init(standard range: StandardRange) {
        self.init(scale: 255 / range.width, bias: -range.lowerBound)
    }

    /// The quantizer matching a tensor's own parameters: `q = v / tensorScale + zeroPoint`.
    public init(tensorScale: Float, zeroPoint: Int64) {
        self.init(scale: 1 / tensorScale, bias: Float(zeroPoint) * tensorScale)
    }
}

/// Rounds to nearest and clamps to 0…255; NaN becomes 0.
@inlinable
func clampedByte(_ value: Float) -> UInt8 {
    guard value > 0 else { return 0 }
    guard value < 255 else { return 255 }
    return UInt8(value.rounded())
}
