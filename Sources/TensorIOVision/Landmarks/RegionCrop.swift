import Foundation
internal import CRegionCrop

/// The region of a photo as MediaPipe hands it to a landmark model: OpenCV's `warpPerspective` of the
/// photo's 8-bit pixels onto the model's input size, bilinear, the border replicated — the CPU path of
/// MediaPipe's `ImageToTensorCalculator` — reproduced to the bit, because the landmark models turn a
/// one-level pixel difference into visibly different points.
///
/// OpenCV's arithmetic, as `cv::warpPerspective` does it for 8-bit images with `INTER_LINEAR`:
/// - the region's corners are `cv::RotatedRect::points`, in `Float`;
/// - each output pixel `(x, y)` (integer coordinates, no half-pixel offset) maps through the transform
///   taking output corner (0, 0) to the region's top-left corner and (width, height) to its bottom-right —
///   to the last bit as OpenCV computes it: `cv::getPerspectiveTransform` of the Float corners (an 8 × 8
///   system solved by OpenCV's LU), inverted by `cv::invert`'s closed form, then each position as
///   `WarpPerspectiveInvoker` sums it in blocks of columns and divides it by the projective term. Float
///   corners are not an exact parallelogram, so that term is not exactly 1, and an affine sum of the corners'
///   differences lands on the other side of a 1/32 step for a few pixels of many crops (a byte or two
///   different: enough to move a hand's points, frame after frame, when each frame's points make the next
///   frame's region);
/// - the source position is rounded to 1/32 of a pixel (`INTER_BITS` 5, ties to even), its integer part
///   picks the four neighbours, its fraction the weights `(32 − f)·32` and `f·32` per axis, which sum to
///   2^15 exactly (`INTER_REMAP_COEF_BITS`);
/// - the value is `(Σ neighbour × weight + 2^14) >> 15`; a neighbour outside the photo is the nearest edge
///   pixel (`BORDER_REPLICATE`).
///
/// `Tests/TensorIOTests/Landmarks/RegionCropTests.swift` holds the same steps written plainly in Swift, and
/// checks the C kernel (both its paths) against them on random regions and against OpenCV's own bytes.
enum RegionCrop {
    /// The widest of the kernel's paths it may take where the processor has it (the tests check each).
    enum Path: Int32, CaseIterable {
        case portable = 0
        case avx2 = 1
        case avx512 = 2
    }

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
    /// alike), in the photo's channel order: `tio_region_crop` (the C target `CRegionCrop`, four, eight or sixteen
    /// pixels at a time with AVX2 or AVX-512 where the processor has them) given the affine map from the region's corners.
    ///
    /// - Parameters:
    ///   - pixels: The photo, `width × height` pixels of 4 bytes, rows without padding.
    ///   - width: The photo's width (at least 1).
    ///   - height: The photo's height (at least 1).
    ///   - region: The region, in the photo's pixels.
    ///   - outputWidth: The crop's width (at least 1).
    ///   - outputHeight: The crop's height (at least 1).
    ///   - widest: The widest path the kernel may take (the tests check the narrower ones too).
    /// - Returns: The crop's bytes.
    static func crop(
        _ pixels: [UInt8], width: Int, height: Int, region: RegionOfInterest, outputWidth: Int, outputHeight: Int,
        widest: Path = .avx512
    ) -> [UInt8] {
        // Checked here, before C sees them: the sizes match the bytes, and the output is the model's input.
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(width > 0 && height > 0 && !overflow && area <= Int.max / 4 && pixels.count == area * 4)
        precondition(outputWidth > 0 && outputHeight > 0)
        // boxPoints' order is bottom-left, top-left, top-right, bottom-right; MediaPipe maps them to the
        // output's (0, h), (0, 0), (w, 0), (w, h) with getPerspectiveTransform, which the kernel solves as OpenCV does.
        let corners = Self.corners(of: region).flatMap { [$0.x, $0.y] }
        var positionX = [Double](repeating: 0, count: outputWidth), positionY = positionX
        // Not filled first: the kernel writes every byte (a 192 × 192 crop is 147 KB, a tenth of its time).
        return [UInt8](unsafeUninitializedCapacity: outputWidth * outputHeight * 4) { target, initialized in
            pixels.withUnsafeBufferPointer { source in
                positionX.withUnsafeMutableBufferPointer { positionX in
                    positionY.withUnsafeMutableBufferPointer { positionY in
                        tio_region_crop(
                            source.baseAddress, Int64(width), Int64(height), corners, Int64(outputWidth), Int64(outputHeight),
                            target.baseAddress, positionX.baseAddress, positionY.baseAddress, widest.rawValue)
                    }
                }
            }
            initialized = target.count
        }
    }
}
