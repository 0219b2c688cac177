internal import CYUV

/// Turns any pixel buffer into an upright BGRA image of an exact size: orientation (mirrored ones too),
/// then the fit (centre crop, pad or stretch), for any target size, larger or smaller, square or not.
///
/// The crop is worked out in upright coordinates and mapped back to the stored pixels, so the image is
/// scaled once, straight from the stored crop, and only the small scaled result is rotated or mirrored.
enum VisionPipeline {
    /// An upright BGRA buffer of exactly `target`'s size.
    ///
    /// - Parameters:
    ///   - image: The photo, in any format and orientation.
    ///   - target: The image layer's size.
    ///   - mode: How the photo is fitted.
    ///   - filter: How it is resampled (see ``ImageScalingFilter``).
    static func prepare(
        _ image: PixelBuffer, target: ImageSize, mode: ImageResizeMode, filter: ImageScalingFilter = .box
    ) -> PixelBuffer {
        if image.format == .bgra, image.orientation == .up, image.width == target.width, image.height == target.height {
            return image  // already upright BGRA of the target's size
        }
        if filter == .bilinear {
            let (uprightWidth, uprightHeight) = image.uprightSize
            let fit = ImageFit(
                photo: ImageSize(width: uprightWidth, height: uprightHeight), target: target, mode: mode, filter: .bilinear
            )
            return sampleBilinear(image, target: target, fit: fit)
        }
        let source = image.converted(to: .bgra)
        let (uprightWidth, uprightHeight) = image.uprightSize
        let plan = fit(width: uprightWidth, height: uprightHeight, target: target, mode: mode)

        // The upright crop, as a rectangle of stored pixels.
        let corner1 = image.orientation.storedPosition(u: plan.crop.x, v: plan.crop.y, width: image.width, height: image.height)
        let corner2 = image.orientation.storedPosition(
            u: plan.crop.x + plan.crop.width - 1, v: plan.crop.y + plan.crop.height - 1, width: image.width, height: image.height
        )
        let storedX = min(corner1.x, corner2.x), storedY = min(corner1.y, corner2.y)
        let storedWidth = abs(corner1.x - corner2.x) + 1, storedHeight = abs(corner1.y - corner2.y) + 1

        // Scale the stored crop to the placed size, in stored orientation.
        let swaps = image.orientation.swapsDimensions
        let scaledWidth = swaps ? plan.placed.height : plan.placed.width
        let scaledHeight = swaps ? plan.placed.width : plan.placed.height
        let scaled = source.bytes.withUnsafeBufferPointer { input -> [UInt8] in
            guard let base = input.baseAddress else { return [] }
            let crop = base + storedY * source.bytesPerRow + storedX * 4
            if filter == .libyuvBilinear {
                return scaleARGB(crop, stride: source.bytesPerRow, width: storedWidth, height: storedHeight, toWidth: scaledWidth, height: scaledHeight)
            }
            return scale(crop, stride: source.bytesPerRow, width: storedWidth, height: storedHeight, toWidth: scaledWidth, height: scaledHeight)
        }
        let upright = orient(scaled, width: scaledWidth, height: scaledHeight, orientation: image.orientation)

        // Place it in the target (a copy only when padding).
        guard plan.placed.width != target.width || plan.placed.height != target.height else {
            return PixelBuffer(unchecked: target.width, height: target.height, format: .bgra, bytes: upright)
        }
        var padded = [UInt8](repeating: 0, count: target.width * target.height * 4)
        for row in 0..<plan.placed.height {
            let from = row * plan.placed.width * 4
            let to = ((plan.offset.y + row) * target.width + plan.offset.x) * 4
            padded.replaceSubrange(to..<(to + plan.placed.width * 4), with: upright[from..<(from + plan.placed.width * 4)])
        }
        return PixelBuffer(unchecked: target.width, height: target.height, format: .bgra, bytes: padded)
    }

    /// The smallest stored size a JPEG may be decoded at and still give full detail at `target`.
    static func minimumSourceSize(
        storedWidth: Int, storedHeight: Int, orientation: ImageOrientation, target: ImageSize, mode: ImageResizeMode
    ) -> ImageSize {
        let uprightWidth = orientation.swapsDimensions ? storedHeight : storedWidth
        let uprightHeight = orientation.swapsDimensions ? storedWidth : storedHeight
        let plan = fit(width: uprightWidth, height: uprightHeight, target: target, mode: mode)
        // The crop must keep at least as many pixels as it is scaled to.
        let factor = max(Double(plan.placed.width) / Double(plan.crop.width), Double(plan.placed.height) / Double(plan.crop.height))
        let width = Int((Double(uprightWidth) * factor).rounded(.up))
        let height = Int((Double(uprightHeight) * factor).rounded(.up))
        return orientation.swapsDimensions ? ImageSize(width: height, height: width) : ImageSize(width: width, height: height)
    }

