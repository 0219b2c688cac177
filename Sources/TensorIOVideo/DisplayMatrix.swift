import TensorIO

/// A stream's display matrix (MP4 and MOV `tkhd`; FFmpeg's `AV_PKT_DATA_DISPLAYMATRIX`) as the EXIF
/// orientation a photo would carry for the same turn.
///
/// The matrix maps a stored pixel (x, y) to the displayed point (a·x + c·y + tx, b·x + d·y + ty), with
/// `[a, b, u, c, d, v, tx, ty, w]` its nine entries (a, b, c and d in 16.16 fixed point). Each of the eight
/// orientations is one pattern of signs in a, b, c and d; a matrix between them (a turn of 30°, say) is
/// read as the nearest right angle, and a singular one as upright.
enum DisplayMatrix {
    /// The orientation that shows the stored frames as the matrix displays them.
    ///
    /// - Parameter matrix: The nine entries, row by row.
    /// - Returns: ``ImageOrientation/up`` when the matrix is not nine entries or is singular.
    static func orientation(_ matrix: [Int32]) -> ImageOrientation {
        guard matrix.count == 9 else { return .up }
        let (a, b, c, d) = (Int64(matrix[0]), Int64(matrix[1]), Int64(matrix[3]), Int64(matrix[4]))
        if a == 0, b == 0, c == 0, d == 0 { return .up }
        if abs(a) + abs(d) >= abs(b) + abs(c) {
            // Rows stay rows: x' follows x (a), y' follows y (d).
            switch (a >= 0, d >= 0) {
            case (true, true): return .up
            case (false, true): return .upMirrored
            case (false, false): return .down
            case (true, false): return .downMirrored
            }
        }
        // Rows become columns: y' follows x (b), x' follows y (c).
        switch (b >= 0, c >= 0) {
        case (true, true): return .leftMirrored
        case (true, false): return .right
        case (false, false): return .rightMirrored
        case (false, true): return .left
        }
    }

    /// The clockwise turn, in degrees (0, 90, 180 or 270), that `orientation` applies before any mirroring.
    static func clockwiseDegrees(_ orientation: ImageOrientation) -> Int {
        switch orientation {
        case .up, .upMirrored: 0
        case .right, .leftMirrored: 90
        case .down, .downMirrored: 180
        case .left, .rightMirrored: 270
        }
    }
}
