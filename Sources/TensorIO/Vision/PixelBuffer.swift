import Foundation

/// An image in memory: 8-bit pixels in one of several channel layouts, with an EXIF orientation.
///
/// The Linux counterpart of the `CVPixelBuffer` the original wrapped. Rows are stored tightly
/// (``bytesPerRow`` is `width × bytesPerPixel`); a buffer is a value with copy-on-write storage, so it
/// is cheap to pass around and safe to share between tasks.
///
/// ```swift
/// let photo = try PixelBuffer(contentsOf: URL(fileURLWithPath: "Examples/photos/cat.jpg"))
/// let outputs = try model.run(photo)
/// ```
public struct PixelBuffer: Sendable, Hashable {
    /// How a pixel's bytes are laid out in memory.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Red, green, blue, alpha.
        case rgba
        /// Blue, green, red, alpha.
        case bgra
        /// Alpha, red, green, blue.
        case argb
        /// Red, green, blue.
        case rgb
        /// Blue, green, red.
        case bgr
        /// One luminance byte.
        case gray

        /// Bytes per pixel.
        public var bytesPerPixel: Int {
            switch self {
            case .rgba, .bgra, .argb: return 4
            case .rgb, .bgr: return 3
            case .gray: return 1
            }
        }
    }

    /// Width in pixels, as stored (before orientation).
    public let width: Int
    /// Height in pixels, as stored (before orientation).
    public let height: Int
    /// The pixel layout.
    public let format: Format
    /// How the stored pixels must be turned to appear upright.
    public var orientation: ImageOrientation
    /// The pixels, row after row, ``bytesPerRow`` bytes per row.
    public private(set) var bytes: [UInt8]

    /// Bytes from one row's start to the next.
    public var bytesPerRow: Int { width * format.bytesPerPixel }

    /// Creates a buffer from pixels in memory.
    ///
    /// - Parameters:
    ///   - width: Width in pixels; at least 1.
    ///   - height: Height in pixels; at least 1.
    ///   - format: The pixel layout of `bytes`.
    ///   - bytes: The pixels, row after row.
    ///   - bytesPerRow: The distance between rows in `bytes`, when rows are padded; by default
    ///     `width × bytesPerPixel`.
    ///   - orientation: How the pixels must be turned to appear upright.
    /// - Throws: ``TensorIOError`` when the size is zero or `bytes` is too short.
    public init(
        width: Int, height: Int, format: Format, bytes: [UInt8], bytesPerRow: Int? = nil,
        orientation: ImageOrientation = .up
    ) throws {
        guard width > 0, height > 0 else {
            throw TensorIOError(.invalidImage, "an image must be at least 1×1 pixels, not \(width)×\(height)")
        }
        let (tight, tightOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let stride = bytesPerRow ?? tight
        guard !tightOverflow, stride >= tight else {
            throw TensorIOError(.invalidImage, "a row of \(width) \(format) pixels needs \(tight) bytes, not \(stride)")
        }
        // Checked: sizes given by hand may be anything, and a trap would take the caller down.
        let (rows, rowsOverflow) = stride.multipliedReportingOverflow(by: height - 1)
        let (needed, neededOverflow) = rows.addingReportingOverflow(tight)
        guard !rowsOverflow, !neededOverflow, bytes.count >= needed else {
            throw TensorIOError(.invalidImage, "\(width)×\(height) \(format) pixels need \(needed) bytes, got \(bytes.count)")
        }
        self.width = width
        self.height = height
        self.format = format
        self.orientation = orientation
        if stride == tight {
            self.bytes = bytes.count == tight * height ? bytes : Array(bytes.prefix(tight * height))
        } else {
            var compact = [UInt8]()
            compact.reserveCapacity(tight * height)
            for row in 0..<height { compact += bytes[(row * stride)..<(row * stride + tight)] }
            self.bytes = compact
        }
    }

    /// Creates a buffer filled with one byte value (0: black and transparent).
    public init(width: Int, height: Int, format: Format, repeating value: UInt8 = 0) throws {
        guard width > 0, height > 0 else {
            throw TensorIOError(.invalidImage, "an image must be at least 1×1 pixels, not \(width)×\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (count, countOverflow) = pixels.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !overflow, !countOverflow, pixels <= ModelLimits().maximumDecodedImagePixels else {
            throw TensorIOError(
                .limitExceeded,
                "a \(width)×\(height) image has more pixels than the limit of \(ModelLimits().maximumDecodedImagePixels) (ModelLimits.maximumDecodedImagePixels)"
            )
        }
        try self.init(width: width, height: height, format: format, bytes: [UInt8](repeating: value, count: count))
    }

    /// Creates a buffer around storage known to be the right size.
    init(unchecked width: Int, height: Int, format: Format, bytes: [UInt8], orientation: ImageOrientation = .up) {
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
        self.orientation = orientation
    }

    /// The bytes of the pixel at column `x`, row `y`, in the buffer's format; `nil` outside the image.
    public func pixel(x: Int, y: Int) -> [UInt8]? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let start = y * bytesPerRow + x * format.bytesPerPixel
        return Array(bytes[start..<(start + format.bytesPerPixel)])
    }

    /// Width and height once the orientation is applied.
    public var uprightSize: (width: Int, height: Int) {
        orientation.swapsDimensions ? (height, width) : (width, height)
    }
}
