import Foundation

/// The region of a photo as MediaPipe hands it to a landmark model: OpenCV's `warpPerspective` of the
/// photo's 8-bit pixels onto the model's input size, bilinear, the border replicated — the CPU path of
/// MediaPipe's `ImageToTensorCalculator` — reproduced to the bit, because the landmark models turn a
/// one-level pixel difference into visibly different points.
///
/// OpenCV's arithmetic, as `cv::warpPerspective` does it for 8-bit images with `INTER_LINEAR`:
/// - the region's corners are `cv::RotatedRect::points`, in `Float`;
/// - each output pixel `(x, y)` (integer coordinates, no half-pixel offset) maps through the transform
///   taking output corner (0, 0) to the region's top-left corner and (width, height) to its bottom-right;
/// - the source position is rounded to 1/32 of a pixel (`INTER_BITS` 5, ties to even), its integer part
///   picks the four neighbours, its fraction the weights `(32 − f)·32` and `f·32` per axis, which sum to
///   2^15 exactly (`INTER_REMAP_COEF_BITS`);
/// - the value is `(Σ neighbour × weight + 2^14) >> 15`; a neighbour outside the photo is the nearest edge
///   pixel (`BORDER_REPLICATE`).
///
/// `Tests/TensorIOTests/Landmarks/RegionCropTests.swift` holds the same steps written plainly, and checks this
/// faster form against them on random regions and against OpenCV's own bytes.
enum RegionCrop {
    /// OpenCV's `INTER_TAB_SIZE`: source positions are kept to 1/32 of a pixel.
    static let subpixelSteps = 32

    /// The region widened or heightened to the model input's proportions, and the letterbox that adds
    /// (MediaPipe's `PadRoi` for `keep_aspect_ratio`, in its Float arithmetic): fractions of the padded
    /// region's width (left, right) and height (top, bottom) that are padding.
    static func padded(
        _ region: RegionOfInterest, toWidth inputWidth: Int, height inputHeight: Int
    ) -> (region: RegionOfInterest, letterbox: (left: Double, top: Double, right: Double, bottom: Double)) {
        let tensorAspect = Float(inputHeight) / Float(inputWidth)
        let width = Float(region.width), height = Float(region.height)
        let regionAspect = height / width
        var padded = region
        if tensorAspect > regionAspect {
            padded.height = Double(width * tensorAspect)
            let vertical = Double((1 - regionAspect / tensorAspect) / 2)
            return (padded, (0, vertical, 0, vertical))
        }
        padded.width = Double(height / tensorAspect)
        let horizontal = Double((1 - tensorAspect / regionAspect) / 2)
        return (padded, (horizontal, 0, horizontal, 0))
    }

    /// The region's four corners as `cv::RotatedRect::points` computes them (Float arithmetic): bottom-left,
    /// top-left, top-right, bottom-right of the region in its own frame. The angle in degrees is MediaPipe's
    /// `roi.rotation * 180.f / M_PI`, kept in a float.
    static func corners(of region: RegionOfInterest) -> [(x: Float, y: Float)] {
        let degrees = Float(Double(Float(region.rotation) * 180) / Double.pi)
        let angle = Double(degrees) * .pi / 180
        let b = Float(cos(angle)) * 0.5, a = Float(sin(angle)) * 0.5
        let cx = Float(region.centerX), cy = Float(region.centerY)
        let width = Float(region.width), height = Float(region.height)
        let p0 = (x: cx - a * height - b * width, y: cy + b * height - a * width)
        let p1 = (x: cx + a * height - b * width, y: cy - b * height - a * width)
        return [p0, p1, (2 * cx - p0.x, 2 * cy - p0.y), (2 * cx - p1.x, 2 * cy - p1.y)]
    }

