import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio init DETECTOR LANDMARKS --landmarker NAME` and `tensorio landmarks` on MediaPipe 0.10.21's models
/// (the zoo set-up's `.build/zoo/mediapipe-modules/`).
@Suite("CLI: landmarks")
struct LandmarksCommandTests {
    static let modules = ".build/zoo/mediapipe-modules"
    static let palm = "\(modules)/palm_detection/palm_detection_full.tflite"
    static let hand = "\(modules)/hand_landmark/hand_landmark_full.tflite"
    static let poseDetector = "\(modules)/pose_detection/pose_detection.tflite"
    static let pose = "\(modules)/pose_landmark/pose_landmark_full.tflite"
    static let twoHands = TestData.path("task-data/gestures/call/17d804b5-7118-462d-8191-58d764f591b8.jpg")
    static let astronaut = "Tests/Fixtures/Detection/photos/astronaut.jpg"

    static func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("init --landmarker hand writes the landmark model with the palm detector's bundle inside; landmarks --json gives two hands", TestData.required(paths: twoHands))
    func hands() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("hand.tiobundle")
            let written = try await CLI.run("init", Self.palm, Self.hand, "--landmarker", "hand", "-o", bundle.path)
            #expect(written.status == 0 && written.stdout.contains("MediaPipe's hand pipeline"), "\(written)")
            #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("detector.tiobundle/palm_detection_full.tflite").path))
            #expect(try await CLI.run("validate", bundle.path).status == 0)
            let inspected = try await CLI.run("inspect", bundle.path)
            #expect(inspected.stdout.contains("Landmarks:\n  detector detector.tiobundle, points Identity (21 of 21 × 3), presence Identity_1, handedness Identity_2 (Left/Right), world points Identity_3, at most 2"), "\(inspected)")

            let result = try await CLI.run("landmarks", bundle.path, Self.twoHands, "--json")
            #expect(result.status == 0 && result.stdoutLines.count == 1, "\(result)")
            let image = try #require((try Self.json(result)["images"] as? [[String: Any]])?.first)
            #expect(image["path"] as? String == Self.twoHands && image["width"] as? Int == 384 && image["height"] as? Int == 512)
            let instances = try #require(image["instances"] as? [[String: Any]])
            #expect(instances.count == 2)
            for instance in instances {
                #expect(Set(instance.keys) == ["score", "handedness", "box", "landmarks", "world_landmarks"])
                let points = try #require(instance["landmarks"] as? [[String: Double]])
                // Hands: x, y and z, no visibility or presence.
                #expect(points.count == 21 && points.allSatisfy { Set($0.keys) == ["x", "y", "z"] })
                #expect((instance["world_landmarks"] as? [[String: Double]])?.count == 21)
                let handedness = try #require(instance["handedness"] as? [String: Any])
                #expect(["Left", "Right"].contains(handedness["label"] as? String ?? ""))
            }
            #expect((instances[0]["score"] as? Double ?? 0) >= (instances[1]["score"] as? Double ?? 1))

            // validate checks that the detector's bundle is there.
            try FileManager.default.moveItem(at: bundle.appendingPathComponent("detector.tiobundle"), to: folder.appendingPathComponent("moved.tiobundle"))
            let invalid = try await CLI.run("validate", bundle.path)
            #expect(invalid.status == 1 && (invalid.stdout + invalid.stderr).contains("landmarks.detector: \"detector.tiobundle\" is not in the bundle"), "\(invalid)")
            try FileManager.default.moveItem(at: folder.appendingPathComponent("moved.tiobundle"), to: bundle.appendingPathComponent("detector.tiobundle"))

            let limited = try await CLI.run("landmarks", bundle.path, Self.twoHands, "--max-results", "1")
            #expect(limited.status == 0 && limited.stdoutLines.count == 2, "\(limited)")
            #expect(limited.stdoutLines.first == "\(Self.twoHands) (384×512)")
            #expect(limited.stdoutLines.last?.contains("21 landmarks") == true && limited.stdoutLines.last?.hasPrefix("  1. ") == true)
        }
    }

    @Test("pose: 33 points with visibility and presence, world landmarks; --draw writes the skeleton as DIR/NAME.jpg")
    func pose() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("pose.tiobundle").path
            #expect(try await CLI.run("init", Self.poseDetector, Self.pose, "--landmarker", "pose", "-o", bundle).status == 0)
            // The video mode's output smoothing, MediaPipe's PoseLandmarkFiltering settings.
            let model = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle).appendingPathComponent("model.json")))
            let tracking = try #require(((model as? [String: Any])?["landmarks"] as? [String: Any])?["tracking"] as? [String: Any])
            let output = try #require(tracking["output_smoothing"] as? [String: [String: Double]])
            #expect(output["landmarks"] == ["min_cutoff": 0.05, "beta": 80, "derivative_cutoff": 1, "frequency": 30])
            #expect(output["world_landmarks"] == ["min_cutoff": 0.1, "beta": 40, "derivative_cutoff": 1, "frequency": 30])
            #expect(output["visibility"] == ["alpha": 0.1])
            let drawings = folder.appendingPathComponent("drawn")
            let result = try await CLI.run("landmarks", bundle, Self.astronaut, "Examples/photos/cat.jpg", "--json", "--draw", drawings.path)
            #expect(result.status == 0, "\(result)")
            let images = try #require(try Self.json(result)["images"] as? [[String: Any]])
            let instance = try #require((images.first?["instances"] as? [[String: Any]])?.first)
            #expect(instance["handedness"] == nil)
            let points = try #require(instance["landmarks"] as? [[String: Double]])
            #expect(points.count == 33 && points.allSatisfy { Set($0.keys) == ["x", "y", "z", "visibility", "presence"] })
            #expect((instance["world_landmarks"] as? [[String: Double]])?.count == 33)
            #expect((images.last?["instances"] as? [Any])?.isEmpty == true)  // no body on the cat photo
            let drawn = try PixelBuffer(contentsOf: drawings.appendingPathComponent("astronaut.jpg"))
            #expect(drawn.uprightSize == (512, 512))
            #expect(FileManager.default.fileExists(atPath: drawings.appendingPathComponent("cat.jpg").path))
            // Two jobs (the models loaded at once, a copy each): the same answers, in the same order.
            let parallel = try await CLI.run("landmarks", bundle, Self.astronaut, "Examples/photos/cat.jpg", "--json", "--jobs", "2")
            #expect(parallel.status == 0 && parallel.stdout == result.stdout, "\(parallel)")
        }
    }

    @Test("init --landmarker refuses one model, models of another pipeline, and flags that do not apply; landmarks refuses a bundle without the entry")
    func refusals() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("x.tiobundle").path
            let one = try await CLI.run("init", Self.palm, "--landmarker", "hand", "-o", bundle)
            #expect(one.status != 0 && one.stderr.contains("takes two models"), "\(one)")
            let swapped = try await CLI.run("init", Self.palm, Self.pose, "--landmarker", "hand", "-o", bundle)
            #expect(swapped.status != 0 && swapped.stderr.contains("the landmark model") && swapped.stderr.contains("expects one 224×224"), "\(swapped)")
            let flag = try await CLI.run("init", Self.palm, Self.hand, "--landmarker", "hand", "--detector", "palm", "-o", bundle)
            #expect(flag.status != 0 && flag.stderr.contains("--detector does not apply"), "\(flag)")
            #expect(!FileManager.default.fileExists(atPath: bundle), "nothing half-written")
            let second = try await CLI.run("init", Self.palm, Self.hand, "-o", bundle)
            #expect(second.status != 0 && second.stderr.contains("for --landmarker only"), "\(second)")

            let detector = folder.appendingPathComponent("palm.tiobundle").path
            #expect(try await CLI.run("init", Self.palm, "--detector", "palm", "-o", detector).status == 0)
            let wrong = try await CLI.run("landmarks", detector, Self.astronaut)
            #expect(wrong.status != 0 && wrong.stderr.contains("has no \"landmarks\" entry"), "\(wrong)")
            let range = try await CLI.run("landmarks", detector, Self.astronaut, "--max-results", "0")
            #expect(range.status != 0 && range.stderr.contains("--max-results must be from 1 to 64"), "\(range)")
        }
    }

    @Test("a photo that cannot be read is named at the end, the others answered, exit status 1")
    func unreadablePhoto() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("pose.tiobundle").path
            #expect(try await CLI.run("init", Self.poseDetector, Self.pose, "--landmarker", "pose", "-o", bundle).status == 0)
            let broken = folder.appendingPathComponent("broken.jpg")
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]).write(to: broken)
            let result = try await CLI.run("landmarks", bundle, broken.path, Self.astronaut)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("\(Self.astronaut) (512×512)") && result.stdout.contains("33 landmarks"), "\(result)")
            #expect(result.stderr.contains("broken.jpg"), "\(result)")
        }
    }
}
