/// Turns floats into pixel bytes for an image output layer: `(v + bias[colour]) × scale[colour]`, rounded to
/// nearest and clamped to 0…255.
struct PixelDenormalizer: Sendable, Hashable {
    /// Multiplies the biased value, by colour.
    public var scale: ChannelValues
    /// Added before scaling, by colour.
    public var bias: ChannelValues

    /// Creates a denormalizer computing `(v + bias[colour]) × scale[colour]`.
    public init(scale: ChannelValues = 1, bias: ChannelValues = 0) {
        self.scale = scale
        self.bias = bias
    }

    /// Creates the denormalizer a `denormalize` entry describes.
    public init(_ spec: NormalizationSpec) {
        switch spec {
        case .standard(.zeroToOne): self.init(scale: 255)
        case .standard(.minusOneToOne): self.init(scale: 127.5, bias: ChannelValues(all: 1))
        case .scaleAndBias(let scale, let bias): self.init(scale: scale, bias: bias)
        }
    }

    /// Denormalizes one channel value of a pixel.
    @inlinable
    public func callAsFunction(_ value: Float, channel: ColorChannel) -> UInt8 {
        clampedByte((value + bias[channel]) * scale[channel])
    }
}
