import CCairo
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport

/// `tensorio detect --draw DIR`: each photo, upright, with its detections drawn by cairo — boxes, a label
/// and score above each, keypoints as dots — written as `DIR/NAME.jpg`.
///
/// cairo is the tool's alone: an app using the TensorIO library neither links nor needs it.
enum DetectionDrawing {
    /// The longest label drawn; longer ones (a model's labels are untrusted) are cut with an ellipsis.
    static let maximumLabelLength = 48

    /// The photo as displayed, with the detections drawn on it.
    ///
    /// - Throws: ``CLIError`` when cairo cannot make a surface of the photo's size.
    static func draw(_ detections: [Detection], on photo: PixelBuffer) throws -> PixelBuffer {
        let image = photo.orientedUpright()  // BGRA: cairo's ARGB32 on a little-endian machine, alpha 255
        let width = image.width, height = image.height
        return try CairoCanvas.draw(on: image.bytes, width: width, height: height) { context in
            // Sizes follow the photo, so a thumbnail and a 12-megapixel photo both read well.
            let line = max(2, Double(min(width, height)) / 250)
            let fontSize = max(12, Double(min(width, height)) / 30)
            cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(context, fontSize)
            // Drawn worst first, so the best detection's box and label end up on top.
            for detection in detections.reversed() {
                let colour = Self.colour(detection.classIndex)
                cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
                cairo_set_line_width(context, line)
                cairo_rectangle(context, detection.box.x, detection.box.y, detection.box.width, detection.box.height)
                cairo_stroke(context)
                for point in detection.keypoints {
                    cairo_new_sub_path(context)
                    cairo_arc(context, point.x, point.y, line * 1.6, 0, 2 * .pi)
                }
                cairo_fill(context)
                caption(Self.caption(detection), at: detection.box, colour: colour, fontSize: fontSize, in: context)
            }
        }
    }

    /// `label 0.87` (or `#index 0.87`), cut to ``maximumLabelLength`` characters.
    static func caption(_ detection: Detection) -> String {
        var name = detection.label ?? "#\(detection.classIndex)"
        if name.count > maximumLabelLength { name = String(name.prefix(maximumLabelLength - 1)) + "…" }
        return "\(name) \(String(format: "%.2f", detection.score))"
    }

    /// The caption on a filled band of the box's colour, above the box (inside it at the photo's top).
    private static func caption(
        _ text: String, at box: Detection.Box, colour: (red: Double, green: Double, blue: Double), fontSize: Double,
        in context: OpaquePointer?
    ) {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        let padding = fontSize / 4
        let bandHeight = fontSize + 2 * padding
        let top = box.y - bandHeight >= 0 ? box.y - bandHeight : box.y
        cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
        cairo_rectangle(context, box.x, top, extents.x_advance + 2 * padding, bandHeight)
        cairo_fill(context)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_move_to(context, box.x + padding, top + padding + fontSize * 0.8)
        cairo_show_text(context, text)
    }

    /// A distinct, saturated colour per class (golden-ratio hues).
    static func colour(_ classIndex: Int) -> (red: Double, green: Double, blue: Double) {
        let hue = (Double(classIndex & 0xFFFF) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
        let sector = hue * 6, fraction = sector - sector.rounded(.down)
        let (value, low) = (0.9, 0.15)
        let rising = low + (value - low) * fraction, falling = value - (value - low) * fraction
        switch Int(sector) % 6 {
        case 0: return (value, rising, low)
        case 1: return (falling, value, low)
        case 2: return (low, value, rising)
        case 3: return (low, falling, value)
        case 4: return (rising, low, value)
        default: return (value, low, falling)
        }
    }
}
