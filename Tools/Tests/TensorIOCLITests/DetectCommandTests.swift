import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio detect` on a bare SSD model with metadata and on a bundle `tensorio init --detector` wrote.
@Suite("CLI: detect")
struct DetectCommandTests {
    static let ssd = TestData.path("task-models/tflite-support/vision/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite")
    static let catsAndDogs = TestData.path("task-models/tflite-support/vision/cats_and_dogs.jpg")
    static let astronaut = "Tests/Fixtures/Detection/photos/astronaut.jpg"

    static func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("a bare SSD model with metadata: one JSON line, boxes in the photo's pixels, labels, no keypoints", TestData.required(paths: ssd, catsAndDogs))
    func bareSSD() async throws {
        let result = try await CLI.run("detect", Self.ssd, Self.catsAndDogs, "--json", "--max-results", "2")
        #expect(result.status == 0 && result.stdoutLines.count == 1, "\(result)")
        let images = try #require(try Self.json(result)["images"] as? [[String: Any]])
        let image = try #require(images.first)
        #expect(image["path"] as? String == Self.catsAndDogs && image["width"] as? Int == 1200 && image["height"] as? Int == 600)
        let detections = try #require(image["detections"] as? [[String: Any]])
        #expect(detections.count == 2 && detections.allSatisfy { $0["keypoints"] == nil })
        #expect(detections.map { $0["label"] as? String } == ["cat", "cat"])
        // The Task Library's best: a cat at (54, 398) 393×196, 0.645.
        let box = try #require(detections.first?["box"] as? [String: Double])
        #expect(abs((box["x"] ?? 0) - 54) < 3 && abs((box["y"] ?? 0) - 398) < 3 && abs((box["width"] ?? 0) - 393) < 3)
        #expect(abs((detections.first?["score"] as? Double ?? 0) - 0.645) < 0.01)
    }

    @Test("init --detector writes MediaPipe's face detector settings; detect then finds the face with its keypoints, no label")
    func mediaPipeFace() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("face.tiobundle").path
            let written = try await CLI.run("init", "Tests/Fixtures/Metadata/face_detection_short_range.tflite", "--detector", "blazeface-short-range", "-o", bundle)
            #expect(written.status == 0, "\(written)")
            let text = try await CLI.run("detect", bundle, Self.astronaut)
            #expect(text.status == 0 && text.stdoutLines.first == "\(Self.astronaut) (512×512)", "\(text)")
            #expect(text.stdoutLines.dropFirst().first?.hasPrefix("  1. #0  0.92") == true, "\(text)")
            let result = try await CLI.run("detect", bundle, Self.astronaut, "--json")
            let detection = try #require(((try Self.json(result)["images"] as? [[String: Any]])?.first?["detections"] as? [[String: Any]])?.first)
            #expect(detection["label"] == nil && (detection["keypoints"] as? [[String: Double]])?.count == 6)
        }
    }

    @Test("init reads DETECTOR_METADATA into a bundle with its anchors file; the bundle and the bare model find the same cats and dogs", TestData.required(paths: ssd, catsAndDogs))
    func detectorMetadata() async throws {
        // The SSD without its post-processing operator, carrying MediaPipe's DETECTOR_METADATA (made by the zoo set-up).
        let model = ".build/zoo/derived/coco_ssd_detector_metadata.tflite"
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("ssd.tiobundle")
            let written = try await CLI.run("init", model, "-o", bundle.path)
            #expect(written.status == 0 && (written.stdout + written.stderr).contains("DETECTOR_METADATA"), "\(written)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("model.json"))) as? [String: Any])
            let detection = try #require(document["detection"] as? [String: Any])
            #expect((detection["anchors"] as? [String: String]) == ["file": "anchors.csv"] && detection["type"] as? String == "anchors")
            let anchors = try String(contentsOf: bundle.appendingPathComponent("assets/anchors.csv"), encoding: .utf8)
            #expect(anchors.split(separator: "\n").count == 1917 + 1)
            var answers: [[String]] = []
            for target in [bundle.path, model] {
                let result = try await CLI.run("detect", target, Self.catsAndDogs, "--json", "--score-threshold", "0.5", "--deny", "???")
                #expect(result.status == 0, "\(result)")
                let detections = try #require(((try Self.json(result)["images"] as? [[String: Any]])?.first?["detections"] as? [[String: Any]]))
                answers.append(detections.compactMap { $0["label"] as? String })
            }
            #expect(answers[0] == answers[1] && !answers[0].isEmpty && answers[0].allSatisfy { ["cat", "dog"].contains($0) }, "\(answers)")
        }
    }

    @Test("--draw writes each photo upright with its detections drawn, as DIR/NAME.jpg, NAME-2.jpg for a repeated name")
    func draw() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("face.tiobundle").path
            #expect(try await CLI.run("init", "Tests/Fixtures/Metadata/face_detection_short_range.tflite", "--detector", "blazeface-short-range", "-o", bundle).status == 0)
            let drawings = folder.appendingPathComponent("drawn")
            // EXIF orientation 6: stored 600×512, displayed 512×600.
            let exif = "Tests/Fixtures/Detection/photos/grace_hopper_exif6.jpg"
            let result = try await CLI.run("detect", bundle, exif, "Examples/photos/grace_hopper.jpg", Self.astronaut, Self.astronaut, "--draw", drawings.path)
            #expect(result.status == 0, "\(result)")
            let names = try FileManager.default.contentsOfDirectory(atPath: drawings.path).sorted()
            #expect(names == ["astronaut-2.jpg", "astronaut.jpg", "grace_hopper.jpg", "grace_hopper_exif6.jpg"])
            let drawn = try PixelBuffer(contentsOf: drawings.appendingPathComponent("grace_hopper_exif6.jpg"))
            #expect(drawn.orientation == .up && drawn.width == 512 && drawn.height == 600)
            // The box's left edge is drawn where detect put it: the pixel there is no longer the photo's.
            let detection = try #require(try PixelBuffer(contentsOf: Fixtures.repositoryURL(exif)).orientedUpright() as PixelBuffer?)
            let face = try #require(((try Self.json(try await CLI.run("detect", bundle, exif, "--json"))["images"] as? [[String: Any]])?.first?["detections"] as? [[String: Any]])?.first?["box"] as? [String: Double])
            let (x, y) = (Int(face["x"] ?? 0), Int((face["y"] ?? 0) + (face["height"] ?? 0) / 2))
            let before = try #require(detection.pixel(x: x, y: y)), after = try #require(drawn.converted(to: .bgra).pixel(x: x, y: y))
            #expect(zip(before, after).map { abs(Int($0) - Int($1)) }.max() ?? 0 > 40, "\(before) → \(after)")
        }
    }

    @Test("a model without a detection description, and an unreadable photo, each get one line and exit 1", TestData.required(paths: ssd, catsAndDogs))
    func refusals() async throws {
        expectOneLineError(try await CLI.run("detect", "Examples/efficientnet-lite0-float32.tiobundle", Self.astronaut), containing: ["describes no detection outputs"])
        let missing = try await CLI.run("detect", Self.ssd, "no-such.jpg", Self.catsAndDogs, "--json", "--max-results", "1")
        #expect(missing.status == 1 && missing.stdoutLines.count == 1, "\(missing)")
        #expect(missing.stderrLines == ["error: no-such.jpg: the image does not exist"], "\(missing)")
    }
}
