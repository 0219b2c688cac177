import CCairo
import TensorIO
import TensorIOToolSupport

/// A photo's pixels as a cairo surface to draw on: what `detect --draw` and `segment --overlay` share.
///
/// The pixels are BGRA, which is cairo's ARGB32 on a little-endian machine (alpha 255: opaque).
enum CairoCanvas {
    /// Draws on a copy of `pixels` with cairo and returns the result.
    ///
    /// - Parameters:
    ///   - pixels: `width × height` BGRA pixels, rows without padding.
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - body: Draws with the cairo context it is given.
    /// - Returns: The drawn photo, BGRA.
    /// - Throws: ``CLIError`` when cairo cannot make a surface of that size or reports a failure.
    static func draw(
        on pixels: [UInt8], width: Int, height: Int, _ body: (_ context: OpaquePointer?) -> Void
    ) throws -> PixelBuffer {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride == width * 4 else { throw CLIError("cannot draw on a \(width)×\(height) photo") }
        var pixels = pixels
        let status = pixels.withUnsafeMutableBufferPointer { buffer -> cairo_status_t in
            guard let base = buffer.baseAddress else { return CAIRO_STATUS_NULL_POINTER }
            let surface = cairo_image_surface_create_for_data(
                base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
            defer { cairo_surface_destroy(surface) }
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            body(context)
            cairo_surface_flush(surface)
            return cairo_status(context)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CLIError("drawing failed: \(String(cString: cairo_status_to_string(status)))")
        }
        return try PixelBuffer(width: width, height: height, format: .bgra, bytes: pixels)
    }
}
