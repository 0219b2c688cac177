import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport
import TensorIOVideo

/// The tracker's own rules: times that must increase, `reset()`, a lost instance bringing the detector
/// back, a bundle without a tracking rule, landmarks no region can be made of, and the output smoothing.
@Suite("Landmarks: the tracker")
struct LandmarkTrackerTests {
    static func black(width: Int = 480, height: Int = 360) throws -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 3, to: bytes.count, by: 4) { bytes[index] = 255 }
        return try PixelBuffer(width: width, height: height, format: .bgra, bytes: bytes)
    }

    @Test("a frame's time must be later than the previous frame's, until reset()")
    func timesIncrease() throws {
        var tracker = try LandmarkBundles.landmarker("hand-lite").tracker()
        let frame = try Self.black(width: 64, height: 48)
        _ = try tracker.landmarks(in: frame, timestamp: .seconds(1))
        for time in [Duration.seconds(1), .milliseconds(500)] {
            let error = try #require(throws: TensorIOError.self) { try tracker.landmarks(in: frame, timestamp: time) }
            #expect(error.code == .invalidInput && error.location == "timestamp")
        }
        _ = try tracker.landmarks(in: frame, timestamp: .milliseconds(1001))
        tracker.reset()
        #expect(try tracker.landmarks(in: frame, timestamp: .zero).detectorRan)
    }

    @Test("a lost instance brings the detector back; reset() forgets the tracked ones", TestData.required(TrackingClips.gesture))
    func lostAndReset() throws {
        var tracker = try LandmarkBundles.landmarker("hand-full").tracker(options: LandmarkerOptions(maximumInstances: 1))
        let frames = try TrackingClips.frames("hand.mp4")
        let black = try Self.black(width: frames[0].image.width, height: frames[0].image.height)
        var time = Duration.zero
        func next(_ image: PixelBuffer) throws -> TrackedLandmarks {
            time += .milliseconds(33)
            return try tracker.landmarks(in: image, timestamp: time)
        }
        var found = try next(frames[0].image)
        #expect(found.detectorRan && found.instances.count == 1 && tracker.trackedCount == 1)
        found = try next(frames[1].image)
        #expect(!found.detectorRan && found.instances.count == 1, "the hand is followed: no detection")
        found = try next(black)
        #expect(!found.detectorRan && found.instances.isEmpty && tracker.trackedCount == 0, "the hand is lost on a black frame")
        found = try next(black)
        #expect(found.detectorRan && found.instances.isEmpty, "nothing tracked: the detector runs")
        found = try next(frames[2].image)
        #expect(found.detectorRan && found.instances.count == 1, "found again")
        found = try next(frames[3].image)
        #expect(!found.detectorRan && found.instances.count == 1)
        tracker.reset()
        #expect(tracker.trackedCount == 0)
        found = try next(frames[4].image)
        #expect(found.detectorRan && found.instances.count == 1, "after reset() the detector runs")
    }

    @Test("the async call gives what the synchronous one does", TestData.required(TrackingClips.gesture))
    func asyncSameAsSync() async throws {
        let landmarker = try LandmarkBundles.landmarker("hand-full")
        var sync = try landmarker.tracker(options: LandmarkerOptions(maximumInstances: 1))
        var async = sync
        for frame in try TrackingClips.frames("hand.mp4").prefix(4) {
            let first = try Self.synchronously(&sync, frame)
            let second = try await async.landmarks(in: frame.image, timestamp: frame.timestamp)
            #expect(first == second)
        }
    }

    /// The synchronous call (in an async function, Swift picks the async overload).
    static func synchronously(_ tracker: inout LandmarkTracker, _ frame: VideoFrame) throws -> TrackedLandmarks {
        try tracker.landmarks(in: frame.image, timestamp: frame.timestamp)
    }

    @Test("a bundle whose landmarks entry has no tracking rule has no tracker")
    func noRule() throws {
        let url = try LandmarkBundles.bundle("face")
        let file = url.appendingPathComponent("model.json")
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var landmarks = try #require(json["landmarks"] as? [String: Any])
        landmarks["tracking"] = nil
        json["landmarks"] = landmarks
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let landmarker = try Landmarker(bundle: ModelBundle(at: url, registry: .vision))
        #expect(landmarker.description.tracking == nil)
        let error = try #require(throws: TensorIOError.self) { try landmarker.tracker() }
        #expect(error.code == .unsupported && error.location == "landmarks.tracking")
    }

    @Test("landmarks no region can be made of (not finite, all at one point, absurdly far) lose the instance")
    func hostileLandmarks() throws {
        for name in ["hand-lite", "face", "pose"] {
            let landmarker = try LandmarkBundles.landmarker(name)
            let tracker = try landmarker.tracker()
            let count = landmarker.description.points.count
            let start = LandmarkTracker.Track(region: RegionOfInterest(centerX: 50, centerY: 50, width: 20, height: 20, rotation: 0), score: 0.9)
            let cases: [(String, [Landmark])] = [
                ("NaN", (0..<count).map { _ in Landmark(x: .nan, y: 3, z: 0) }),
                ("infinite", (0..<count).map { _ in Landmark(x: 3, y: -.infinity, z: 0) }),
                ("one point", (0..<count).map { _ in Landmark(x: 40, y: 30, z: 0) }),
                ("far away", (0..<count).map { Landmark(x: 1e30 * Double($0 % 3), y: -1e30 * Double($0 % 2), z: 0) }),
                ("too few", [Landmark(x: 1, y: 2, z: 0)]),
            ]
            for (label, points) in cases {
                var track = start
                #expect(!tracker.follow(&track, points: points, at: .seconds(1), width: 100, height: 80), "\(name): \(label)")
                #expect(track.region == start.region, "\(name): \(label) leaves the region as it was")
            }
            // Sensible points do give a region.
            var track = start
            let spread = (0..<count).map { Landmark(x: 40 + Double($0 % 7) * 3, y: 30 + Double($0 % 5) * 4, z: 0) }
            #expect(tracker.follow(&track, points: spread, at: .seconds(1), width: 100, height: 80), "\(name): a spread of points")
        }
    }

    /// Whether two instances have the same points, within `tolerance` pixels (the smoothing computes in floats).
    static func samePoints(_ a: Landmarks, _ b: Landmarks, tolerance: Double = 1e-3) -> Bool {
        a.landmarks.count == b.landmarks.count
            && zip(a.landmarks, b.landmarks).allSatisfy { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance && abs($0.z - $1.z) <= tolerance }
    }

    static func sameVisibility(_ a: Landmarks, _ b: Landmarks) -> Bool {
        zip(a.landmarks, b.landmarks).allSatisfy { abs(($0.visibility ?? -1) - ($1.visibility ?? -1)) <= 1e-6 }
    }

    @Test("output smoothing changes the landmarks returned, never the regions followed; off, each frame's own; reset() starts it afresh, a loss the positions alone",
          TestData.required(TrackingClips.gesture))
    func outputSmoothing() throws {
        let landmarker = try LandmarkBundles.landmarker("pose")
        var smoothed = try landmarker.tracker()
        var plain = try landmarker.tracker(smoothsLandmarks: false)
        #expect(smoothed.smoothsLandmarks && !plain.smoothsLandmarks)
        let frames = try TrackingClips.frames("pose.mp4")
        try #require(frames.count == 40)
        var moved = 0, tracked = 0
        for (index, frame) in frames.enumerated() {
            let a = try smoothed.landmarks(in: frame.image, timestamp: frame.timestamp)
            let b = try plain.landmarks(in: frame.image, timestamp: frame.timestamp)
            #expect(a.detectorRan == b.detectorRan && a.instances.count == b.instances.count, "frame \(index)")
            for (s, p) in zip(a.instances, b.instances) {
                // The smoothing never reaches the region the landmark model sees.
                #expect(s.region == p.region, "frame \(index): the same region")
                if a.detectorRan {
                    // A new instance's first frame: its positions as the model gives them (frame 24, after the
                    // clip's black frames, keeps the lost body's visibility filter, as MediaPipe does).
                    #expect(Self.samePoints(s, p), "frame \(index): the first frame passes through")
                    #expect(Self.sameVisibility(s, p) == (index == 0), "frame \(index): visibility")
                } else {
                    tracked += 1
                    if !Self.samePoints(s, p, tolerance: 0.01) { moved += 1 }
                }
            }
        }
        #expect(tracked > 30 && moved > tracked / 2, "\(moved) of \(tracked) tracked frames smoothed")
        // reset() forgets every filter: the next frame is the model's own again.
        smoothed.reset()
        plain.reset()
        let a = try smoothed.landmarks(in: frames[10].image, timestamp: .zero)
        let b = try plain.landmarks(in: frames[10].image, timestamp: .zero)
        let (s, p) = (try #require(a.instances.first), try #require(b.instances.first))
        #expect(Self.samePoints(s, p) && Self.sameVisibility(s, p))
        // A still photo is never smoothed.
        let still = try #require(landmarker.landmarks(in: frames[10].image).first)
        #expect(Self.samePoints(still, p, tolerance: 0))
    }
}
