import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio segment` on bare segmenters with metadata: text, one JSON line, and masks written as PNG.
@Suite("CLI: segment")
struct SegmentCommandTests {
    static let deepLabModel = TestData.path("task-models/tflite-support/vision/deeplabv3.tflite")
    static let photo = TestData.path("task-models/tflite-support/vision/segmentation_input_rotation0.jpg")
    static let golden = TestData.path("task-models/tflite-support/vision/segmentation_golden_rotation0.png")

    @Test("DeepLab v3: one JSON line of categories, largest first; --mask writes the golden mask's categories as PNG", TestData.required(paths: deepLabModel, photo, golden))
    func deepLab() async throws {
        let photo = Self.photo
        try await withTemporaryDirectory { folder in
            let result = try await CLI.run("segment", Self.deepLabModel, photo, "--json", "--mask", folder.path)
            #expect(result.status == 0 && result.stdoutLines.count == 1, "\(result)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let image = try #require((document["images"] as? [[String: Any]])?.first)
            #expect(image["width"] as? Int == 257 && image["height"] as? Int == 257)
            let categories = try #require(image["categories"] as? [[String: Any]])
            #expect(categories.compactMap { $0["label"] as? String } == ["background", "person", "horse"], "\(categories)")
            let fractions = categories.compactMap { $0["fraction"] as? Double }
            #expect(fractions == fractions.sorted(by: >) && abs(fractions.reduce(0, +) - 1) < 1e-9)
            // The PNG's values are category indices: ten times them is the golden mask.
            let mask = try PixelBuffer(contentsOf: folder.appendingPathComponent("segmentation_input_rotation0.png"))
            let golden = try PixelBuffer(contentsOf: URL(fileURLWithPath: Self.golden))
            #expect(mask.format == .gray && mask.width == 257 && mask.height == 257)
            var equal = 0
            for y in 0..<257 { for x in 0..<257 where (mask.pixel(x: x, y: y)?.first).map({ Int($0) * 10 }) == golden.pixel(x: x, y: y)?.first.map(Int.init) { equal += 1 } }
            #expect(Double(equal) / Double(257 * 257) >= 0.995)
        }
    }

    @Test("init writes the segmentation entry (DeepLab's labels to assets/, the selfie segmenter's activation from SEGMENTER_METADATA); the bundle segments as the bare model",
          TestData.required(paths: deepLabModel, photo), arguments: [
        ("deeplabv3.tflite", "labelmap.txt"), ("selfie_segmentation.tflite", "labels.txt"),
    ])
    func initWritesSegmentation(_ model: String, _ labelsFile: String) async throws {
        let path = model.hasPrefix("selfie") ? "Tests/Fixtures/Metadata/" + model : Self.deepLabModel
        let photo = Self.photo
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("segmenter.tiobundle").path
            let written = try await CLI.run("init", path, "-o", bundle)
            #expect(written.status == 0, "\(written)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/model.json"))) as? [String: Any]
            let entry = try #require(json?["segmentation"] as? [String: Any])
            #expect(entry["activation"] as? String == "none" && entry["labels"] as? String == labelsFile, "\(entry)")
            #expect(FileManager.default.fileExists(atPath: bundle + "/assets/" + labelsFile))
            let fromBundle = try await CLI.run("segment", bundle, photo, "--json")
            let fromModel = try await CLI.run("segment", path, photo, "--json")
            #expect(fromBundle.status == 0 && fromBundle.stdout.replacingOccurrences(of: bundle, with: "") == fromModel.stdout.replacingOccurrences(of: path, with: ""))
        }
    }

    @Test("--overlay writes each photo upright with its categories tinted and a legend, as DIR/NAME.jpg", TestData.required(paths: deepLabModel))
    func overlay() async throws {
        try await withTemporaryDirectory { folder in
            // EXIF orientation 6: stored 600×512, displayed 512×600.
            let photo = "Tests/Fixtures/Detection/photos/grace_hopper_exif6.jpg"
            let result = try await CLI.run("segment", Self.deepLabModel, photo, "--overlay", folder.path)
            #expect(result.status == 0, "\(result)")
            let drawn = try PixelBuffer(contentsOf: folder.appendingPathComponent("grace_hopper_exif6.jpg"))
            #expect(drawn.width == 512 && drawn.height == 600 && drawn.orientation == .up)
            // The person's face is tinted green-ish (category 15's colour), the sky in the top right is not.
            let original = try PixelBuffer(contentsOf: Fixtures.repositoryURL("Examples/photos/grace_hopper.jpg"))
            let face = (drawn.pixel(x: 256, y: 300) ?? []).map(Int.init), untinted = (original.pixel(x: 256, y: 300) ?? []).map(Int.init)
            #expect(face != untinted && face.count >= 3)
        }
    }

    @Test("a one-category segmenter: 1 foreground, 0 background, as text by default")
    func selfie() async throws {
        try await withTemporaryDirectory { folder in
            let result = try await CLI.run("segment", "Tests/Fixtures/Metadata/selfie_segmentation.tflite", "Examples/photos/grace_hopper.jpg", "--mask", folder.path)
            #expect(result.status == 0 && result.stdoutLines.first == "Examples/photos/grace_hopper.jpg (512×600)", "\(result)")
            let mask = try PixelBuffer(contentsOf: folder.appendingPathComponent("grace_hopper.png"))
            var values = Set<UInt8>()
            for y in stride(from: 0, to: mask.height, by: 7) { for x in stride(from: 0, to: mask.width, by: 7) { values.insert(mask.pixel(x: x, y: y)?.first ?? 9) } }
            #expect(values == [0, 1])
        }
    }

    @Test("a model without a segmentation description, and an unreadable photo, each get one line and exit 1", TestData.required(paths: deepLabModel))
    func errors() async throws {
        let noSegmentation = try await CLI.run("segment", "Examples/efficientnet-lite0-float32.tiobundle", "Examples/photos/cat.jpg")
        #expect(noSegmentation.status == 1 && noSegmentation.stderr.contains("describes no segmentation output"), "\(noSegmentation)")
        let missing = try await CLI.run("segment", Self.deepLabModel, "nothing.jpg", "--json")
        #expect(missing.status == 1 && missing.stderr.contains("nothing.jpg"), "\(missing)")
    }
}
