import Foundation
import Testing
import TensorIO
@testable import TensorIOVision

/// `RegionOfInterest` (computed in MediaPipe's single precision) against MediaPipe's own formulas, which keep the rectangle normalized by the photo's
/// width and height (DetectionsToRectsCalculator, RectTransformationCalculator, LandmarkProjectionCalculator
/// in google-ai-edge/mediapipe `mediapipe/calculators/util/`), written out here in their normalized form.
@Suite("Regions of interest: MediaPipe's rectangle rules in pixels")
struct RegionOfInterestTests {
    /// MediaPipe's NormalizedRect.
    struct NormalizedRect {
        var xCenter, yCenter, width, height, rotation: Double
    }

    /// The three calculators in MediaPipe's normalized coordinates.
    static func mediaPipeRegion(
        box: Detection.Box, keypoints: [Detection.Point], rule: RegionRule, imageWidth: Double, imageHeight: Double
    ) -> NormalizedRect {
        let xmin = box.x / imageWidth, ymin = box.y / imageHeight
        let width = box.width / imageWidth, height = box.height / imageHeight
        var rect = NormalizedRect(xCenter: xmin + width / 2, yCenter: ymin + height / 2, width: width, height: height, rotation: 0)
        if let rotation = rule.rotation {
            let start = keypoints[rotation.startKeypoint], end = keypoints[rotation.endKeypoint]
            let x0 = start.x, y0 = start.y, x1 = end.x, y1 = end.y  // already pixels: normalized × size
            let angle = rotation.targetDegrees * .pi / 180 - atan2(-(y1 - y0), x1 - x0)
            rect.rotation = angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
        }
        var w = rect.width, h = rect.height
        let angle = rect.rotation
        if angle == 0 {
            rect.xCenter += w * rule.shiftX
            rect.yCenter += h * rule.shiftY
        } else {
            rect.xCenter += (imageWidth * w * rule.shiftX * cos(angle) - imageHeight * h * rule.shiftY * sin(angle)) / imageWidth
            rect.yCenter += (imageWidth * w * rule.shiftX * sin(angle) + imageHeight * h * rule.shiftY * cos(angle)) / imageHeight
        }
        switch rule.square {
        case .none: break
        case .long:
            let side = max(w * imageWidth, h * imageHeight)
            (w, h) = (side / imageWidth, side / imageHeight)
        case .short:
            let side = min(w * imageWidth, h * imageHeight)
            (w, h) = (side / imageWidth, side / imageHeight)
        }
        rect.width = w * rule.scaleX
        rect.height = h * rule.scaleY
        return rect
    }

    /// LandmarkProjectionCalculator: a point of the crop, normalized, onto the photo, normalized.
    static func mediaPipeProjection(x: Double, y: Double, rect: NormalizedRect) -> (x: Double, y: Double) {
        let dx = x - 0.5, dy = y - 0.5
        let newX = cos(rect.rotation) * dx - sin(rect.rotation) * dy
        let newY = sin(rect.rotation) * dx + cos(rect.rotation) * dy
        return (newX * rect.width + rect.xCenter, newY * rect.height + rect.yCenter)
    }

    /// The palm detector's rule in MediaPipe's hand graph.
    static let palmRule = RegionRule(
        rotation: .init(startKeypoint: 0, endKeypoint: 2, targetDegrees: 90), scaleX: 2.6, scaleY: 2.6, shiftY: -0.5,
        square: .long)

