/// How an image is fitted to an image layer's size, like Vision's crop-and-scale options.
public enum ImageResizeMode: String, Sendable, Hashable, CaseIterable {
    /// Scale to cover the target and crop the centre (the original's behaviour, and the default).
    case aspectFill = "fill"
    /// Scale to fit inside the target and pad the rest with black.
    case aspectFit = "fit"
    /// Scale each dimension independently, distorting the aspect ratio.
    case stretch
}

/// A width and height in pixels.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height)" }
}
