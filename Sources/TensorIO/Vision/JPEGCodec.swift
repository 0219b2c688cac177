internal import CTurboJPEG
import Foundation
internal import TensorIOSupport

/// JPEG decoding and encoding with libjpeg-turbo's TurboJPEG API (SIMD, with DCT scaling).
enum JPEGCodec {
    /// Whether `data` starts like a JPEG file.
    static func recognizes(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == 0xFF && data[data.startIndex + 1] == 0xD8
            && data[data.startIndex + 2] == 0xFF
    }

    /// Decodes a JPEG, at reduced size when `minimumSize` allows: given the stored size and orientation,
    /// it returns the size the decoded image must still cover, and the smallest DCT scale (1/8 … 1) that
    /// does is used. Colour images become BGRA, grayscale ones gray.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidImage``) with TurboJPEG's reason.
    static func decode(
        _ data: Data, maximumPixels: Int, minimumSize: (Int, Int, ImageOrientation) -> ImageSize? = { _, _, _ in nil }
    ) throws -> PixelBuffer {
        guard let handle = tjInitDecompress() else {
            throw TensorIOError(.invalidImage, "cannot start the JPEG decoder")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> PixelBuffer in try CByteBuffer.with(raw, as: UInt8.self) { base, _ in
            guard let base else {
                throw TensorIOError(.invalidImage, "the file is empty")
            }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0 else {
                throw TensorIOError(.invalidImage, "not a readable JPEG (\(message(handle)))")
            }
            guard width > 0, height > 0 else {
                throw TensorIOError(.invalidImage, "the JPEG has a zero size")
            }
            let orientation = ExifOrientation.read(from: raw) ?? .up
            let minimum = minimumSize(Int(width), Int(height), orientation)
            let (scaledWidth, scaledHeight) = scaledSize(width: Int(width), height: Int(height), minimum: minimum)
            // At most 65535 × 65535 (the JPEG header's limit): the product fits in Int, and is checked anyway.
            let (pixelCount, overflow) = scaledWidth.multipliedReportingOverflow(by: scaledHeight)
            guard !overflow, pixelCount <= maximumPixels else {
                throw TensorIOError(
                    .limitExceeded,
                    "the JPEG decodes to \(scaledWidth)×\(scaledHeight) pixels, more than the limit of \(maximumPixels) (ModelLimits.maximumDecodedImagePixels)"
                )
            }
            let isGray = colorspace == Int32(TJCS_GRAY.rawValue)
            let format: PixelBuffer.Format = isGray ? .gray : .bgra
            let pixelFormat = isGray ? TJPF_GRAY : TJPF_BGRA
            var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * format.bytesPerPixel)
            let status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, base, UInt(raw.count), out.baseAddress, Int32(scaledWidth), 0,
                              Int32(scaledHeight), pixelFormat.rawValue, Int32(TJFLAG_LIMITSCANS))
            }
            // TJFLAG_LIMITSCANS: a progressive JPEG with thousands of scans would take minutes to decode.
            // The accurate integer IDCT (no TJFLAG_FASTDCT), as Pillow and OpenCV decode: the pixels a model's
            // reference was computed on, to the byte; the fast one moves 60% of bytes by up to 7 levels.
            if status != 0 {
                // Warnings (such as extraneous bytes) still give a usable image; a truncated file does not.
                let reason = message(handle)
                if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) || reason.contains("Premature end") {
                    throw TensorIOError(.invalidImage, "the JPEG data is damaged (\(reason))")
                }
            }
            return PixelBuffer(unchecked: scaledWidth, height: scaledHeight, format: format, bytes: pixels, orientation: orientation)
        } }
    }

    /// Encodes a buffer as a baseline JPEG.
    ///
    /// - Parameter quality: 1…100.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidImage``) when encoding fails.
    static func encode(_ buffer: PixelBuffer, quality: Int) throws -> Data {
        guard let handle = tjInitCompress() else { throw TensorIOError(.invalidImage, "cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        let (pixelFormat, subsampling): (TJPF, TJSAMP) = switch buffer.format {
        case .rgba: (TJPF_RGBA, TJSAMP_420)
        case .bgra: (TJPF_BGRA, TJSAMP_420)
        case .argb: (TJPF_ARGB, TJSAMP_420)
        case .rgb: (TJPF_RGB, TJSAMP_420)
        case .bgr: (TJPF_BGR, TJSAMP_420)
        case .gray: (TJPF_GRAY, TJSAMP_GRAY)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = buffer.bytes.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(buffer.width), Int32(buffer.bytesPerRow), Int32(buffer.height),
                        Int32(pixelFormat.rawValue), &output, &size, Int32(subsampling.rawValue), Int32(max(1, min(100, quality))), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw TensorIOError(.invalidImage, "JPEG encoding failed (\(message(handle)))")
        }
        return Data(bytes: output, count: Int(size))
    }

    /// The smallest TurboJPEG scale whose output still covers `minimum` in both dimensions.
    private static func scaledSize(width: Int, height: Int, minimum: ImageSize?) -> (Int, Int) {
        guard let minimum else { return (width, height) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return (width, height) }
        var best = (width, height)
        for index in 0..<Int(count) {
            let factor = factors[index]
            guard factor.num <= factor.denom else { continue }  // never upscale while decoding
            let scaledWidth = (width * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            let scaledHeight = (height * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            if scaledWidth >= minimum.width, scaledHeight >= minimum.height, scaledWidth * scaledHeight < best.0 * best.1 {
                best = (scaledWidth, scaledHeight)
            }
        }
        return best
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
