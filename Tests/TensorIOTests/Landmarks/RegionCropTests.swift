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

    @Test("every byte of eleven rotated crops, some over the border, equals OpenCV's")
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
/// fast crop is checked against. OpenCV's steps: `getPerspectiveTransform` (its 8 × 8 system, solved by
/// `hal::LU64f`), `invert` (the closed form for 3 × 3), `WarpPerspectiveInvoker`'s positions (blocks of columns,
/// the projective division), the 1/32 rounding and the fixed-point blend with the border replicated.
enum PlainCrop {
    /// cv::getPerspectiveTransform of the corners (boxPoints order) onto (0, h), (0, 0), (w, 0), (w, h).
    static func perspective(_ corners: [(x: Float, y: Float)], width: Int, height: Int) -> [Double]? {
        let targets: [(x: Float, y: Float)] = [(0, Float(height)), (0, 0), (Float(width), 0), (Float(width), Float(height))]
        var a = [[Double]](repeating: [Double](repeating: 0, count: 8), count: 8), b = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (corners[i].x, corners[i].y, targets[i].x, targets[i].y)
            (a[i][0], a[i][1], a[i][2]) = (Double(x), Double(y), 1)
            (a[i + 4][3], a[i + 4][4], a[i + 4][5]) = (Double(x), Double(y), 1)
            // Point2f's members multiply as Floats.
            (a[i][6], a[i][7], a[i + 4][6], a[i + 4][7]) = (Double(-(x * u)), Double(-(y * u)), Double(-(x * v)), Double(-(y * v)))
            (b[i], b[i + 4]) = (Double(u), Double(v))
        }
        for i in 0..<8 {
            var pivot = i
            for j in (i + 1)..<8 where abs(a[j][i]) > abs(a[pivot][i]) { pivot = j }
            if abs(a[pivot][i]) < Double.ulpOfOne * 100 { return nil }
            if pivot != i {
                a.swapAt(i, pivot)
                b.swapAt(i, pivot)
            }
            let d = -1 / a[i][i]
            for j in (i + 1)..<8 {
                let alpha = a[j][i] * d
                for k in (i + 1)..<8 { a[j][k] += alpha * a[i][k] }
                b[j] += alpha * b[i]
            }
        }
        for i in stride(from: 7, through: 0, by: -1) {
            var sum = b[i]
            for k in (i + 1)..<8 { sum -= a[i][k] * b[k] }
            b[i] = sum / a[i][i]
        }
        return b + [1]
    }

    /// cv::invert of a 3 × 3 matrix (DECOMP_LU: the closed form).
    static func inverse(_ m: [Double]) -> [Double]? {
        func s(_ r: Int, _ c: Int) -> Double { m[r * 3 + c] }
        var d = s(0, 0) * (s(1, 1) * s(2, 2) - s(1, 2) * s(2, 1)) - s(0, 1) * (s(1, 0) * s(2, 2) - s(1, 2) * s(2, 0))
        d += s(0, 2) * (s(1, 0) * s(2, 1) - s(1, 1) * s(2, 0))
        guard d != 0 else { return nil }
        d = 1 / d
        return [(s(1, 1) * s(2, 2) - s(1, 2) * s(2, 1)) * d, (s(0, 2) * s(2, 1) - s(0, 1) * s(2, 2)) * d, (s(0, 1) * s(1, 2) - s(0, 2) * s(1, 1)) * d,
                (s(1, 2) * s(2, 0) - s(1, 0) * s(2, 2)) * d, (s(0, 0) * s(2, 2) - s(0, 2) * s(2, 0)) * d, (s(0, 2) * s(1, 0) - s(0, 0) * s(1, 2)) * d,
                (s(1, 0) * s(2, 1) - s(1, 1) * s(2, 0)) * d, (s(0, 1) * s(2, 0) - s(0, 0) * s(2, 1)) * d, (s(0, 0) * s(1, 1) - s(0, 1) * s(1, 0)) * d]
    }

    static func crop(_ pixels: [UInt8], width: Int, height: Int, region: RegionOfInterest, outputWidth: Int, outputHeight: Int) -> [UInt8] {
        let corners = RegionCrop.corners(of: region)
        // OpenCV's failed solve or inverse leaves the zero matrix.
        let m = perspective(corners, width: outputWidth, height: outputHeight).flatMap(inverse) ?? [Double](repeating: 0, count: 9)
        // WarpPerspectiveInvoker's blocks: BLOCK_SZ 32, bh0 = min(16, h), bw0 = min(1024 / bh0, w).
        let blockWidth = min(1024 / min(16, outputHeight), outputWidth)
        var output: [UInt8] = []
        let limit = Double(Int32.max)
        // NaN goes to the low end (the kernel's choice; OpenCV's SSE4.1 line gives INT_MIN too).
        func clamped(_ value: Double) -> Double { value >= -limit ? min(limit, value) : -limit }
        for y in 0..<outputHeight {
            for x in 0..<outputWidth {
                let (start, x1) = (x - x % blockWidth, Double(x % blockWidth))
                let x0 = m[0] * Double(start) + m[1] * Double(y) + m[2]
                let y0 = m[3] * Double(start) + m[4] * Double(y) + m[5]
                let w0 = m[6] * Double(start) + m[7] * Double(y) + m[8]
                var w = w0 + m[6] * x1
                w = w != 0 ? 32 / w : 0
                let fixedX = Int(clamped((x0 + m[0] * x1) * w).rounded(.toNearestOrEven))
                let fixedY = Int(clamped((y0 + m[3] * x1) * w).rounded(.toNearestOrEven))
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
