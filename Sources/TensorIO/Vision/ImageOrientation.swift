/// The eight EXIF orientations: how an image's stored pixels must be turned to appear upright.
///
/// Raw values are the EXIF `Orientation` tag's values.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down: turn 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Transposed: mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Turn 90° clockwise to display (a phone held upright, home button down).
    case right = 6
    /// Transversed: mirrored along the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// Turn 90° counter-clockwise to display.
    case left = 8

    /// Whether the upright image's width is the stored height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The stored pixel shown at upright position (`u`, `v`), for a stored image `width` × `height`.
    func storedPosition(u: Int, v: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (u, v)
        case .upMirrored: return (width - 1 - u, v)
        case .down: return (width - 1 - u, height - 1 - v)
        case .downMirrored: return (u, height - 1 - v)
        case .leftMirrored: return (v, u)
        case .right: return (v, height - 1 - u)
        case .rightMirrored: return (width - 1 - v, height - 1 - u)
        case .left: return (width - 1 - v, u)
        }
    }
}