    @Test("the region of a palm at any angle, on a photo wider than tall, is MediaPipe's", arguments: Array(stride(from: -180.0, through: 180.0, by: 22.5)))
    func palmAtAnyAngle(degrees: Double) throws {
        let imageWidth = 640.0, imageHeight = 480.0
        let box = Detection.Box(x: 200, y: 150, width: 90, height: 70)
        let wrist = Detection.Point(x: 245, y: 185)
        let angle = degrees * .pi / 180
        let knuckle = Detection.Point(x: wrist.x + 40 * cos(angle), y: wrist.y - 40 * sin(angle))
        let keypoints = [wrist, Detection.Point(x: 250, y: 170), knuckle]
        let region = try #require(RegionOfInterest.region(around: box, keypoints: keypoints, rule: Self.palmRule, photo: ImageSize(width: 640, height: 480)))
        let expected = Self.mediaPipeRegion(
            box: box, keypoints: keypoints, rule: Self.palmRule, imageWidth: imageWidth, imageHeight: imageHeight)
        #expect(abs(region.centerX - expected.xCenter * imageWidth) < 1e-3)
        #expect(abs(region.centerY - expected.yCenter * imageHeight) < 1e-3)
        #expect(abs(region.width - expected.width * imageWidth) < 1e-3)
        #expect(abs(region.height - expected.height * imageHeight) < 1e-3)
        #expect(abs(region.rotation - expected.rotation) < 1e-6)
        // A knuckle pointing up is turned by nothing; pointing right, by a quarter turn.
        if degrees == 90 { #expect(abs(region.rotation) < 1e-6) }
        if degrees == 0 { #expect(abs(region.rotation - .pi / 2) < 1e-6) }
        // Every point of the (square) crop lands where MediaPipe projects it.
        for (x, y) in [(0.0, 0.0), (1, 0), (1, 1), (0, 1), (0.5, 0.5), (0.2, 0.7)] {
            let point = region.photoPoint(x: x, y: y)
            let reference = Self.mediaPipeProjection(x: x, y: y, rect: expected)
            #expect(abs(point.x - reference.x * imageWidth) < 1e-3)
            #expect(abs(point.y - reference.y * imageHeight) < 1e-3)
        }
    }

    @Test("an upright rule shifts along the photo's axes; square short and no square keep MediaPipe's sides")
    func uprightRules() throws {
        let box = Detection.Box(x: 10, y: 20, width: 100, height: 60)
        for square in RegionRule.Square.allCases {
            let rule = RegionRule(rotation: nil, scaleX: 1.5, scaleY: 1.25, shiftX: 0.1, shiftY: -0.2, square: square)
            let region = try #require(RegionOfInterest.region(around: box, keypoints: [], rule: rule, photo: ImageSize(width: 300, height: 200)))
            let expected = Self.mediaPipeRegion(box: box, keypoints: [], rule: rule, imageWidth: 300, imageHeight: 200)
            #expect(abs(region.centerX - expected.xCenter * 300) < 1e-3)
            #expect(abs(region.centerY - expected.yCenter * 200) < 1e-3)
            #expect(abs(region.width - expected.width * 300) < 1e-3)
            #expect(abs(region.height - expected.height * 200) < 1e-3)
            #expect(region.rotation == 0)
        }
    }

    @Test("an empty, infinite or NaN box, a missing or NaN rotation keypoint: no region")
    func hostileDetections() {
        let points = [Detection.Point(x: 1, y: 1), Detection.Point(x: 2, y: 2), Detection.Point(x: 3, y: 1)]
        let boxes = [
            Detection.Box(x: 0, y: 0, width: 0, height: 10), Detection.Box(x: 0, y: 0, width: 10, height: -1),
            Detection.Box(x: .nan, y: 0, width: 10, height: 10), Detection.Box(x: 0, y: 0, width: .infinity, height: 10),
        ]
        for box in boxes {
            #expect(RegionOfInterest.region(around: box, keypoints: points, rule: Self.palmRule, photo: ImageSize(width: 640, height: 480)) == nil)
        }
        let box = Detection.Box(x: 0, y: 0, width: 10, height: 10)
        #expect(RegionOfInterest.region(around: box, keypoints: Array(points.prefix(2)), rule: Self.palmRule, photo: ImageSize(width: 640, height: 480)) == nil)
        #expect(RegionOfInterest.region(around: box, keypoints: [points[0], points[1], Detection.Point(x: .nan, y: 0)], rule: Self.palmRule, photo: ImageSize(width: 640, height: 480)) == nil)
        #expect(RegionOfInterest.region(around: box, keypoints: points, rule: Self.palmRule, photo: ImageSize(width: 640, height: 480)) != nil)
    }

    @Test("angles are brought into [−π, π) as MediaPipe's NormalizeRadians does")
    func normalizedAngles() {
        for (angle, expected) in [(0.0, 0.0), (3 * Double.pi / 2, -Double.pi / 2), (-3 * Double.pi / 2, Double.pi / 2), (5 * Double.pi + 0.1, -Double.pi + 0.1)] {
            #expect(abs(Double(RegionOfInterest.normalized(Float(angle))) - expected) < 1e-5)
        }
    }
}
