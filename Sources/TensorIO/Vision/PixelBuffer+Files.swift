public import Foundation
internal import TensorIOSupport

extension PixelBuffer {
    /// Decodes a JPEG or PNG file.
    ///
    /// JPEGs carry their EXIF orientation into ``orientation``. When `targetSize` is given, a large JPEG is
    /// decoded at a reduced size (1/2, 1/4 or 1/8, by DCT scaling) that still covers the target once
    /// oriented and fitted with `resizeMode`: much faster, and the result is scaled down anyway.
    ///
    /// - Parameters:
    ///   - url: The image file.
    ///   - targetSize: The size the image will be fitted to, if known.
    ///   - resizeMode: How it will be fitted.
    ///   - limits: The largest file (``ModelLimits/maximumImageFileBytes``) and decoded size
    ///     (``ModelLimits/maximumDecodedImagePixels``) accepted.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/io`` when the file cannot be read or is not a
    ///   regular file, ``TensorIOError/Code/invalidImage`` when it is not a readable JPEG or PNG,
    ///   ``TensorIOError/Code/limitExceeded`` past a limit; all name the file.
    public init(
        contentsOf url: URL, targetSize: ImageSize? = nil, resizeMode: ImageResizeMode = .aspectFill,
        limits: ModelLimits = ModelLimits()
    ) throws {
        let data: Data
        do {
            data = try UntrustedFile.read(
                url, limit: limits.maximumImageFileBytes, name: "the image", limitName: "maximumImageFileBytes"
            )
        } catch var error as TensorIOError {
            error.location = url.relativePath  // the path as the caller gave it
            throw error
        }
        do {
            try self.init(data: data, targetSize: targetSize, resizeMode: resizeMode, limits: limits)
        } catch var error as TensorIOError {
            error.location = url.relativePath
            throw error
        }
    }

    /// Decodes JPEG or PNG data in memory; see ``init(contentsOf:targetSize:resizeMode:limits:)``.
    ///
    /// - Parameters:
    ///   - data: The encoded image.
    ///   - targetSize: The size the image will be fitted to, if known.
    ///   - resizeMode: How it will be fitted.
    ///   - limits: The decoded size accepted (``ModelLimits/maximumDecodedImagePixels``), checked against
    ///     the header before any pixel memory is allocated.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidImage`` when the data is not a readable
    ///   JPEG or PNG, ``TensorIOError/Code/limitExceeded`` when it decodes to too many pixels.
    public init(
        data: Data, targetSize: ImageSize? = nil, resizeMode: ImageResizeMode = .aspectFill,
        limits: ModelLimits = ModelLimits()
    ) throws {
        let maximumPixels = limits.maximumDecodedImagePixels
        if data.isEmpty {
            throw TensorIOError(.invalidImage, "the image is empty")
        } else if JPEGCodec.recognizes(data) {
            self = try JPEGCodec.decode(data, maximumPixels: maximumPixels) { storedWidth, storedHeight, orientation in
                targetSize.map {
                    VisionPipeline.minimumSourceSize(
                        storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation,
                        target: $0, mode: resizeMode
                    )
                }
            }
        } else if PNGCodec.recognizes(data) {
            self = try PNGCodec.decode(data, maximumPixels: maximumPixels)
        } else {
            throw TensorIOError(.invalidImage, "not a JPEG or PNG image (unrecognised format)")
        }
    }

    /// The image as PNG data.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidImage``) when encoding fails.
    public func pngData() throws -> Data { try PNGCodec.encode(self) }

    /// The image as JPEG data.
    ///
    /// - Parameter quality: 1…100.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidImage``) when encoding fails.
    public func jpegData(quality: Int = 90) throws -> Data { try JPEGCodec.encode(self, quality: quality) }

    /// Writes the image as PNG, or as JPEG when the file name ends in .jpg or .jpeg. The pixels are
    /// written as stored; the orientation is not applied.
    ///
    /// - Throws: ``TensorIOError`` naming the file when encoding or writing fails.
    public func write(to url: URL) throws {
        let ext = url.pathExtension.lowercased()
        let data = ext == "jpg" || ext == "jpeg" ? try jpegData() : try pngData()
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw TensorIOError(.io, "cannot write the image: \(SystemErrorText.reason(of: error))", location: url.relativePath)
        }
    }
}
