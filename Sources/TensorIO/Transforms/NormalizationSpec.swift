/// How an image layer's pixel bytes map to floats, as written in `normalize` or `denormalize`.
public enum NormalizationSpec: Sendable, Hashable {
    /// `{"standard": "[0,1]"}` or `{"standard": "[-1,1]"}`.
    case standard(StandardRange)
    /// `{"scale": s, "bias": {"r": …, "g": …, "b": …}}`: normalize `p × s + bias[colour]`,
    /// denormalize `(v + bias[colour]) × s`. The scale defaults to 1 and each bias to 0.
    case scaleAndBias(scale: Float, bias: ChannelBias)
}

/// A bias per colour channel.
public struct ChannelBias: Sendable, Hashable {
    public var red: Float
    public var green: Float
    public var blue: Float

    /// Creates per-channel biases.
    public init(red: Float = 0, green: Float = 0, blue: Float = 0) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The same bias for every channel.
    public init(all value: Float) {
        self.init(red: value, green: value, blue: value)
    }

    /// The bias a one-channel (gray) layer uses: the mean of the three, which is the bias itself when
    /// one number was given.
    public var luminance: Float { (red + green + blue) / 3 }

    /// The bias of one colour.
    public subscript(channel: ColorChannel) -> Float {
        switch channel {
        case .red: return red
        case .green: return green
        case .blue: return blue
        }
    }
}
