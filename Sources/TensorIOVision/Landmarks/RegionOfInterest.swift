import Foundation
public import TensorIO

/// A rotated rectangle of a photo, in pixels of the photo as displayed: what a landmark model sees.
///
/// MediaPipe keeps the same rectangle normalized by the photo's width and height (`NormalizedRect`); in
/// pixels its formulas become plain rotations, which is what this type computes, so the two agree to
/// rounding.
public struct RegionOfInterest: Sendable, Hashable {
    /// The horizontal centre.
    public var centerX: Double
    /// The vertical centre.
    public var centerY: Double
    /// The width, along the region's own x axis.
    public var width: Double
    /// The height, along the region's own y axis.
    public var height: Double
    /// The rotation in radians, in (−π, π]: how far the region's x axis turns from the photo's, clockwise on
    /// screen (the y axis points down).
    public var rotation: Double

    /// The rectangle as MediaPipe held it when the region was made from one (normalized, in `Float`), and
    /// the photo size it was normalized by: MediaPipe's calculators after the crop (the landmarks' projection)
    /// read these numbers, which the pixels alone do not give back (a `Float` times the photo's width is the
    /// same `Float` for two neighbouring normalized values, one time in ten). Not part of the region's
    /// identity (`==`, `hash`), and only used while the pixels are still its products (``normalized(imageWidth:imageHeight:)``).
    var source: Normalized?

    /// A rectangle normalized by a photo's size, in `Float`, as MediaPipe's `NormalizedRect` holds it.
    struct Normalized: Sendable, Hashable {
        var x: Float
        var y: Float
        var width: Float
        var height: Float
        var rotation: Float
        var imageWidth: Int
        var imageHeight: Int
    }

    /// The normalized rectangle MediaPipe's calculators read for this region on a photo of the given size:
    /// the one it was made from while its pixels are still that one's (`GetRoi`'s `Float` products), else the
    /// pixels divided by the size.
    func normalized(imageWidth: Int, imageHeight: Int) -> Normalized {
        let width = Float(imageWidth), height = Float(imageHeight)
        if let source, source.imageWidth == imageWidth, source.imageHeight == imageHeight,
           Double(source.x * width) == centerX, Double(source.y * height) == centerY, Double(source.width * width) == self.width,
           Double(source.height * height) == self.height, Double(source.rotation) == rotation {
            return source
        }
        return Normalized(
            x: Float(centerX / Double(imageWidth)), y: Float(centerY / Double(imageHeight)), width: Float(self.width / Double(imageWidth)),
            height: Float(self.height / Double(imageHeight)), rotation: Float(rotation), imageWidth: imageWidth, imageHeight: imageHeight)
    }

    public static func == (a: RegionOfInterest, b: RegionOfInterest) -> Bool {
        a.centerX == b.centerX && a.centerY == b.centerY && a.width == b.width && a.height == b.height && a.rotation == b.rotation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(centerX)
        hasher.combine(centerY)
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(rotation)
    }

