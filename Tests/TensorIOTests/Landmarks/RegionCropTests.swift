import Foundation
import Testing
import TensorIOTestSupport
@testable import TensorIOVision

/// The crop against OpenCV's own (Tests/Fixtures/Landmarks/README.md).
@Suite("Landmarks: the region's crop, as OpenCV makes it")
struct RegionCropTests {
    struct Fixture: Decodable {
        struct Image: Decodable { var width: Int; var height: Int; var pixels: [UInt8] }
        struct Case: Decodable { var region: [Double]; var output: [Int]; var pixels: [UInt8] }
        var image: Image
        var cases: [Case]
    }

    @Test("every byte of four rotated crops, some over the border, equals OpenCV's")
    func sameAsOpenCV() throws {
        let data = try Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Landmarks/opencv-crop.json"))
        let fixture = try JSONDecoder().decode(Fixture.self, from: data)
        for item in fixture.cases {
            let region = RegionOfInterest(
                centerX: item.region[0], centerY: item.region[1], width: item.region[2], height: item.region[3],
                rotation: item.region[4])
            let crop = RegionCrop.crop(
                fixture.image.pixels, width: fixture.image.width, height: fixture.image.height, channels: 3,
                region: region, outputWidth: item.output[0], outputHeight: item.output[1])
            let differing = zip(crop, item.pixels).filter { $0 != $1 }.count
            let largest = zip(crop, item.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(differing == 0, "region \(item.region): \(differing) bytes differ, by at most \(largest)")
        }
    }
}

@Suite("Landmarks: a region fitted to the model's proportions")
struct RegionPaddingTests {
    @Test("a wide region on a square input gets padding above and below; a square one none")
    func padding() {
        let wide = RegionOfInterest(centerX: 10, centerY: 10, width: 200, height: 100, rotation: 0.3)
        let (padded, letterbox) = RegionCrop.padded(wide, toWidth: 224, height: 224)
        #expect(padded.width == 200 && padded.height == 200 && padded.rotation == 0.3)
        #expect(letterbox.top == 0.25 && letterbox.bottom == 0.25 && letterbox.left == 0 && letterbox.right == 0)
        let tall = RegionOfInterest(centerX: 10, centerY: 10, width: 50, height: 100, rotation: 0)
        let (paddedTall, sides) = RegionCrop.padded(tall, toWidth: 256, height: 256)
        #expect(paddedTall.width == 100 && sides.left == 0.25 && sides.right == 0.25 && sides.top == 0)
        let square = RegionOfInterest(centerX: 10, centerY: 10, width: 80, height: 80, rotation: 0)
        let (same, none) = RegionCrop.padded(square, toWidth: 192, height: 192)
        #expect(same == square && none.left == 0 && none.top == 0)
    }
}
