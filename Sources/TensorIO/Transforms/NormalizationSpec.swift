/// How an image layer's pixel bytes map to floats, as written in `normalize` or `denormalize`.
public enum NormalizationSpec: Sendable, Hashable {
    /// `{"standard": "[0,1]"}` or `{"standard": "[-1,1]"}`.
    case standard(StandardRange)
    /// `{"scale": s, "bias": {"r": …, "g": …, "b": …}}`: normalize `p × scale[colour] + bias[colour]`,
    /// denormalize `(v + bias[colour]) × scale[colour]`. The scale (one number, or one per colour) defaults
    /// to 1 and each bias to 0. A per-colour scale is what a per-channel mean and standard deviation
    /// become: `(p − mean) / std` is `p × (1/std) + (−mean/std)`.
    case scaleAndBias(scale: ChannelValues, bias: ChannelValues)
}

/// A number per colour channel: a normalization's scale or bias.
public struct ChannelValues: Sendable, Hashable {
    public var red: Float
    public var green: Float
    public var blue: Float

    /// Creates per-channel values.
    public init(red: Float = 0, green: Float = 0, blue: Float = 0) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The same value for every channel.
    public init(all value: Float) {
        self.init(red: value, green: value, blue: value)
    }

    /// The value a one-channel (gray) layer uses: the mean of the three, which is the value itself when
    /// one number was given.
    public var luminance: Float { (red + green + blue) / 3 }

    /// The value of one colour.
    public subscript(channel: ColorChannel) -> Float {
        switch channel {
        case .red: return red
        case .green: return green
        case .blue: return blue
        }
    }

    /// Whether every colour has the same value.
    public var isUniform: Bool { red == green && green == blue }
}

/// A number literal is the same value for every colour: `.scaleAndBias(scale: 2, bias: 0)`.
extension ChannelValues: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public init(floatLiteral value: Float) {
        self.init(all: value)
    }

    public init(integerLiteral value: Int) {
        self.init(all: Float(value))
    }
}
