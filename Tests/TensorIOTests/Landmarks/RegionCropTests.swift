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
