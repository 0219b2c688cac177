import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// The `bilinear` scaling filter: OpenCV's bilinear warp, byte for byte (the pixels MediaPipe's models
/// are measured on), for every resize mode and EXIF orientation; and where the tensor lies on the photo.
@Suite("Images: bilinear scaling")
struct BilinearScalingTests {
    struct Case: Decodable, CustomStringConvertible {
        var name: String
        var width: Int
        var height: Int
        var resize: String
        var description: String { name }
    }

    struct Cases: Decodable {
        var photo: String
        var cases: [Case]
    }

    static let folder = Fixtures.repositoryURL("Tests/Fixtures/Bilinear")

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
              let document = try? JSONDecoder().decode(Cases.self, from: data)
        else { return [] }
        return document.cases
    }()

    static func photo() throws -> PixelBuffer {
        try PixelBuffer(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Bilinear/photo.png"))
    }

    static func mode(_ name: String) throws -> ImageResizeMode {
        try #require(ImageResizeMode(rawValue: name))
    }

    @Test("the fixture lists its cases")
    func fixtureListed() {
        #expect(Self.cases.count == 6)
    }

    @Test("OpenCV's bytes: warpPerspective with INTER_LINEAR (scripts/fixtures/make_bilinear_references.py)", arguments: cases)
    func opencvParity(_ reference: Case) throws {
        let target = ImageSize(width: reference.width, height: reference.height)
        let prepared = VisionPipeline.prepare(try Self.photo(), target: target, mode: try Self.mode(reference.resize), filter: .bilinear)
        let ours = prepared.converted(to: .rgb).bytes
        let theirs = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(reference.name).rgb")))
        try #require(ours.count == theirs.count)
        let differences = zip(ours, theirs).map { abs(Int($0) - Int($1)) }
        // Identical, except where a point falls exactly halfway between two of OpenCV's 1/32-pixel steps:
        // there the last bit of a double decides, and OpenCV sums its coordinates in blocks of the output
        // (start of block + offset), so its last bit may differ from ours. Such ties only happen when the
        // scale is a short binary fraction (fit-128x128's 210/128), and move a byte by a few levels.
        let differing = differences.filter { $0 > 0 }.count
        #expect(differing * 100 <= ours.count, "\(differing) of \(ours.count) bytes differ")
        #expect(differences.max() ?? 0 <= 8, "bytes differ by up to \(differences.max() ?? 0)")
    }

    @Test("a photo stored turned or mirrored, with its EXIF orientation, gives the same bytes as the upright photo", arguments: ImageOrientation.allCases)
    func orientation(_ orientation: ImageOrientation) throws {
        let upright = try Self.photo().converted(to: .rgba)
        let stored = Self.storing(upright, as: orientation)
        for (size, mode) in [(ImageSize(width: 64, height: 48), ImageResizeMode.aspectFill), (ImageSize(width: 50, height: 50), .aspectFit), (ImageSize(width: 33, height: 71), .stretch)] {
            let expected = VisionPipeline.prepare(upright, target: size, mode: mode, filter: .bilinear)
            let actual = VisionPipeline.prepare(stored, target: size, mode: mode, filter: .bilinear)
            #expect(actual.bytes == expected.bytes, "\(mode) \(size.width)×\(size.height)")
        }
    }

    @Test("letterboxing leaves black bars where the tensor lies beyond the photo")
    func letterbox() throws {
        let white = try solidImage(.white, width: 40, height: 20)
        let prepared = VisionPipeline.prepare(white, target: ImageSize(width: 20, height: 20), mode: .aspectFit, filter: .bilinear)
        let grid = pixelGrid(prepared)
        #expect(grid[0][10] == .black && grid[19][10] == .black)
        #expect(grid[10][10] == .white)
    }

    @Test("where the tensor lies on the photo, for each filter and resize mode")
    func imageFit() {
        let photo = ImageSize(width: 400, height: 300), square = ImageSize(width: 100, height: 100)
        // Bilinear: the exact rectangle. Fit: scale 0.25, the tensor covers 400 × 400, centred.
        #expect(ImageFit(photo: photo, target: square, mode: .aspectFit, filter: .bilinear) == ImageFit(x: 0, y: -50, width: 400, height: 400))
        #expect(ImageFit(photo: photo, target: square, mode: .aspectFill, filter: .bilinear) == ImageFit(x: 50, y: 0, width: 300, height: 300))
        #expect(ImageFit(photo: photo, target: square, mode: .stretch, filter: .bilinear) == ImageFit(x: 0, y: 0, width: 400, height: 300))
        // Box: whole pixels. Fit places 100 × 75 at y 12 (rounded down), so the tensor starts 48 photo pixels up.
        #expect(ImageFit(photo: photo, target: square, mode: .aspectFit, filter: .box) == ImageFit(x: 0, y: -48, width: 400, height: 400))
        #expect(ImageFit(photo: photo, target: square, mode: .aspectFill, filter: .box) == ImageFit(x: 50, y: 0, width: 300, height: 300))
        let point = ImageFit(photo: photo, target: square, mode: .aspectFit, filter: .bilinear).photoPoint(normalizedX: 0.5, normalizedY: 0.25)
        #expect(point.x == 200 && point.y == 50)
    }

    @Test("a run resamples as the layer's model.json says, and as the configuration says when it overrides it")
    func runsHonourTheLayer() throws {
        // image_uint8_test returns its 4 × 6 RGB input unchanged: its output is the prepared photo.
        let photo = try Self.photo()
        let size = ImageSize(width: 4, height: 6)
        let bilinear = VisionPipeline.prepare(photo, target: size, mode: .aspectFit, filter: .bilinear).converted(to: .rgb).bytes
        let box = VisionPipeline.prepare(photo, target: size, mode: .aspectFit, filter: .box).converted(to: .rgb).bytes
        try #require(bilinear != box)
        func output(_ model: any Model) throws -> [UInt8] {
            try model.run(photo)["output"].image.converted(to: .rgb).bytes
        }
        try withFixtureCopy("image_uint8_test.tiobundle", edit: { json in
            var inputs = try #require(json["inputs"] as? [JSONObject])
            inputs[0]["resize"] = "fit"
            inputs[0]["scaling"] = "bilinear"
            json["inputs"] = inputs
        }) { url in
            let bundle = try ModelBundle(at: url)
            #expect(try output(bundle.makeModel()) == bilinear)
            #expect(try output(bundle.makeModel(configuration: ModelConfiguration(imageScalingFilter: .box))) == box)
        }
    }

    /// The stored pixels that `orientation` displays as `upright` (the inverse of the EXIF mapping).
    static func storing(_ upright: PixelBuffer, as orientation: ImageOrientation) -> PixelBuffer {
        let (width, height) = orientation.swapsDimensions ? (upright.height, upright.width) : (upright.width, upright.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for v in 0..<upright.height {
            for u in 0..<upright.width {
                let stored = orientation.storedPosition(u: u, v: v, width: width, height: height)
                let from = (v * upright.width + u) * 4, to = (stored.y * width + stored.x) * 4
                bytes.replaceSubrange(to..<(to + 4), with: upright.bytes[from..<(from + 4)])
            }
        }
        return PixelBuffer(unchecked: width, height: height, format: .rgba, bytes: bytes, orientation: orientation)
    }
}
