import Foundation
import Testing
@testable import TensorIOVision

/// Landmark outputs into photo pixels, against MediaPipe's calculators' formulas (in their floats: positions
/// within a float step of the exact ones).
@Suite("Landmarks: decoding a landmark model's points")
struct LandmarkDecodingTests {
    @Test("an upright square region: the crop's pixels scale onto the region, z on x's scale")
    func upright() {
        let decoding = LandmarkDecoding(pointCount: 2, valuesPerPoint: 3, inputWidth: 224, inputHeight: 224, normalizeZ: 0.4)
        let region = RegionOfInterest(centerX: 300, centerY: 200, width: 100, height: 100, rotation: 0)
        let points = decoding.landmarks([0, 0, 0, 112, 224, 22.4], region: region, photo: (640, 480))
        #expect(abs(points[0].x - 250) < 1e-4 && abs(points[0].y - 150) < 1e-4 && points[0].z == 0)
        #expect(abs(points[1].x - 300) < 1e-4 && abs(points[1].y - 250) < 1e-4)
        // 22.4 / 224 / 0.4 = 0.25 of the crop's width, 100 px.
        #expect(abs(points[1].z - 25) < 1e-5)  // 22.4 is a Float
        #expect(points[0].visibility == nil && points[0].presence == nil)
    }

    @Test("a quarter turn: the crop's top edge lies along the photo's right side")
    func rotated() {
        let decoding = LandmarkDecoding(pointCount: 1, valuesPerPoint: 2, inputWidth: 100, inputHeight: 100)
        let region = RegionOfInterest(centerX: 50, centerY: 50, width: 40, height: 40, rotation: .pi / 2)
        // The crop's top-left corner (0, 0) lands at (70, 30): turned a quarter clockwise on screen.
        let point = decoding.landmarks([0, 0], region: region, photo: (100, 100))[0]
        #expect(abs(point.x - 70) < 1e-4 && abs(point.y - 30) < 1e-4)
    }

    @Test("letterbox padding is taken out before the projection")
    func letterbox() {
        let decoding = LandmarkDecoding(pointCount: 1, valuesPerPoint: 2, inputWidth: 100, inputHeight: 100)
        let region = RegionOfInterest(centerX: 100, centerY: 50, width: 200, height: 100, rotation: 0)
        // A 2:1 region fitted into a square input: a quarter of the input is padding above and below.
        let top = decoding.landmarks([0, 25], letterbox: (0, 0.25, 0, 0.25), region: region, photo: (200, 100))[0]
        #expect(abs(top.x - 0) < 1e-4 && abs(top.y - 0) < 1e-4)
        let bottom = decoding.landmarks([100, 75], letterbox: (0, 0.25, 0, 0.25), region: region, photo: (200, 100))[0]
        #expect(abs(bottom.x - 200) < 1e-4 && abs(bottom.y - 100) < 1e-4)
    }

    @Test("visibility and presence pass through their activation (the pose model's five values a point)")
    func scores() {
        let decoding = LandmarkDecoding(
            pointCount: 1, valuesPerPoint: 5, inputWidth: 256, inputHeight: 256, visibilityActivation: .sigmoid,
            presenceActivation: .sigmoid)
        let region = RegionOfInterest(centerX: 0, centerY: 0, width: 1, height: 1, rotation: 0)
        let point = decoding.landmarks([128, 128, 0, 0, 2], region: region, photo: (1, 1))[0]
        #expect(point.visibility == 0.5)
        #expect(abs((point.presence ?? 0) - 1 / (1 + exp(-2))) < 1e-12)
    }
}