    /// Creates a region.
    ///
    /// - Parameters:
    ///   - centerX: The horizontal centre.
    ///   - centerY: The vertical centre.
    ///   - width: The width.
    ///   - height: The height.
    ///   - rotation: The rotation in radians.
    public init(centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The region a rule makes of a detection.
    ///
    /// - Parameters:
    ///   - box: The detection's box, in pixels.
    ///   - keypoints: The detection's keypoints, in pixels (the rule's rotation keypoints must be among them).
    ///   - rule: The rotation, shift, square and scale.
    ///   - photo: The photo's displayed size, by which MediaPipe normalizes the rectangle.
    /// - Returns: The region, or `nil` when the box is empty or not finite, or a rotation keypoint is missing.
    public static func region(
        around box: Detection.Box, keypoints: [Detection.Point], rule: RegionRule, photo: ImageSize
    ) -> RegionOfInterest? {
        let width = Double(max(1, photo.width)), height = Double(max(1, photo.height))
        return region(
            normalizedBox: (Float(box.x / width), Float(box.y / height), Float(box.width / width), Float(box.height / height)),
            keypoints: keypoints.map { (Float($0.x / width), Float($0.y / height)) },
            imageWidth: max(1, photo.width), imageHeight: max(1, photo.height), rule: rule)
    }

    /// The region a rule makes of a detection given as MediaPipe holds it — normalized by the photo's size,
    /// in `Float` — computed with MediaPipe's own single-precision arithmetic, step for step
    /// (`DetectionsToRectsCalculator` or `AlignmentPointsRectsCalculator`, `RectTransformationCalculator`,
    /// then `ImageToTensorCalculator`'s `GetRoi`): the landmark models turn a region a thousandth of a pixel
    /// off into a different crop, and a body's crop one level off into points pixels apart.
    static func region(
        normalizedBox box: (xMin: Float, yMin: Float, width: Float, height: Float),
        keypoints: [(x: Float, y: Float)], imageWidth: Int, imageHeight: Int, rule: RegionRule
    ) -> RegionOfInterest? {
        let imageWidth = Float(imageWidth), imageHeight = Float(imageHeight)
        var xCenter = box.xMin + box.width / 2, yCenter = box.yMin + box.height / 2
        var width = box.width, height = box.height
        var rotation: Float = 0
        if let turn = rule.rotation {
            guard turn.keypoints.allSatisfy(keypoints.indices.contains) else { return nil }
            let start = keypoints[turn.startKeypoint]
            var end = keypoints[turn.endKeypoint]
            if turn.endMidpointOf.count == 2 {
                // HandLandmarksToRectCalculator: the end is ((a + c) / 2 + b) / 2, normalized, in floats.
                let a = keypoints[turn.endMidpointOf[0]], c = keypoints[turn.endMidpointOf[1]]
                end = (((a.x + c.x) / 2 + end.x) / 2, ((a.y + c.y) / 2 + end.y) / 2)
            }
            let x0 = start.x * imageWidth, y0 = start.y * imageHeight, x1 = end.x * imageWidth, y1 = end.y * imageHeight
            guard [x0, y0, x1, y1].allSatisfy(\.isFinite) else { return nil }
            // target_angle_ = M_PI * degrees / 180.f, kept in a float.
            let target = Float(Double.pi * Double(Float(turn.targetDegrees)) / 180)
            rotation = normalized(target - atan2(-(y1 - y0), x1 - x0))
            switch rule.source {
            case .box:
                break
            case .keypoints:
                // AlignmentPointsRectsCalculator: centred on the first keypoint, twice the distance across.
                let side = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot() * 2
                (xCenter, yCenter, width, height) = (x0 / imageWidth, y0 / imageHeight, side / imageWidth, side / imageHeight)
            case .rotatedBox:
                guard let turned = rotatedBox(keypoints, rotation: rotation, imageWidth: imageWidth, imageHeight: imageHeight)
                else { return nil }
                (xCenter, yCenter, width, height) = turned
            }
        } else if rule.source != .box {
            return nil
        }
        guard [xCenter, yCenter, width, height].allSatisfy(\.isFinite), width > 0, height > 0 else { return nil }
        // RectTransformationCalculator on a normalized rectangle: shift along the region's own axes, then
        // square, then scale.
        let shiftX = Float(rule.shiftX), shiftY = Float(rule.shiftY)
        if rotation == 0 {
            xCenter += width * shiftX
            yCenter += height * shiftY
        } else {
            xCenter += (imageWidth * width * shiftX * cos(rotation) - imageHeight * height * shiftY * sin(rotation)) / imageWidth
            yCenter += (imageWidth * width * shiftX * sin(rotation) + imageHeight * height * shiftY * cos(rotation)) / imageHeight
        }
        switch rule.square {
        case .none: break
        case .long:
            let side = max(width * imageWidth, height * imageHeight)
            (width, height) = (side / imageWidth, side / imageHeight)
        case .short:
            let side = min(width * imageWidth, height * imageHeight)
            (width, height) = (side / imageWidth, side / imageHeight)
        }
        width *= Float(rule.scaleX)
        height *= Float(rule.scaleY)
        // GetRoi: into the photo's pixels, still in single precision.
        var region = RegionOfInterest(
            centerX: Double(xCenter * imageWidth), centerY: Double(yCenter * imageHeight),
            width: Double(width * imageWidth), height: Double(height * imageHeight), rotation: Double(rotation))
        region.source = Normalized(
            x: xCenter, y: yCenter, width: width, height: height, rotation: rotation, imageWidth: Int(imageWidth), imageHeight: Int(imageHeight))
        let numbers = [region.centerX, region.centerY, region.width, region.height]
        guard numbers.allSatisfy(\.isFinite), region.width > 0, region.height > 0 else { return nil }
        return region
    }

    /// The smallest box holding every point in the frame turned by `rotation`, as MediaPipe's
    /// `HandLandmarksToRectCalculator` finds it in single precision (its bounds start from `FLT_MIN`, the
    /// smallest positive float, not from minus infinity: kept, so that points all left of or above the
    /// photo give MediaPipe's answer). Normalized centre and size, or `nil` without a finite point.
    static func rotatedBox(
        _ points: [(x: Float, y: Float)], rotation: Float, imageWidth: Float, imageHeight: Float
    ) -> (x: Float, y: Float, width: Float, height: Float)? {
        guard !points.isEmpty, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        var (maxX, maxY) = (Float.leastNormalMagnitude, Float.leastNormalMagnitude)
        var (minX, minY) = (Float.greatestFiniteMagnitude, Float.greatestFiniteMagnitude)
        for point in points {
            (maxX, maxY, minX, minY) = (max(maxX, point.x), max(maxY, point.y), min(minX, point.x), min(minY, point.y))
        }
        let alignedX = (maxX + minX) / 2, alignedY = (maxY + minY) / 2
        let reverse = normalized(-rotation)
        let reverseCosine = cos(reverse), reverseSine = sin(reverse)
        (maxX, maxY) = (Float.leastNormalMagnitude, Float.leastNormalMagnitude)
        (minX, minY) = (Float.greatestFiniteMagnitude, Float.greatestFiniteMagnitude)
        for point in points {
            let x = (point.x - alignedX) * imageWidth, y = (point.y - alignedY) * imageHeight
            let turnedX = x * reverseCosine - y * reverseSine, turnedY = x * reverseSine + y * reverseCosine
            (maxX, maxY, minX, minY) = (max(maxX, turnedX), max(maxY, turnedY), min(minX, turnedX), min(minY, turnedY))
        }
        let turnedCenterX = (maxX + minX) / 2, turnedCenterY = (maxY + minY) / 2
        let cosine = cos(rotation), sine = sin(rotation)
        let centerX = turnedCenterX * cosine - turnedCenterY * sine + imageWidth * alignedX
        let centerY = turnedCenterX * sine + turnedCenterY * cosine + imageHeight * alignedY
        return (centerX / imageWidth, centerY / imageHeight, (maxX - minX) / imageWidth, (maxY - minY) / imageHeight)
    }

    /// Where a point of the region's crop lands on the photo (LandmarkProjectionCalculator).
    ///
    /// - Parameters:
    ///   - x: The horizontal position across the crop, 0 at its left edge and 1 at its right.
    ///   - y: The vertical position down the crop, 0 at its top and 1 at its bottom.
    /// - Returns: The point in pixels of the photo.
    public func photoPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        let cosine = cos(rotation), sine = sin(rotation)
        let dx = (x - 0.5) * width, dy = (y - 0.5) * height
        return (
            centerX + dx * cosine - dy * sine,
            centerY + dx * sine + dy * cosine
        )
    }

