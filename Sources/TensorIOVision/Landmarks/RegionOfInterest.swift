import Foundation

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
    /// - Returns: The region, or `nil` when the box is empty or not finite, or a rotation keypoint is missing.
    public static func region(
        around box: Detection.Box, keypoints: [Detection.Point], rule: RegionRule
    ) -> RegionOfInterest? {
        let values = [box.x, box.y, box.width, box.height]
        guard values.allSatisfy(\.isFinite), box.width > 0, box.height > 0 else { return nil }
        var region = RegionOfInterest(
            centerX: box.x + box.width / 2, centerY: box.y + box.height / 2,
            width: box.width, height: box.height, rotation: 0)
        if let rotation = rule.rotation {
            guard keypoints.indices.contains(rotation.startKeypoint), keypoints.indices.contains(rotation.endKeypoint)
            else { return nil }
            let start = keypoints[rotation.startKeypoint], end = keypoints[rotation.endKeypoint]
            guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else { return nil }
            // DetectionsToRectsCalculator: the target angle less the line's angle (y up, hence the minus).
            region.rotation = normalized(rotation.targetDegrees * .pi / 180 - atan2(-(end.y - start.y), end.x - start.x))
            if rule.source == .keypoints {
                // AlignmentPointsRectsCalculator: centred on the first keypoint, twice the distance across.
                let side = 2 * ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
                guard side > 0, side.isFinite else { return nil }
                (region.centerX, region.centerY, region.width, region.height) = (start.x, start.y, side, side)
            }
        } else if rule.source == .keypoints {
            return nil
        }
        region.transform(by: rule)
        let numbers = [region.centerX, region.centerY, region.width, region.height, region.rotation]
        guard numbers.allSatisfy(\.isFinite), region.width > 0, region.height > 0 else { return nil }
        return region
    }

    /// Applies a rule's shift, square and scale (RectTransformationCalculator, in that order).
    mutating func transform(by rule: RegionRule) {
        // The shift runs along the region's own axes, turned by its rotation.
        let shiftX = width * rule.shiftX, shiftY = height * rule.shiftY
        centerX += shiftX * cos(rotation) - shiftY * sin(rotation)
        centerY += shiftX * sin(rotation) + shiftY * cos(rotation)
        switch rule.square {
        case .none: break
        case .long: (width, height) = (max(width, height), max(width, height))
        case .short: (width, height) = (min(width, height), min(width, height))
        }
        width *= rule.scaleX
        height *= rule.scaleY
    }

    /// Where a point of the region's crop lands on the photo (LandmarkProjectionCalculator).
    ///
    /// - Parameters:
    ///   - x: The horizontal position across the crop, 0 at its left edge and 1 at its right.
    ///   - y: The vertical position down the crop, 0 at its top and 1 at its bottom.
    /// - Returns: The point in pixels of the photo.
    public func photoPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = (x - 0.5) * width, dy = (y - 0.5) * height
        return (
            centerX + dx * cos(rotation) - dy * sin(rotation),
            centerY + dx * sin(rotation) + dy * cos(rotation)
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

    /// An angle in radians brought into (−π, π], as MediaPipe's `NormalizeRadians`.
    static func normalized(_ angle: Double) -> Double {
        angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
    }
}
