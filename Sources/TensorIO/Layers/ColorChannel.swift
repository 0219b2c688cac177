/// A colour channel of a pixel.
public enum ColorChannel: Sendable, Hashable, CaseIterable {
    case red, green, blue
}
