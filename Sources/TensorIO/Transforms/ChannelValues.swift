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
