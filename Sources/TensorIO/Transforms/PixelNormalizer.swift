/// Turns pixel bytes into floats for an image input layer: `p × scale[colour] + bias[colour]`.
struct PixelNormalizer: Sendable, Hashable {
    /// Multiplies the pixel value, by colour.
    public var scale: ChannelValues
    /// Added after scaling, by colour.
    public var bias: ChannelValues

    /// Creates a normalizer computing `p × scale[colour] + bias[colour]`.
    public init(scale: ChannelValues = 1, bias: ChannelValues = 0) {
        self.scale = scale
        self.bias = bias
    }

    /// Creates the normalizer a `normalize` entry describes.
    public init(_ spec: NormalizationSpec) {
        switch spec {
        case .standard(.zeroToOne): self.init(scale: ChannelValues(all: 1 / 255))
        case .standard(.minusOneToOne): self.init(scale: ChannelValues(all: 2 / 255), bias: ChannelValues(all: -1))
        case .scaleAndBias(let scale, let bias): self.init(scale: scale, bias: bias)
        }
    }

    /// Normalizes one channel value of a pixel. The bias is chosen by colour, not by tensor position, so
    /// BGR layers get each colour's own bias (the original applied the red bias to blue).
    @inlinable
    public func callAsFunction(_ value: UInt8, channel: ColorChannel) -> Float {
        Float(value) * scale[channel] + bias[channel]
    }
}
