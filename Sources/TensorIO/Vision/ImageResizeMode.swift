/// How an image is fitted to an image layer's size, like Vision's crop-and-scale options.
public enum ImageResizeMode: String, Sendable, Hashable, CaseIterable {
    /// Scale to cover the target and crop the centre (the original's behaviour, and the default).
    case aspectFill = "fill"
    /// Scale to fit inside the target and pad the rest with black.
    case aspectFit = "fit"
    /// Scale each dimension independently, distorting the aspect ratio.
    case stretch
}
