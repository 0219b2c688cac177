import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// The Landmarker's API: sync and async alike, options, files, and what it refuses — on MediaPipe's hand
/// models and the gesture photos of the test data.
@Suite("Landmarks: the Landmarker")
struct LandmarkerTests {
    static let twoHands = "task-data/gestures/call/17d804b5-7118-462d-8191-58d764f591b8.jpg"
    static let noHand = "task-data/gestures/call/172ba7f6-c6ba-4398-89a2-25375dccfefa.jpg"

    @Test("sync and async give the same hands; a photo file gives what its decoded pixels give", TestData.required(twoHands))
    func syncAndAsync() async throws {
        let landmarker = try LandmarkBundles.landmarker("hand-full")
        let photo = try PixelBuffer(contentsOf: TestData.url(Self.twoHands))
        let sync = try Self.landmarks(landmarker, photo)
        let async = try await landmarker.landmarks(in: photo)
        #expect(sync.count == 2 && sync == async)
        #expect(try landmarker.landmarks(contentsOf: TestData.url(Self.twoHands)) == sync)
        // Best detector score first; every instance a hand with 21 points inside its box, 21 world points.
        #expect(sync[0].score >= sync[1].score)
        for hand in sync {
            #expect(hand.landmarks.count == 21 && hand.worldLandmarks?.count == 21)
            #expect(hand.handedness.map { ["Left", "Right"].contains($0.label) && $0.score >= 0.5 } == true)
            #expect((hand.presence ?? 0) >= 0.5)
            for point in hand.landmarks {
                #expect(point.x >= hand.box.x - 1e-9 && point.x <= hand.box.x + hand.box.width + 1e-9)
                #expect(point.y >= hand.box.y - 1e-9 && point.y <= hand.box.y + hand.box.height + 1e-9)
            }
        }
    }

    @Test("loaded at once (loadConcurrently), a profiled call gives the same hands and accounts for its parts", TestData.required(twoHands))
    func profiled() async throws {
        let landmarker = try LandmarkBundles.landmarker("hand-full")
        try await landmarker.loadConcurrently()
        let photo = try PixelBuffer(contentsOf: TestData.url(Self.twoHands))
        let (hands, profile) = try Self.profiledLandmarks(landmarker, photo)
        #expect(hands == (try Self.landmarks(landmarker, photo)) && hands.count == 2)
        // One landmark run per region, each split by the core; every part measured, the sums consistent.
        #expect(profile.landmarkRuns.count == 2)
        #expect(profile.detector.invoke > .zero && profile.landmarkRuns.allSatisfy { $0.invoke > .zero && $0.inputs > .zero })
        #expect(profile.regions > .zero && profile.cutting > .zero && profile.pointMapping > .zero)
        #expect(profile.invokes == profile.detector.invoke + profile.landmarkRuns[0].invoke + profile.landmarkRuns[1].invoke)
        #expect(profile.cropAndMapping == profile.crops + profile.mapping && profile.crops > profile.cutting)
        #expect(profile.total > profile.invokes + profile.cropAndMapping)
    }

    static func profiledLandmarks(_ landmarker: Landmarker, _ photo: PixelBuffer) throws -> (landmarks: [Landmarks], profile: LandmarksProfile) {
        try landmarker.profiledLandmarks(in: photo)
    }

    /// The synchronous call, from an async test.
    static func landmarks(_ landmarker: Landmarker, _ photo: PixelBuffer) throws -> [Landmarks] {
        try landmarker.landmarks(in: photo)
    }

    @Test("options: at most N instances, the least detection and presence scores; out of range is refused", TestData.required(twoHands))
    func options() throws {
        let landmarker = try LandmarkBundles.landmarker("hand-full")
        let photo = try PixelBuffer(contentsOf: TestData.url(Self.twoHands))
        let all = try landmarker.landmarks(in: photo)
        #expect(try landmarker.landmarks(in: photo, options: .init(maximumInstances: 1)) == [all[0]])
        #expect(try landmarker.landmarks(in: photo, options: .init(minimumDetectionScore: 1)).isEmpty)
        #expect(try landmarker.landmarks(in: photo, options: .init(minimumPresenceScore: 1)).isEmpty)
        for options in [LandmarkerOptions(maximumInstances: 0), .init(maximumInstances: 65), .init(minimumDetectionScore: -0.1), .init(minimumPresenceScore: .nan)] {
            expectTensorIOError(.invalidInput) { try landmarker.landmarks(in: photo, options: options) }
        }
    }

    @Test("a detector that keeps every candidate: a bounded answer, each instance a real one", TestData.required(twoHands))
    func everyCandidate() throws {
        let landmarker = try LandmarkBundles.landmarker("hand-lite")
        let photo = try PixelBuffer(contentsOf: TestData.url(Self.twoHands))
        // A minimum score of 0 lets all 2,016 anchors through the detector: at most 64 regions are cut.
        let found = try landmarker.landmarks(in: photo, options: .init(maximumInstances: 64, minimumDetectionScore: 0, minimumPresenceScore: 0))
        #expect(!found.isEmpty && found.count <= 64)
        #expect(found.allSatisfy { $0.landmarks.count == 21 && $0.landmarks.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
    }

