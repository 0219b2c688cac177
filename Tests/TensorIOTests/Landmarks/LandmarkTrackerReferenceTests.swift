import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport
import TensorIOVideo

/// Tracking as MediaPipe's video mode does it (issue 41, point 4): `Tests/Fixtures/Landmarks/tracking.json`
/// holds what MediaPipe 0.10.21's legacy solutions with `static_image_mode=False` find on every frame of the
/// clips of `scripts/fixtures/make_tracking_clips.sh` (computed once by
/// `scripts/fixtures/make_tracking_references.py`). Fed the same decoded frames (checked byte for byte), the
/// LandmarkTracker must find the same number of instances on every frame and run the detector on the same
/// frames; its tracking rules must give MediaPipe's next regions from MediaPipe's landmarks, and its landmark
/// stage MediaPipe's landmarks (within 2% of the box) on MediaPipe's regions. In the closed loop — each
/// frame's landmarks making the next frame's region, fed the times MediaPipe's solution gave its graph — every
/// point must be within 2% of the box, though a difference of one float step would grow on the points the
/// models are least sure of (MediaPipe against itself with one pixel of the first frame one level off keeps
/// only 82–94% of a hand's or a body's points there). The body is compared unsmoothed (`pose`,
/// `smooth_landmarks=False`, the tracker's smoothing off) and smoothed (`pose-smoothed`, MediaPipe's default);
/// the smoothing's arithmetic is checked alone on MediaPipe's own unsmoothed landmarks.
@Suite("Landmarks: tracking as MediaPipe's video mode")
struct LandmarkTrackerReferenceTests {
    struct Document: Decodable {
        var clips: [String: Clip]
        var pipelines: [String: Pipeline]

        struct Clip: Decodable {
            var sha256: String
            var width: Int
            var height: Int
            var frame_count: Int
            var frame_sha256: [String]
        }

        struct Pipeline: Decodable {
            var sensitivity: Sensitivity
            var bundle: String
            var clip: String
            var max_instances: Int
            var detector_frames: [Int]
            var frames: [Frame]
        }

        /// MediaPipe against itself: a second run with one pixel of the first frame one level off.
        struct Sensitivity: Decodable {
            var within_2_percent: Double
            var visible_within_2_percent: Double
            var largest_percent_of_box: Double
            /// The smoothed body's world points within 2% of the world box, and visibilities within 0.05.
            var world_within_2_percent: Double?
            var visibility_within_0_05: Double?
        }

        struct Frame: Decodable {
            var detector_ran: Bool
            var rois: [Region]
            var instances: [Instance]
        }

        struct Instance: Decodable {
            var landmarks: [[Double]]
            var handedness: String?
            var roi_from_landmarks: Region
            var auxiliary_landmarks: [[Double]]?
            var auxiliary_landmarks_smoothed: [[Double]]?
            var world_landmarks: [[Double]]?
            var filter: Filter?

            /// The landmarks before the output smoothing, in pixels ([x, y, z, visibility]): the landmark
            /// stage's own.
            func unsmoothed(width: Int, height: Int) -> [[Double]] {
                guard let filter else { return landmarks }
                return filter.landmarks_in.map { [$0[0] * Double(width), $0[1] * Double(height), $0[2] * Double(width), $0[3]] }
            }
        }

        /// The output smoothing's input and output, MediaPipe's float32 numbers: landmarks normalized
        /// [x, y, z, visibility], world landmarks [x, y, z], and the unsmoothed auxiliary points [x, y].
        struct Filter: Decodable {
            var landmarks_in: [[Double]]
            var landmarks_out: [[Double]]
            var world_in: [[Double]]
            var world_out: [[Double]]
            var auxiliary_in: [[Double]]
        }

        struct Region: Decodable {
            var x: Double
            var y: Double
            var width: Double
            var height: Double
            var rotation: Double
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            clips = try container.decode([String: Clip].self, forKey: Key(stringValue: "clips"))
            pipelines = [:]
            for name in LandmarkTrackerReferenceTests.pipelines {
                pipelines[name] = try container.decode(Pipeline.self, forKey: Key(stringValue: name))
            }
        }
    }

