/// Turns floats into pixel bytes for an image output layer: `(v + bias[colour]) × scale[colour]`, rounded to
/// nearest and clamped to 0…255.
///
/// Its memberwise `init(scale:bias:)` computes `(v + bias[colour]) × scale[colour]`; a `denormalize` entry
/// makes one with ``PixelTransform/init(_:)``: a standard range maps to a pixel byte as it maps to a
/// quantized byte (``Quantizer/init(standard:)``).
struct PixelDenormalizer: PixelTransform, Sendable, Hashable {
    typealias StandardTransform = Quantizer

    /// Multiplies the biased value, by colour.
    public var scale: ChannelValues = 1
    /// Added before scaling, by colour.
    public var bias: ChannelValues = 0

    /// Denormalizes one channel value of a pixel.
    @inlinable
    public func callAsFunction(_ value: Float, channel: ColorChannel) -> UInt8 {
        clampedByte((value + bias[channel]) * scale[channel])
    }
}
