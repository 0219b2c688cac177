import CCairo
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport

/// `tensorio segment --overlay DIR`: each photo, upright, with its categories tinted over it (background,
/// category 0 of a multi-category model and the background of a one-channel one, left clear) and a legend
/// of the categories present with their share, drawn by cairo; written as `DIR/NAME.jpg`.
enum SegmentationOverlay {
    /// How much of a category's colour covers a pixel.
    static let opacity = 0.5

    /// The photo as displayed with `mask` tinted over it and its legend.
    ///
    /// - Parameter categories: The categories present, largest first, with their label and share.
    /// - Throws: ``CLIError`` when cairo cannot make a surface of the photo's size.
    static func draw(
        _ mask: SegmentationMask, categories: [(index: Int, label: String?, fraction: Double)], on photo: PixelBuffer
    ) throws -> PixelBuffer {
        let image = photo.orientedUpright()  // BGRA, the mask's size
        let width = image.width, height = image.height
        guard mask.width == width, mask.height == height else { throw CLIError("the mask does not fit the photo") }
        var pixels = image.bytes
        // Tint: blend each pixel with its category's colour (category 0, the background, stays as it is).
        let colours = (0..<mask.categoryCount).map { index -> [Double] in
            let colour = DetectionDrawing.colour(index)
            return [colour.blue * 255, colour.green * 255, colour.red * 255]  // BGRA order
        }
        for (position, category) in mask.categoryIndices.enumerated() where category != 0 && Int(category) < colours.count {
            let colour = colours[Int(category)]
            for channel in 0..<3 {
                let offset = position * 4 + channel
                pixels[offset] = UInt8((Double(pixels[offset]) * (1 - opacity) + colour[channel] * opacity).rounded())
            }
        }
        return try CairoCanvas.draw(on: pixels, width: width, height: height) { context in
            legend(categories, in: context, fontSize: max(12, Double(min(width, height)) / 30))
        }
    }

    /// One line per category at the top left: a swatch of its colour, its label and share, on a dark band.
    private static func legend(_ categories: [(index: Int, label: String?, fraction: Double)], in context: OpaquePointer?, fontSize: Double) {
        cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(context, fontSize)
        let padding = fontSize / 3, lineHeight = fontSize * 1.4
        let lines = categories.prefix(12).map { category -> (String, Int) in
            var name = category.label ?? "#\(category.index)"
            if name.count > DetectionDrawing.maximumLabelLength { name = String(name.prefix(DetectionDrawing.maximumLabelLength - 1)) + "…" }
            return ("\(name) \(String(format: "%.1f", category.fraction * 100))%", category.index)
        }
        var widest = 0.0
        for (text, _) in lines {
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, text, &extents)
            widest = max(widest, extents.x_advance)
        }
        cairo_set_source_rgba(context, 0, 0, 0, 0.6)
        cairo_rectangle(context, 0, 0, widest + fontSize + 3 * padding, Double(lines.count) * lineHeight + padding)
        cairo_fill(context)
        for (row, (text, index)) in lines.enumerated() {
            let top = padding + Double(row) * lineHeight
            if index != 0 {
                let colour = DetectionDrawing.colour(index)
                cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
            } else {
                cairo_set_source_rgb(context, 0.5, 0.5, 0.5)
            }
            cairo_rectangle(context, padding, top + fontSize * 0.1, fontSize, fontSize)
            cairo_fill(context)
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_move_to(context, 2 * padding + fontSize, top + fontSize * 0.9)
            cairo_show_text(context, text)
        }
    }
}
