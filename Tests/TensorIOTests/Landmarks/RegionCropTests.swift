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
            // OpenCV's crop is of RGB pixels; the crop takes four bytes a pixel: an opaque alpha is added, and dropped.
            let rgba = stride(from: 0, to: fixture.image.pixels.count, by: 3).flatMap { fixture.image.pixels[$0..<($0 + 3)] + [255] }
            let crop = RegionCrop.crop(
                rgba, width: fixture.image.width, height: fixture.image.height,
                region: region, outputWidth: item.output[0], outputHeight: item.output[1]
            ).enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            let differing = zip(crop, item.pixels).filter { $0 != $1 }.count
            let largest = zip(crop, item.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(differing == 0, "region \(item.region): \(differing) bytes differ, by at most \(largest)")
        }
    }
}

/// The crop's steps written plainly, one pixel and one byte at a time (see ``RegionCrop``): the oracle the
/// fast crop is checked against.
enum PlainCrop {
    static func crop(_ pixels: [UInt8], width: Int, height: Int, region: RegionOfInterest, outputWidth: Int, outputHeight: Int) -> [UInt8] {
        let corners = RegionCrop.corners(of: region)
        let origin = (x: Double(corners[1].x), y: Double(corners[1].y))
        let across = (x: (Double(corners[2].x) - origin.x) / Double(outputWidth), y: (Double(corners[2].y) - origin.y) / Double(outputWidth))
        let down = (x: (Double(corners[0].x) - origin.x) / Double(outputHeight), y: (Double(corners[0].y) - origin.y) / Double(outputHeight))
        var output: [UInt8] = []
        let limit = Double(Int32.max)
        for y in 0..<outputHeight {
            for x in 0..<outputWidth {
                let sourceX = origin.x + Double(x) * across.x + Double(y) * down.x
                let sourceY = origin.y + Double(x) * across.y + Double(y) * down.y
                let fixedX = Int(max(-limit, min(limit, (sourceX * 32).rounded(.toNearestOrEven))))
                let fixedY = Int(max(-limit, min(limit, (sourceY * 32).rounded(.toNearestOrEven))))
                let (left, top, fractionX, fractionY) = (fixedX >> 5, fixedY >> 5, fixedX & 31, fixedY & 31)
                let taps = [(top, left, (32 - fractionY) * (32 - fractionX)), (top, left + 1, (32 - fractionY) * fractionX),
                            (top + 1, left, fractionY * (32 - fractionX)), (top + 1, left + 1, fractionY * fractionX)]
                for channel in 0..<4 {
                    let sum = taps.map { row, column, weight in
                        Int(pixels[(min(max(row, 0), height - 1) * width + min(max(column, 0), width - 1)) * 4 + channel]) * weight * 32
                    }.reduce(0, +)
                    output.append(UInt8((sum + (1 << 14)) >> 15))
                }
            }
        }
        return output
    }
}

@Suite("Landmarks: the C kernel's crop is the plain one, on both its paths")
struct FastCropTests {
    @Test("a photo one pixel wide or high: the portable path, the same bytes")
    func thinPhotos() {
        var generator = SeededGenerator(seed: 7)
        for (width, height) in [(1, 9), (9, 1), (1, 1), (2, 2)] {
            let photo = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let region = RegionOfInterest(centerX: 1.3, centerY: 0.7, width: 6, height: 4, rotation: 0.4)
            #expect(RegionCrop.crop(photo, width: width, height: height, region: region, outputWidth: 13, outputHeight: 5)
                == PlainCrop.crop(photo, width: width, height: height, region: region, outputWidth: 13, outputHeight: 5))
        }
    }

    @Test("300 random regions, turned any way, inside the photo, over its edges and far outside: the same bytes")
    func randomRegions() {
        var generator = SeededGenerator(seed: 39)
        let (width, height) = (57, 43)
        let photo = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for _ in 0..<300 {
            let region = RegionOfInterest(
                centerX: Double.random(in: -40...100, using: &generator), centerY: Double.random(in: -40...80, using: &generator),
                width: Double.random(in: 0.5...150, using: &generator), height: Double.random(in: 0.5...150, using: &generator),
                rotation: Double.random(in: -4...4, using: &generator))
            let size = (Int.random(in: 1...24, using: &generator), Int.random(in: 1...24, using: &generator))
            let plain = PlainCrop.crop(photo, width: width, height: height, region: region, outputWidth: size.0, outputHeight: size.1)
            for path in RegionCrop.Path.allCases {
                let fast = RegionCrop.crop(photo, width: width, height: height, region: region, outputWidth: size.0, outputHeight: size.1, widest: path)
                #expect(fast == plain, "region \(region) into \(size), path: \(path)")
            }
        }
    }

    @Test("200 regions inside the photo (rows of eight or sixteen pixels at a time, any remainder) and at its edges: the same bytes")
    func insideRegions() {
        var generator = SeededGenerator(seed: 41)
        let (width, height) = (97, 71)
        let photo = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for index in 0..<200 {
            // Half wholly inside; half reaching an edge, so that some rows are inside and others not.
            let reach = index.isMultiple(of: 2) ? 30.0 : 70.0
            let region = RegionOfInterest(
                centerX: Double.random(in: 35...62, using: &generator), centerY: Double.random(in: 25...46, using: &generator),
                width: Double.random(in: 1...reach, using: &generator), height: Double.random(in: 1...reach, using: &generator),
                rotation: Double.random(in: -4...4, using: &generator))
            let size = (Int.random(in: 1...57, using: &generator), Int.random(in: 1...20, using: &generator))
            let plain = PlainCrop.crop(photo, width: width, height: height, region: region, outputWidth: size.0, outputHeight: size.1)
            for path in [RegionCrop.Path.avx2, .avx512] {
                let fast = RegionCrop.crop(photo, width: width, height: height, region: region, outputWidth: size.0, outputHeight: size.1, widest: path)
                #expect(fast == plain, "region \(region) into \(size), path: \(path)")
            }
        }
    }

    @Test("a region with a NaN centre (a crafted detection): every pixel is the photo's first, on both paths")
    func notANumber() {
        let photo = (0..<(16 * 12 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let region = RegionOfInterest(centerX: .nan, centerY: .nan, width: 8, height: 8, rotation: 0.3)
        for path in RegionCrop.Path.allCases {
            let crop = RegionCrop.crop(photo, width: 16, height: 12, region: region, outputWidth: 16, outputHeight: 4, widest: path)
            #expect(crop.count == 16 * 4 * 4)
            #expect(stride(from: 0, to: crop.count, by: 4).allSatisfy { Array(crop[$0..<($0 + 4)]) == Array(photo[0..<4]) }, "path: \(path)")
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
