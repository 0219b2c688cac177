/// The channel order an image layer's tensor expects.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// Red, green, blue.
    case rgb = "RGB"
    /// Blue, green, red.
    case bgr = "BGR"

    /// The colour held by each tensor channel, in tensor order.
    public var channels: [ColorChannel] {
        switch self {
        case .rgb: return [.red, .green, .blue]
        case .bgr: return [.blue, .green, .red]
        }
    }
}

/// A colour channel of a pixel.
public enum ColorChannel: Sendable, Hashable, CaseIterable {
    case red, green, blue
}