    static let pipelines = ["hand-1", "hand-2", "face", "pose", "pose-smoothed"]

    static let document: Document? = try? JSONDecoder().decode(
        Document.self, from: Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Landmarks/tracking.json")))

    @Test("the clips are the reference's, and VideoDecoder gives the frames MediaPipe saw, byte for byte",
          TestData.required(TrackingClips.gesture))
    func sameFrames() throws {
        let document = try #require(Self.document)
        for (name, clip) in document.clips.sorted(by: { $0.key < $1.key }) {
            #expect(try TrackingClips.sha256([Data(contentsOf: TrackingClips.url(name))]) == [clip.sha256], "\(name): the clip's bytes")
            let frames = try TrackingClips.frames(name)
            #expect(frames.count == clip.frame_count, "\(name): frame count")
            #expect(frames.allSatisfy { $0.image.format == .bgra && $0.image.width == clip.width && $0.image.height == clip.height })
            #expect(try TrackingClips.sha256(frames.map { Data($0.image.bytes) }) == clip.frame_sha256, "\(name): the frames' bytes")
        }
    }

    @Test("the same instances, landmarks and detector frames as MediaPipe's video mode",
          TestData.required(TrackingClips.gesture), arguments: pipelines)
    func sameTracking(_ name: String) throws {
        let document = try #require(Self.document)
        let pipeline = try #require(document.pipelines[name])
        // `pose` is MediaPipe's smooth_landmarks=False: the tracker's output smoothing off.
        var tracker = try LandmarkBundles.landmarker(pipeline.bundle).tracker(
            options: LandmarkerOptions(maximumInstances: pipeline.max_instances), smoothsLandmarks: name != "pose")
        let frames = try TrackingClips.frames(pipeline.clip)
        try #require(frames.count == pipeline.frames.count)
        var differences: [Double] = [], visible: [Double] = [], instances = 0, countsAgree = 0, detectorAgrees = 0
        var world: [Double] = [], visibility: [Double] = []
        var firstApart: Int?
        var detectorFrames: [Int] = []
        for (index, (frame, reference)) in zip(frames, pipeline.frames).enumerated() {
            // The times MediaPipe's solution gave its graph (its simulated clock: 33,333 µs a frame, the first
            // frame one step in), which its one-euro filters see; the clip's own are n / 30 s.
            let found = try tracker.landmarks(in: frame.image, timestamp: Self.mediaPipeTime(frame: index))
            if found.detectorRan { detectorFrames.append(index) }
            if found.detectorRan == reference.detector_ran { detectorAgrees += 1 }
            #expect(found.instances.count == reference.instances.count, "\(name) frame \(index): \(found.instances.count) instances, MediaPipe \(reference.instances.count)")
            if found.instances.count == reference.instances.count { countsAgree += 1 }
            for (instance, expected) in Self.paired(found.instances, reference.instances) {
                instances += 1
                let apart = Self.differences(instance.landmarks, expected.landmarks)
                differences += apart
                // A body's points MediaPipe itself thinks hidden or out of the frame (visibility under 0.5).
                visible += zip(apart, expected.landmarks).filter { $1.count < 4 || $1[3] >= 0.5 }.map(\.0)
                if firstApart == nil, apart.contains(where: { $0 > 0.02 }) { firstApart = index }
                if let handedness = expected.handedness {
                    #expect(instance.handedness?.label == handedness, "\(name) frame \(index): handedness")
                }
                if let expectedWorld = expected.world_landmarks, let found = instance.worldLandmarks {
                    world += Self.worldDifferences(found, expectedWorld)
                }
                if expected.filter != nil {
                    visibility += zip(instance.landmarks, expected.landmarks).map { abs(($0.visibility ?? -1) - $1[3]) }
                }
            }
        }
        #expect(detectorFrames == pipeline.detector_frames, "\(name): the detector ran on \(detectorFrames), MediaPipe on \(pipeline.detector_frames)")
        let within = Double(differences.filter { $0 <= 0.02 }.count) / Double(max(1, differences.count))
        let visibleWithin = Double(visible.filter { $0 <= 0.02 }.count) / Double(max(1, visible.count))
        let sorted = differences.sorted()
        // One line of the comparison table per pipeline (the note of issue 41 quotes them).
        print("landmark-tracking | \(name) | \(pipeline.clip) | \(frames.count) frames | instance counts agree on \(countsAgree)/\(frames.count) | \(instances) instances | detector frames agree on \(detectorAgrees)/\(frames.count) (\(detectorFrames.count) runs) | landmarks within 2% of the box: \(String(format: "%.1f", within * 100))% of \(differences.count) points (median \(String(format: "%.4f", Self.percent(sorted, 0.5)))%, 95th \(String(format: "%.2f", Self.percent(sorted, 0.95)))%, largest \(String(format: "%.2f", (sorted.last ?? 0) * 100))% of the box; first frame with a point past 2%: \(firstApart.map(String.init) ?? "none"); visible points: \(String(format: "%.1f", visibleWithin * 100))% of \(visible.count), largest \(String(format: "%.2f", (visible.max() ?? 0) * 100))%)")
        // The loop feeds each frame's landmarks into the next frame's region, so a difference of one float step
        // grows on the points the models are least sure of: MediaPipe drifts from itself by up to a fifth of the
        // box when one pixel of the first frame is one level off (the fixture's `sensitivity`, printed as the
        // yardstick). The tracker computes every step as MediaPipe does — the crop's bytes, the model's outputs,
        // the points, the regions, the filters — so it must not drift at all: every point within 2% of the box.
        let yardstick = pipeline.sensitivity
        print("landmark-tracking | \(name) | MediaPipe against itself, one pixel of frame 0 one level off: \(String(format: "%.1f", yardstick.within_2_percent * 100))% of points within 2% (visible \(String(format: "%.1f", yardstick.visible_within_2_percent * 100))%), largest \(yardstick.largest_percent_of_box)% of the box")
        #expect(within == 1, "\(name): \(within * 100)% of points within 2% of the box")
        #expect(visibleWithin == 1, "\(name): \(visibleWithin * 100)% of visible points within 2% of the box")
        if let worldYardstick = yardstick.world_within_2_percent, let visibilityYardstick = yardstick.visibility_within_0_05 {
            // The smoothed world landmarks and visibility, measured as the points are (world points against 2% of
            // the world box; visibility within 0.05): every one, where MediaPipe against itself keeps the share
            // printed.
            let worldWithin = Double(world.filter { $0 <= 0.02 }.count) / Double(max(1, world.count))
            let visibilityWithin = Double(visibility.filter { $0 <= 0.05 }.count) / Double(max(1, visibility.count))
            print("landmark-tracking | \(name) | world landmarks within 2% of the world box: \(String(format: "%.1f", worldWithin * 100))% of \(world.count) (largest \(String(format: "%.2f", (world.max() ?? 0) * 100))%) | visibility within 0.05: \(String(format: "%.1f", visibilityWithin * 100))% of \(visibility.count) (largest \(String(format: "%.3f", visibility.max() ?? 0)))")
            print("landmark-tracking | \(name) | MediaPipe against itself: world landmarks \(String(format: "%.1f", worldYardstick * 100))%, visibility \(String(format: "%.1f", visibilityYardstick * 100))%")
            #expect(world.count == differences.count && visibility.count == differences.count)
            #expect(worldWithin == 1, "\(name): \(worldWithin * 100)% of world points within 2% of the world box")
            #expect(visibilityWithin == 1, "\(name): \(visibilityWithin * 100)% of visibilities within 0.05")
        }
    }

    /// The time MediaPipe 0.10.21's legacy solutions stamp the `frame`-th image with (`solution_base.py`:
    /// the simulated timestamp advances 33,333 µs before each `process()`).
    static func mediaPipeTime(frame: Int) -> Duration { .microseconds((frame + 1) * 33_333) }

    /// How far each world point is from the reference's, in x, y or z, as a fraction of the reference's world
    /// box (its largest side).
    static func worldDifferences(_ points: [Landmarks.WorldLandmark], _ reference: [[Double]]) -> [Double] {
        let sides = (0..<3).map { axis in (reference.map { $0[axis] }.max() ?? 0) - (reference.map { $0[axis] }.min() ?? 0) }
        let side = max(sides.max() ?? 0, 1e-9)
        return zip(points, reference).map { max(abs($0.x - $1[0]), abs($0.y - $1[1]), abs($0.z - $1[2])) / side }
    }

    @Test("the landmark model on MediaPipe's own regions, frame by frame, gives MediaPipe's landmarks",
          TestData.required(TrackingClips.gesture), arguments: pipelines)
    func sameLandmarksOnMediaPipesRegions(_ name: String) throws {
        let document = try #require(Self.document)
        let pipeline = try #require(document.pipelines[name])
        let landmarker = try LandmarkBundles.landmarker(pipeline.bundle)
        let settings = try Landmarker.Settings(LandmarkerOptions(), description: landmarker.description)
        let clip = try #require(document.clips[pipeline.clip])
        let frames = try TrackingClips.frames(pipeline.clip)
        var differences: [Double] = []
        for (index, (frame, reference)) in zip(frames, pipeline.frames).enumerated() {
            let upright = frame.image.orientedUpright()
            let found = try reference.rois.compactMap { roi in
                let region = RegionOfInterest(centerX: roi.x, centerY: roi.y, width: roi.width, height: roi.height, rotation: roi.rotation)
                return try landmarker.landmarks(onUpright: upright, region: region, score: 1, settings: settings)?.instance
            }
            #expect(found.count == reference.instances.count, "\(name) frame \(index): \(found.count) instances, MediaPipe \(reference.instances.count)")
            for (instance, expected) in Self.paired(found, reference.instances) {
                // The landmark stage alone: MediaPipe's landmarks before its output smoothing.
                let apart = Self.differences(instance.landmarks, expected.unsmoothed(width: clip.width, height: clip.height))
                differences += apart
                #expect(apart.allSatisfy { $0 <= 0.02 }, "\(name) frame \(index): a point \((apart.max() ?? 0) * 100)% of the box off")
            }
        }
        let sorted = differences.sorted()
        print("landmark-tracking-stage | \(name) | \(differences.count) points on MediaPipe's regions | median \(String(format: "%.3f", Self.percent(sorted, 0.5)))%, largest \(String(format: "%.3f", (sorted.last ?? 0) * 100))% of the box")
    }

    /// Each reference instance with the found instance nearest it (by the first point: a wrist, the nose).
    static func paired(_ found: [Landmarks], _ reference: [Document.Instance]) -> [(Landmarks, Document.Instance)] {
        var unused = Array(found.indices), pairs: [(Landmarks, Document.Instance)] = []
        for expected in reference {
            func distance(_ i: Int) -> Double {
                abs(found[i].landmarks[0].x - expected.landmarks[0][0]) + abs(found[i].landmarks[0].y - expected.landmarks[0][1])
            }
            guard let pick = unused.min(by: { distance($0) < distance($1) }) else { break }
            unused.removeAll { $0 == pick }
            pairs.append((found[pick], expected))
        }
        return pairs
    }

    /// How far each point is from the reference's, in x or y, as a fraction of the reference's landmark box
    /// (its larger side).
    static func differences(_ points: [Landmark], _ reference: [[Double]]) -> [Double] {
        let xs = reference.map { $0[0] }, ys = reference.map { $0[1] }
        let side = max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0), 1e-9)
        return zip(points, reference).map { max(abs($0.x - $1[0]), abs($0.y - $1[1])) / side }
    }

    /// The value at `fraction` of sorted fractions, in percent.
    static func percent(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))] * 100
    }

    @Test("the tracking rules give MediaPipe's next regions from MediaPipe's own landmarks", arguments: pipelines)
    func sameNextRegions(_ name: String) throws {
        let document = try #require(Self.document)
        let pipeline = try #require(document.pipelines[name])
        let clip = try #require(document.clips[pipeline.clip])
        let description = try #require(try ModelBundle(at: LandmarkBundles.bundle(pipeline.bundle), registry: .vision).landmarks)
        let rule = try #require(description.tracking)
        var largest = (centre: 0.0, side: 0.0, rotation: 0.0), regions = 0
        for (index, frame) in pipeline.frames.enumerated() {
            for instance in frame.instances {
                // The points the rule reads: the hand's and face's own landmarks, the body's smoothed auxiliary two.
                let points: [[Double]]
                if let smoothed = instance.auxiliary_landmarks_smoothed {
                    points = smoothed
                } else {
                    points = rule.points.isEmpty ? instance.landmarks : rule.points.map { instance.landmarks[$0] }
                }
                let normalized = points.map { (x: Float($0[0] / Double(clip.width)), y: Float($0[1] / Double(clip.height))) }
                let region = try #require(LandmarkTracker.region(normalized, rule: rule.region, width: clip.width, height: clip.height), "\(name) frame \(index)")
                let expected = instance.roi_from_landmarks
                let centre = max(abs(region.centerX - expected.x), abs(region.centerY - expected.y))
                let side = max(abs(region.width - expected.width), abs(region.height - expected.height))
                let rotation = abs(remainder(region.rotation - expected.rotation, 2 * Double.pi))
                (largest.centre, largest.side, largest.rotation) = (max(largest.centre, centre), max(largest.side, side), max(largest.rotation, rotation))
                regions += 1
                // The reference's landmarks are rounded to 6 digits: a few thousandths of a pixel.
                #expect(centre < 0.02 && side < 0.02 && rotation < 1e-4, "\(name) frame \(index): region \(region), MediaPipe \(expected)")
            }
        }
        #expect(regions > 0)
        print("landmark-tracking-region | \(name) | \(regions) regions | centre ≤ \(largest.centre) px | side ≤ \(largest.side) px | rotation ≤ \(largest.rotation) rad")
    }

    @Test("the body's one-euro smoothing gives MediaPipe's smoothed auxiliary points")
    func sameSmoothing() throws {
        let document = try #require(Self.document)
        let pipeline = try #require(document.pipelines["pose"])
        let clip = try #require(document.clips[pipeline.clip])
        let description = try #require(try ModelBundle(at: LandmarkBundles.bundle("pose"), registry: .vision).landmarks)
        let rule = try #require(description.tracking)
        let smoothing = try #require(rule.smoothing)
        var filters: [OneEuroFilter] = []
        var largest = 0.0, compared = 0
        for (index, frame) in pipeline.frames.enumerated() {
            guard let instance = frame.instances.first, let raw = instance.auxiliary_landmarks,
                  let smoothed = instance.auxiliary_landmarks_smoothed
            else {
                filters = []  // The graph's filter forgets the body when it is lost.
                continue
            }
            if filters.isEmpty { filters = Array(repeating: OneEuroFilter(smoothing), count: 4) }
            let normalized = raw.map { (x: Float($0[0] / Double(clip.width)), y: Float($0[1] / Double(clip.height))) }
            let size = try #require(LandmarkTracker.objectScale(normalized, rule: rule.region, width: clip.width, height: clip.height))
            // MediaPipe's Python solutions stamp frame n at (n + 1) × 33,333 µs.
            let time = Duration.microseconds(33_333 * (index + 1))
            for point in 0..<2 {
                let x = Double(filters[2 * point](Float(raw[point][0]), at: time, valueScale: 1 / Float(size)))
                let y = Double(filters[2 * point + 1](Float(raw[point][1]), at: time, valueScale: 1 / Float(size)))
                let difference = max(abs(x - smoothed[point][0]), abs(y - smoothed[point][1]))
                largest = max(largest, difference)
                compared += 1
                #expect(difference < 0.05, "frame \(index) point \(point): (\(x), \(y)), MediaPipe \(smoothed[point])")
            }
        }
        #expect(compared > 0)
        print("landmark-tracking-smoothing | pose | \(compared) points | ≤ \(largest) px")
    }

    @Test("the output smoothing fed MediaPipe's unsmoothed landmarks gives MediaPipe's smoothed ones, to the float")
    func sameOutputSmoothing() throws {
        let document = try #require(Self.document)
        let pipeline = try #require(document.pipelines["pose-smoothed"])
        let clip = try #require(document.clips[pipeline.clip])
        let rule = MediaPipeLandmarker.pose.tracking
        var smoother = LandmarkSmoother(try #require(rule.outputSmoothing))
        let width = Float(clip.width), height = Float(clip.height)
        var largest = (pixels: 0.0, visibility: 0.0, metres: 0.0), numbers = 0, exact = 0, frames = 0, lost = 0
        var mismatches: [String] = []
        for (index, frame) in pipeline.frames.enumerated() {
            guard let filter = frame.instances.first?.filter else {
                // As the tracker does when its one instance is lost.
                smoother.forgetLandmarks()
                lost += 1
                continue
            }
            // MediaPipe's filter sees x·W, y·H, z·W in floats.
            let points = filter.landmarks_in.map {
                Landmark(x: Double(Float($0[0]) * width), y: Double(Float($0[1]) * height), z: Double(Float($0[2]) * width),
                         visibility: Double(Float($0[3])))
            }
            var instance = Landmarks(
                score: 1, box: Detection.Box(x: 0, y: 0, width: 0, height: 0), landmarks: points,
                worldLandmarks: filter.world_in.map { Landmarks.WorldLandmark(x: $0[0], y: $0[1], z: $0[2]) },
                region: RegionOfInterest(centerX: 0, centerY: 0, width: 1, height: 1, rotation: 0))
            let auxiliary = filter.auxiliary_in.map { (x: Float($0[0]), y: Float($0[1])) }
            let scale = LandmarkTracker.objectScale(auxiliary, rule: rule.region, width: clip.width, height: clip.height)
            // MediaPipe's Python solutions stamp frame n at (n + 1) × 33,333 µs.
            smoother.smooth(&instance, at: .microseconds(33_333 * (index + 1)), objectScale: scale, width: clip.width, height: clip.height)
            frames += 1
            for (point, expected) in zip(instance.landmarks, filter.landmarks_out) {
                // Normalized back as MediaPipe does (floats divided by the size), compared as floats.
                let found = [Float(point.x) / width, Float(point.y) / height, Float(point.z) / width]
                for axis in 0..<3 {
                    let apart = Double(abs(found[axis] - Float(expected[axis])) * (axis == 1 ? height : width))
                    largest.pixels = max(largest.pixels, apart)
                    numbers += 1
                    if found[axis] == Float(expected[axis]) { exact += 1 } else { mismatches.append("frame \(index): axis \(axis) \(found[axis]), MediaPipe \(expected[axis])") }
                }
                let visibility = abs(Float(point.visibility ?? -1) - Float(expected[3]))
                largest.visibility = max(largest.visibility, Double(visibility))
                numbers += 1
                if visibility == 0 { exact += 1 } else { mismatches.append("frame \(index): visibility \(point.visibility ?? -1), MediaPipe \(expected[3])") }
            }
            for (point, expected) in zip(try #require(instance.worldLandmarks), filter.world_out) {
                for (value, reference) in zip([point.x, point.y, point.z], expected) {
                    let apart = Double(abs(Float(value) - Float(reference)))
                    largest.metres = max(largest.metres, apart)
                    numbers += 1
                    if apart == 0 { exact += 1 } else { mismatches.append("frame \(index): world \(value), MediaPipe \(reference)") }
                }
            }
        }
        #expect(frames > 0 && lost > 0, "the clip has tracked frames and a loss")
        // MediaPipe's arithmetic, float for float: computing the low-pass filter in floats alone, or forgetting
        // the visibility filter with the body, already changes thousands of these numbers.
        #expect(mismatches.count == 0, "\(mismatches.count) of \(numbers) numbers differ; first: \(mismatches.prefix(3))")
        print("landmark-tracking-output-smoothing | pose | \(frames) frames, \(numbers) numbers, \(exact) identical floats | landmarks ≤ \(largest.pixels) px, visibility ≤ \(largest.visibility), world ≤ \(largest.metres) m")
    }
}