    /// The crop, `outputWidth × outputHeight` pixels of 4 bytes (BGRA or RGBA: every byte is interpolated
    /// alike), in the photo's channel order.
    ///
    /// Per output row, the 1/32-pixel source positions of every column come first — OpenCV's sums in its
    /// order, rounded to nearest-even by adding 1.5 × 2^52 (no libm call; exact for the clamped range) — then
    /// each pixel's four neighbours are blended four channels at a time.
    ///
    /// - Parameters:
    ///   - pixels: The photo, `width × height` pixels of 4 bytes, rows without padding.
    ///   - width: The photo's width (at least 1).
    ///   - height: The photo's height (at least 1).
    ///   - region: The region, in the photo's pixels.
    ///   - outputWidth: The crop's width (at least 1).
    ///   - outputHeight: The crop's height (at least 1).
    /// - Returns: The crop's bytes.
    static func crop(
        _ pixels: [UInt8], width: Int, height: Int, region: RegionOfInterest, outputWidth: Int, outputHeight: Int
    ) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        precondition(outputWidth > 0 && outputHeight > 0)
        // boxPoints' order is bottom-left, top-left, top-right, bottom-right; MediaPipe maps them to the
        // output's (0, h), (0, 0), (w, 0), (w, h): the map is affine, origin at the top-left corner.
        let corners = Self.corners(of: region)
        let origin = (x: Double(corners[1].x), y: Double(corners[1].y))
        let across = (x: (Double(corners[2].x) - origin.x) / Double(outputWidth), y: (Double(corners[2].y) - origin.y) / Double(outputWidth))
        let down = (x: (Double(corners[0].x) - origin.x) / Double(outputHeight), y: (Double(corners[0].y) - origin.y) / Double(outputHeight))
        let columnX = (0..<outputWidth).map { origin.x + Double($0) * across.x }
        let columnY = (0..<outputWidth).map { origin.y + Double($0) * across.y }
        var fixedX = [Int32](repeating: 0, count: outputWidth), fixedY = fixedX
        var output = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4)
        // Positions are kept within Int32 as OpenCV's saturate_cast does; 1.5 × 2^52 rounds any number below
        // 2^51 to an integer held in the low bits of its sum.
        let limit = Double(Int32.max), roundingShift = 6_755_399_441_055_744.0
        // BORDER_REPLICATE without a branch: a position before the first pixel reads only the first pixel (both
        // neighbours are it), one past the last only the last, so clamping the position to the photo's
        // first and last pixel gives the same weighted sums; the second neighbour is then the first one again
        // only where its weight is zero.
        let lastX = Int32(width - 1) * 32, lastY = Int32(height - 1) * 32
        let stride = width * 4
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                fixedX.withUnsafeMutableBufferPointer { fixedX in
                    fixedY.withUnsafeMutableBufferPointer { fixedY in
                        var written = 0
                        for y in 0..<outputHeight {
                            let rowX = Double(y) * down.x, rowY = Double(y) * down.y
                            for x in 0..<outputWidth {
                                let sourceX = max(-limit, min(limit, (columnX[x] + rowX) * Double(subpixelSteps)))
                                let sourceY = max(-limit, min(limit, (columnY[x] + rowY) * Double(subpixelSteps)))
                                fixedX[x] = min(max(Int32(truncatingIfNeeded: (sourceX + roundingShift).bitPattern), 0), lastX)
                                fixedY[x] = min(max(Int32(truncatingIfNeeded: (sourceY + roundingShift).bitPattern), 0), lastY)
                            }
                            for x in 0..<outputWidth {
                                let left = Int(fixedX[x] >> 5), top = Int(fixedY[x] >> 5)
                                let fractionX = fixedX[x] & 31, fractionY = fixedY[x] & 31
                                // Weights of 1/1024 in steps, times 32: they sum to 2^15 (INTER_REMAP_COEF_BITS).
                                let topLeft = (32 &- fractionY) &* (32 &- fractionX) &* 32, topRight = (32 &- fractionY) &* fractionX &* 32
                                let bottomLeft = fractionY &* (32 &- fractionX) &* 32, bottomRight = fractionY &* fractionX &* 32
                                let column0 = left * 4, column1 = min(left + 1, width - 1) * 4
                                let row0 = top * stride, row1 = min(top + 1, height - 1) * stride
                                func pixel(_ offset: Int) -> SIMD4<Int32> {
                                    SIMD4<Int32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
                                }
                                let sum = pixel(row0 + column0) &* topLeft &+ pixel(row0 + column1) &* topRight
                                    &+ pixel(row1 + column0) &* bottomLeft &+ pixel(row1 + column1) &* bottomRight
                                // (Σ + 2^14) >> 15 of at most 255 × 2^15: always a byte.
                                target.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: (sum &+ 16_384) &>> 15), toByteOffset: written, as: SIMD4<UInt8>.self)
                                written += 4
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}