    // MARK: - Steps

    struct Plan {
        /// The part of the upright image used.
        var crop: (x: Int, y: Int, width: Int, height: Int)
        /// The size it is scaled to.
        var placed: ImageSize
        /// Where that sits in the target.
        var offset: (x: Int, y: Int)
    }

    static func fit(width: Int, height: Int, target: ImageSize, mode: ImageResizeMode) -> Plan {
        switch mode {
        case .stretch:
            return Plan(crop: (0, 0, width, height), placed: target, offset: (0, 0))
        case .aspectFill:
            let scale = max(Double(target.width) / Double(width), Double(target.height) / Double(height))
            let cropWidth = min(width, max(1, Int((Double(target.width) / scale).rounded())))
            let cropHeight = min(height, max(1, Int((Double(target.height) / scale).rounded())))
            return Plan(
                crop: ((width - cropWidth) / 2, (height - cropHeight) / 2, cropWidth, cropHeight),
                placed: target, offset: (0, 0)
            )
        case .aspectFit:
            let scale = min(Double(target.width) / Double(width), Double(target.height) / Double(height))
            let placedWidth = min(target.width, max(1, Int((Double(width) * scale).rounded())))
            let placedHeight = min(target.height, max(1, Int((Double(height) * scale).rounded())))
            return Plan(
                crop: (0, 0, width, height), placed: ImageSize(width: placedWidth, height: placedHeight),
                offset: ((target.width - placedWidth) / 2, (target.height - placedHeight) / 2)
            )
        }
    }