    /// The four corners, clockwise on screen from the crop's top-left: where the crop's corners are on the photo.
    public var corners: [(x: Double, y: Double)] {
        [photoPoint(x: 0, y: 0), photoPoint(x: 1, y: 0), photoPoint(x: 1, y: 1), photoPoint(x: 0, y: 1)]
    }

    /// The intersection over union of two regions' upright boxes (their rotation ignored), as MediaPipe's
    /// `AssociationNormRectCalculator` compares them.
    func overlap(with other: RegionOfInterest) -> Double {
        let left = max(centerX - width / 2, other.centerX - other.width / 2)
        let right = min(centerX + width / 2, other.centerX + other.width / 2)
        let top = max(centerY - height / 2, other.centerY - other.height / 2)
        let bottom = min(centerY + height / 2, other.centerY + other.height / 2)
        guard right > left, bottom > top else { return 0 }
        let intersection = (right - left) * (bottom - top)
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }

    /// The regions of `regions` that MediaPipe's `AssociationNormRectCalculator` keeps from one list: each
    /// in turn removes the earlier ones it overlaps by more than `threshold`, and goes to the end.
    ///
    /// - Parameters:
    ///   - regions: The regions with what they came from, in the detector's order.
    ///   - threshold: The overlap above which the later region wins.
    /// - Returns: The kept regions, in MediaPipe's order.
    static func associated<Item>(_ regions: [(RegionOfInterest, Item)], threshold: Double) -> [(RegionOfInterest, Item)] {
        var kept: [(RegionOfInterest, Item)] = []
        for candidate in regions {
            kept.removeAll { $0.0.overlap(with: candidate.0) > threshold }
            kept.append(candidate)
        }
        return kept
    }

    /// An angle in radians brought into [−π, π) as MediaPipe's `NormalizeRadians` does (in double
    /// precision, kept in a float).
    static func normalized(_ angle: Float) -> Float {
        Float(Double(angle) - 2 * Double.pi * ((Double(angle) + Double.pi) / (2 * Double.pi)).rounded(.down))
    }
}
