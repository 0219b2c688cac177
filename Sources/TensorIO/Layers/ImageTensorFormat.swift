/// The channel order an image layer's tensor expects.
public enum ImageTensorFormat: String, Sendable, Hashable, CaseIterable {
    /// Red, green, blue.
    case rgb = "RGB"
    /// Blue, green, red.
    case bgr = "BGR"
    /// One luminance channel (full-range BT.601, as JPEG uses).
    case gray = "GRAY"

    /// The number of channels a tensor of this format has.
    public var channelCount: Int { self == .gray ? 1 : 3 }

    /// The colour held by each tensor channel, in tensor order; empty for ``gray``.
    public var channels: [ColorChannel] {
        switch self {
        case .rgb: return [.red, .green, .blue]
        case .bgr: return [.blue, .green, .red]
        case .gray: return []
        }
    }
}
