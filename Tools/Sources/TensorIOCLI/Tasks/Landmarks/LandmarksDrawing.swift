import CCairo
import Foundation
import TensorIO
import TensorIOVision

/// `tensorio landmarks --draw DIR`: each photo, upright, with each instance's skeleton drawn by cairo — the
/// bundle's connections as lines, the points as dots — written as `DIR/NAME.jpg`.
enum LandmarksDrawing {
    /// The photo as displayed, with the instances drawn on it.
    ///
    /// - Parameters:
    ///   - instances: What the landmarker found.
    ///   - connections: Pairs of point indices to join (the bundle's `connections`).
    ///   - photo: The photo.
    /// - Returns: The drawn photo.
    /// - Throws: ``CLIError`` when cairo cannot make a surface of the photo's size.
    static func draw(_ instances: [Landmarks], connections: [[Int]], on photo: PixelBuffer) throws -> PixelBuffer {
        let image = photo.orientedUpright()  // BGRA: cairo's ARGB32 on a little-endian machine, alpha 255
        let width = image.width, height = image.height
        return try CairoCanvas.draw(on: image.bytes, width: width, height: height) { context in
            // Sizes follow the photo, and shrink for dense meshes (a face's 468 points).
            let line = max(1.5, Double(min(width, height)) / 320)
            for (index, instance) in instances.enumerated().reversed() {
                let colour = DetectionDrawing.colour(index)
                let points = instance.landmarks
                cairo_set_line_width(context, line)
                cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
                for pair in connections where pair.count == 2 && points.indices.contains(pair[0]) && points.indices.contains(pair[1]) {
                    cairo_move_to(context, points[pair[0]].x, points[pair[0]].y)
                    cairo_line_to(context, points[pair[1]].x, points[pair[1]].y)
                }
                cairo_stroke(context)
                let radius = points.count > 100 ? line * 0.8 : line * 2
                cairo_set_source_rgb(context, 1, 1, 1)
                for point in points {
                    cairo_new_sub_path(context)
                    cairo_arc(context, point.x, point.y, radius, 0, 2 * .pi)
                }
                cairo_fill(context)
            }
        }
    }
}