    @Test("a photo without a hand: no instance", TestData.required(noHand))
    func nothingFound() throws {
        let landmarker = try LandmarkBundles.landmarker("hand-full")
        #expect(try landmarker.landmarks(contentsOf: TestData.url(Self.noHand)).isEmpty)
    }

    @Test("a bundle without a landmarks entry, or with a detector folder missing, empty or leading out, is refused")
    func refusedBundles() throws {
        let hand = try LandmarkBundles.bundle("hand-full")
        let detectorFolder = hand.appendingPathComponent(MediaPipeLandmarker.detectorFolder)
        let detector = try ModelBundle(at: detectorFolder, registry: .vision)
        expectTensorIOError(.unsupported, location: "landmarks") { try Landmarker(bundle: detector) }

        let outside = hand.deletingLastPathComponent().appendingPathComponent("outside.tiobundle")
        try FileManager.default.moveItem(at: detectorFolder, to: outside)
        expectTensorIOError(.invalidBundle, containing: ["landmarks.detector", "is not in the bundle"]) { try ModelBundle(at: hand, registry: .vision) }
        // A link inside the bundle to a detector outside it.
        try FileManager.default.createSymbolicLink(at: detectorFolder, withDestinationURL: outside)
        expectTensorIOError(.invalidBundle, containing: ["landmarks.detector", "leads out of the bundle"]) { try ModelBundle(at: hand, registry: .vision) }
        // A folder without a model.json.
        try FileManager.default.removeItem(at: detectorFolder)
        try FileManager.default.createDirectory(at: detectorFolder, withIntermediateDirectories: false)
        expectTensorIOError(.invalidBundle, containing: ["landmarks.detector", "holds no model.json"]) { try ModelBundle(at: hand, registry: .vision) }
        // Opened without the vision tasks, the entry is read (and the folder checked) on first use.
        let plain = try ModelBundle(at: hand)
        expectTensorIOError(.invalidBundle, containing: ["landmarks.detector"]) { try Landmarker(bundle: plain) }
    }

    @Test("a landmark model whose outputs disagree with the declared points: a clear error, never a crash")
    func disagreeingOutputs() throws {
        let hand = try LandmarkBundles.bundle("hand-full")
        let file = hand.appendingPathComponent("model.json")
        let json = try String(contentsOf: file, encoding: .utf8)
        // model.json agrees with itself (20 points of 3 in a [1, 60] output) but not with the model's tensor.
        let declared = json.replacingOccurrences(of: "\"count\": 21", with: "\"count\": 20").replacingOccurrences(of: "\"keep\": 21", with: "\"keep\": 20")
            .replacingOccurrences(of: "\"shape\": [1, 63],\n      \"dtype\": \"float32\"\n    },\n    {\n      \"name\": \"Identity_1\"", with: "\"shape\": [1, 60],\n      \"dtype\": \"float32\"\n    },\n    {\n      \"name\": \"Identity_1\"")
            .replacingOccurrences(of: "\"world_points\": \"Identity_3\",", with: "").replacingOccurrences(of: ",\n      [19, 20]", with: "")
        #expect(declared.contains("[1, 60]"))
        try declared.write(to: file, atomically: true, encoding: .utf8)
        let landmarker = try Landmarker(bundle: ModelBundle(at: hand, registry: .vision))
        expectTensorIOError(.layerMismatch) { try landmarker.load() }
        // And a count the declared output cannot hold is refused when the bundle is read, at its path.
        try json.replacingOccurrences(of: "\"count\": 21", with: "\"count\": 22").replacingOccurrences(of: "\"keep\": 21", with: "\"keep\": 22")
            .write(to: file, atomically: true, encoding: .utf8)
        expectTensorIOError(.invalidBundle, containing: ["landmarks.points.output"]) { try ModelBundle(at: hand, registry: .vision) }
    }

    @Test("a region wholly outside the photo, or enormous, is cut from the replicated border in bounded time")
    func regionsOutside() throws {
        let pixels: [UInt8] = (0..<(6 * 4 * 4)).map { UInt8($0) }
        for region in [
            RegionOfInterest(centerX: -5000, centerY: -5000, width: 10, height: 10, rotation: 0.3),
            RegionOfInterest(centerX: 3, centerY: 2, width: 1e12, height: 1e12, rotation: 1),
            RegionOfInterest(centerX: 1e15, centerY: -1e15, width: 1e-9, height: 1e-9, rotation: -2),
        ] {
            let crop = RegionCrop.crop(pixels, width: 6, height: 4, region: region, outputWidth: 8, outputHeight: 8)
            #expect(crop.count == 8 * 8 * 4)
        }
        // Far up and left: every pixel is the photo's top-left one.
        let corner = RegionCrop.crop(
            pixels, width: 6, height: 4,
            region: RegionOfInterest(centerX: -5000, centerY: -5000, width: 10, height: 10, rotation: 0.3), outputWidth: 4, outputHeight: 4)
        #expect(corner == Array(repeating: [UInt8(0), 1, 2, 3], count: 16).flatMap { $0 })
    }
}