    /// Scales BGRA pixels, colour plane by colour plane.
    ///
    /// libyuv's interleaved `ARGBScale` blends with weights summing to 127/128 (every filter), which darkens
    /// every resized image by about one level in 128; its single-plane `ScalePlane` is exact. So the
    /// channels are split, scaled one by one and merged back with an opaque alpha.
    static func scale(
        _ source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, toWidth outWidth: Int, height outHeight: Int
    ) -> [UInt8] {
        var output = [UInt8](repeating: 255, count: outWidth * outHeight * 4)
        if width == outWidth, height == outHeight {
            output.withUnsafeMutableBufferPointer { out in
                _ = ARGBCopy(source, Int32(stride), out.baseAddress, Int32(outWidth * 4), Int32(width), Int32(height))
            }
            return output
        }
        // Three planes side by side in one allocation.
        var (planeWidth, planeHeight) = (width, height)
        var planes = [UInt8](repeating: 0, count: width * height * 3)
        planes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let area = width * height
            SplitARGBPlane(source, Int32(stride), base, Int32(width), base + area, Int32(width),
                           base + 2 * area, Int32(width), nil, 0, Int32(width), Int32(height))
        }
        // libyuv's box filter (an area average) divides by multiplying with a truncated 16-bit reciprocal of
        // the box's area: exact for small boxes, up to 9% dark for a 100×75 box. So large reductions first
        // halve the planes (an exact 2×2 average) until each box is at most 8×8.
        while planeWidth > 8 * outWidth || planeHeight > 8 * outHeight {
            let nextWidth = planeWidth > 2 * outWidth ? (planeWidth + 1) / 2 : planeWidth
            let nextHeight = planeHeight > 2 * outHeight ? (planeHeight + 1) / 2 : planeHeight
            planes = scalePlanes(planes, width: planeWidth, height: planeHeight, toWidth: nextWidth, height: nextHeight, filter: kFilterBox)
            (planeWidth, planeHeight) = (nextWidth, nextHeight)
        }
        // The box filter averages every source pixel when reducing and interpolates when enlarging.
        let scaled = scalePlanes(planes, width: planeWidth, height: planeHeight, toWidth: outWidth, height: outHeight, filter: kFilterBox)
        scaled.withUnsafeBufferPointer { buffer in
            output.withUnsafeMutableBufferPointer { out in
                guard let base = buffer.baseAddress else { return }
                let area = outWidth * outHeight
                MergeARGBPlane(base, Int32(outWidth), base + area, Int32(outWidth), base + 2 * area, Int32(outWidth),
                               nil, 0, out.baseAddress, Int32(outWidth * 4), Int32(outWidth), Int32(outHeight))
            }
        }
        return output
    }

    /// Scales BGRA pixels with libyuv's interleaved `ARGBScale` and its bilinear filter, darkening and all:
    /// the TFLite Task Library's resize, reproduced for models whose reference it computed.
    static func scaleARGB(
        _ source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, toWidth outWidth: Int, height outHeight: Int
    ) -> [UInt8] {
        var output = [UInt8](repeating: 255, count: outWidth * outHeight * 4)
        output.withUnsafeMutableBufferPointer { out in
            _ = ARGBScale(source, Int32(stride), Int32(width), Int32(height), out.baseAddress, Int32(outWidth * 4),
                          Int32(outWidth), Int32(outHeight), kFilterBilinear)
        }
        return output
    }

    /// Scales three planes stored one after another.
    private static func scalePlanes(
        _ planes: [UInt8], width: Int, height: Int, toWidth outWidth: Int, height outHeight: Int, filter: FilterMode
    ) -> [UInt8] {
        guard width != outWidth || height != outHeight else { return planes }
        var scaled = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        planes.withUnsafeBufferPointer { input in
            scaled.withUnsafeMutableBufferPointer { output in
                guard let inBase = input.baseAddress, let outBase = output.baseAddress else { return }
                for plane in 0..<3 {
                    ScalePlane(inBase + plane * width * height, Int32(width), Int32(width), Int32(height),
                               outBase + plane * outWidth * outHeight, Int32(outWidth), Int32(outWidth), Int32(outHeight), filter)
                }
            }
        }
        return scaled
    }

    /// Samples the photo bilinearly at the points the tensor's pixels map to, as OpenCV's warp with
    /// `INTER_LINEAR` and a constant black border does: tensor pixel (i, j) takes the upright photo point
    /// (fit.x + i × fit.width / target.width, fit.y + j × …), in pixel-index coordinates (pixel k's centre
    /// at k), rounded to 1/32 of a pixel (half to even, as cvRound); the four pixels around it are weighted in 1/1024ths and the sum
    /// rounded, OpenCV's fixed-point arithmetic, so the bytes are OpenCV's. Pixels outside the photo are
    /// black. The orientation is folded into the mapping: the stored pixels are read where the upright
    /// point lies, and nothing is rotated.
    static func sampleBilinear(_ image: PixelBuffer, target: ImageSize, fit: ImageFit) -> PixelBuffer {
        let source = image.converted(to: .bgra)
        let width = source.width, height = source.height, stride = source.bytesPerRow
        // The stored point of upright point (u, v) is (p, q) = (a·u + b·v + c, d·u + e·v + f).
        let w1 = Double(width - 1), h1 = Double(height - 1)
        let (a, b, c, d, e, f): (Double, Double, Double, Double, Double, Double)
        switch image.orientation {
        case .up: (a, b, c, d, e, f) = (1, 0, 0, 0, 1, 0)
        case .upMirrored: (a, b, c, d, e, f) = (-1, 0, w1, 0, 1, 0)
        case .down: (a, b, c, d, e, f) = (-1, 0, w1, 0, -1, h1)
        case .downMirrored: (a, b, c, d, e, f) = (1, 0, 0, 0, -1, h1)
        case .leftMirrored: (a, b, c, d, e, f) = (0, 1, 0, 1, 0, 0)
        case .right: (a, b, c, d, e, f) = (0, 1, 0, -1, 0, h1)
        case .rightMirrored: (a, b, c, d, e, f) = (0, -1, w1, -1, 0, h1)
        case .left: (a, b, c, d, e, f) = (0, -1, w1, 1, 0, 0)
        }
        let stepU = fit.width / Double(target.width), stepV = fit.height / Double(target.height)
        // Points are clamped to a frame one pixel wider than the photo before they become integers:
        // beyond it every tap is black anyway, and the conversion cannot overflow.
        let lowX = -2.0, highX = Double(width) + 1, lowY = -2.0, highY = Double(height) + 1
        // Each orientation maps a stored coordinate to one upright coordinate (one of a, b is 0, and of d, e):
        // the fixed-point coordinates are computed once per tensor column and row, not per pixel.
        func fixed(_ value: Double, _ low: Double, _ high: Double) -> Int {
            Int((min(max(value, low), high) * 32).rounded(.toNearestOrEven))
        }
        let us = (0..<target.width).map { fit.x + Double($0) * stepU }
        let vs = (0..<target.height).map { fit.y + Double($0) * stepV }
        let xAlongColumns = b == 0, yAlongColumns = e == 0
        let xs = xAlongColumns ? us.map { fixed(a * $0 + c, lowX, highX) } : vs.map { fixed(b * $0 + c, lowX, highX) }
        let ys = yAlongColumns ? us.map { fixed(d * $0 + f, lowY, highY) } : vs.map { fixed(e * $0 + f, lowY, highY) }
        var output = [UInt8](repeating: 0, count: target.width * target.height * 4)
        source.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                @inline(__always) func tap(_ x: Int, _ y: Int, _ channel: Int) -> Int {
                    guard x >= 0, y >= 0, x < width, y < height else { return 0 }
                    return Int(input[y * stride + x * 4 + channel])
                }
                var index = 0
                for row in 0..<target.height {
                    for column in 0..<target.width {
                        let fixedX = xs[xAlongColumns ? column : row], fixedY = ys[yAlongColumns ? column : row]
                        let x0 = fixedX >> 5, y0 = fixedY >> 5  // arithmetic shifts: floor, also below 0
                        let fx = fixedX & 31, fy = fixedY & 31
                        let w00 = (32 - fx) * (32 - fy), w10 = fx * (32 - fy), w01 = (32 - fx) * fy, w11 = fx * fy
                        if x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height {
                            // All four pixels inside the photo: no border test per tap.
                            let top = y0 * stride + x0 * 4, bottom = top + stride
                            for channel in 0..<3 {
                                let sum = w00 * Int(input[top + channel]) + w10 * Int(input[top + 4 + channel])
                                    + w01 * Int(input[bottom + channel]) + w11 * Int(input[bottom + 4 + channel])
                                out[index + channel] = UInt8(truncatingIfNeeded: (sum + 512) >> 10)
                            }
                        } else {
                            for channel in 0..<3 {
                                let sum = w00 * tap(x0, y0, channel) + w10 * tap(x0 + 1, y0, channel)
                                    + w01 * tap(x0, y0 + 1, channel) + w11 * tap(x0 + 1, y0 + 1, channel)
                                out[index + channel] = UInt8(truncatingIfNeeded: (sum + 512) >> 10)
                            }
                        }
                        out[index + 3] = 255
                        index += 4
                    }
                }
            }
        }
        return PixelBuffer(unchecked: target.width, height: target.height, format: .bgra, bytes: output)
    }

    /// Applies an orientation to a BGRA image: rotations with libyuv, mirrors as a second step.
    static func orient(_ pixels: [UInt8], width: Int, height: Int, orientation: ImageOrientation) -> [UInt8] {
        let rotation: RotationMode, mirrors: Bool, flips: Bool
        switch orientation {
        case .up: return pixels
        case .upMirrored: (rotation, mirrors, flips) = (kRotate0, true, false)
        case .down: (rotation, mirrors, flips) = (kRotate180, false, false)
        case .downMirrored: (rotation, mirrors, flips) = (kRotate0, false, true)
        case .leftMirrored: (rotation, mirrors, flips) = (kRotate90, true, false)
        case .right: (rotation, mirrors, flips) = (kRotate90, false, false)
        case .rightMirrored: (rotation, mirrors, flips) = (kRotate270, true, false)
        case .left: (rotation, mirrors, flips) = (kRotate270, false, false)
        }
        let swaps = rotation == kRotate90 || rotation == kRotate270
        let outWidth = swaps ? height : width, outHeight = swaps ? width : height
        var rotated = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { input in
            rotated.withUnsafeMutableBufferPointer { out in
                // A negative height makes libyuv read the source bottom-up: a vertical flip for free.
                _ = ARGBRotate(input.baseAddress, Int32(width * 4), out.baseAddress, Int32(outWidth * 4),
                               Int32(width), flips ? -Int32(height) : Int32(height), rotation)
            }
        }
        guard mirrors else { return rotated }
        var mirrored = [UInt8](repeating: 0, count: pixels.count)
        rotated.withUnsafeBufferPointer { input in
            mirrored.withUnsafeMutableBufferPointer { out in
                _ = ARGBMirror(input.baseAddress, Int32(outWidth * 4), out.baseAddress, Int32(outWidth * 4),
                               Int32(outWidth), Int32(outHeight))
            }
        }
        return mirrored
    }
}
