internal import CSPNG
import Foundation

/// PNG decoding and encoding with libspng.
enum PNGCodec {
    private static let maximumChunkBytes = 16 << 20
    private static let maximumChunkCacheBytes = 64 << 20
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `data` starts with the PNG signature.
    static func recognizes(_ data: Data) -> Bool {
        data.count >= 8 && data.prefix(8).elementsEqual(signature)
    }

    /// Decodes a PNG: 8-bit grayscale stays gray; everything else (palette, 16-bit, grey with alpha,
    /// colour) becomes RGBA with transparency applied.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidImage``) with libspng's reason.
    static func decode(_ data: Data, maximumPixels: Int) throws -> PixelBuffer {
        guard let context = spng_ctx_new(0) else { throw TensorIOError(.invalidImage, "cannot start the PNG decoder") }
        defer { spng_ctx_free(context) }
        return try data.withUnsafeBytes { raw -> PixelBuffer in
            // Ancillary chunks (text, ICC profiles) are kept in memory by libspng: bound them, so a small
            // file cannot make it allocate gigabytes.
            try check(spng_set_chunk_limits(context, Self.maximumChunkBytes, Self.maximumChunkCacheBytes), "cannot start the PNG decoder")
            try check(spng_set_png_buffer(context, raw.baseAddress, raw.count), "not a readable PNG")
            var header = spng_ihdr()
            try check(spng_get_ihdr(context, &header), "not a readable PNG")
            guard header.width > 0, header.height > 0 else { throw TensorIOError(.invalidImage, "the PNG has a zero size") }
            // UInt32 × UInt32 fits in Int on 64-bit platforms; the multiplication is checked anyway.
            let (pixelCount, overflow) = Int(header.width).multipliedReportingOverflow(by: Int(header.height))
            guard !overflow, pixelCount <= maximumPixels else {
                throw TensorIOError(
                    .limitExceeded,
                    "the PNG is \(header.width)×\(header.height) pixels, more than the limit of \(maximumPixels) (ModelLimits.maximumDecodedImagePixels)"
                )
            }
            let isGray = header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue) && header.bit_depth <= 8
            let (format, spngFormat) = isGray ? (PixelBuffer.Format.gray, SPNG_FMT_G8) : (.rgba, SPNG_FMT_RGBA8)
            var size = 0
            try check(spng_decoded_image_size(context, Int32(spngFormat.rawValue), &size), "cannot size the PNG")
            let width = Int(header.width), height = Int(header.height)
            guard size == width * height * format.bytesPerPixel else {
                throw TensorIOError(.invalidImage, "unexpected decoded PNG size")
            }
            var pixels = [UInt8](repeating: 0, count: size)
            let flags = isGray ? 0 : Int32(SPNG_DECODE_TRNS.rawValue)
            let status = pixels.withUnsafeMutableBytes { out in
                spng_decode_image(context, out.baseAddress, size, Int32(spngFormat.rawValue), flags)
            }
            try check(status, "the PNG data is damaged")
            return PixelBuffer(unchecked: width, height: height, format: format, bytes: pixels)
        }
    }

    /// Encodes a buffer as PNG: gray stays gray, 3-byte formats become RGB, 4-byte ones RGBA.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidImage``) when encoding fails.
    static func encode(_ buffer: PixelBuffer) throws -> Data {
        let (source, colorType): (PixelBuffer, spng_color_type) = switch buffer.format {
        case .gray: (buffer, SPNG_COLOR_TYPE_GRAYSCALE)
        case .rgb: (buffer, SPNG_COLOR_TYPE_TRUECOLOR)
        case .bgr: (buffer.converted(to: .rgb), SPNG_COLOR_TYPE_TRUECOLOR)
        case .rgba: (buffer, SPNG_COLOR_TYPE_TRUECOLOR_ALPHA)
        case .bgra, .argb: (buffer.converted(to: .rgba), SPNG_COLOR_TYPE_TRUECOLOR_ALPHA)
        }
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw TensorIOError(.invalidImage, "cannot start the PNG encoder")
        }
        defer { spng_ctx_free(context) }
        try check(spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1), "cannot encode PNG")
        var header = spng_ihdr()
        header.width = UInt32(source.width)
        header.height = UInt32(source.height)
        header.bit_depth = 8
        header.color_type = UInt8(colorType.rawValue)
        try check(spng_set_ihdr(context, &header), "cannot encode PNG")
        let status = source.bytes.withUnsafeBytes { pixels in
            spng_encode_image(context, pixels.baseAddress, pixels.count, Int32(SPNG_FMT_PNG.rawValue),
                              Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        try check(status, "PNG encoding failed")
        var length = 0
        var error: Int32 = 0
        guard let encoded = spng_get_png_buffer(context, &length, &error), error == 0 else {
            throw TensorIOError(.invalidImage, "PNG encoding failed (\(reason(error)))")
        }
        defer { free(encoded) }
        return Data(bytes: encoded, count: length)
    }

    private static func check(_ status: Int32, _ what: String) throws {
        guard status != 0 else { return }
        throw TensorIOError(.invalidImage, "\(what) (\(reason(status)))")
    }

    private static func reason(_ status: Int32) -> String {
        spng_strerror(status).map { String(cString: $0) } ?? "error \(status)"
    }
}
