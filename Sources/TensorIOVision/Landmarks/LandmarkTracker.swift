import Foundation
public import TensorIO

/// Follows hands, faces or bodies from frame to frame of a video, as MediaPipe's video mode does: the
/// landmarks an instance has on one frame give the region its landmark model sees on the next (the
/// bundle's `landmarks.tracking` rule), and the detector runs only on frames where fewer than the most
/// instances are being followed — so most frames cost one landmark model run per instance and no detection.
/// Where the bundle declares `output_smoothing` (a body's, as MediaPipe's `smooth_landmarks`), the landmarks
/// returned are smoothed over the instance's frames; ``smoothsLandmarks`` says whether.
///
/// A tracker is a value whose calls change it: each frame's answer depends on the frames before, in order,
/// so the calls are `mutating` and Swift's exclusivity rules (not a lock) keep two frames from being
/// processed at once. A copy is an independent track from the same point (two copies fed different
/// frames follow different videos). It is `Sendable`: it may move to another task, not be shared by two.
///
/// ```swift
/// var tracker = try landmarker.tracker()
/// for try await frame in try VideoReader(contentsOf: clip).frames() {
///     let found = try await tracker.landmarks(in: frame.image, timestamp: frame.timestamp)
///     print(frame.index, found.detectorRan, found.instances.count)
/// }
/// ```
public struct LandmarkTracker: Sendable {
    /// The landmarker whose models and pipeline the tracker runs.
    public let landmarker: Landmarker
    /// At most how many instances, and the least scores (the least presence is also the least for an
    /// instance to stay tracked: MediaPipe's `min_tracking_confidence`).
    public let options: LandmarkerOptions
    /// Whether the landmarks returned are smoothed by the bundle's `output_smoothing` (MediaPipe's
    /// `smooth_landmarks`, on by default there too); `false` returns each frame's landmarks as the model gives
    /// them. The smoothing of the points the next region is made of is part of tracking and stays on.
    public let smoothsLandmarks: Bool
    let settings: Landmarker.Settings
    let rule: TrackingRule
    private var tracks: [Track] = []
    private var lastTimestamp: Duration?
    /// A lost instance's output smoothing, its landmark filter forgotten, for the next instance found when at
    /// most one is followed: MediaPipe's body graph keeps its visibility and world filters across a loss.
    var lostSmoother: LandmarkSmoother?

    /// An instance being followed: the region its landmarks gave for the next frame.
    struct Track: Sendable {
        var region: RegionOfInterest
        var score: Float
        /// The smoothing filters of the tracking points, x and y of each in turn (empty before the first).
        var filters: [OneEuroFilter] = []
        /// The smoothing of the landmarks returned (`nil` before the first frame, or without output smoothing).
        var smoother: LandmarkSmoother?
    }

    /// Creates a tracker over a landmarker whose bundle declares how to track (`landmarks.tracking`).
    ///
    /// - Parameters:
    ///   - landmarker: The landmarker.
    ///   - options: At most how many instances, and the least scores; the bundle's defaults where `nil`.
    ///   - smoothsLandmarks: Whether the landmarks returned are smoothed as the bundle's `output_smoothing`
    ///     says (MediaPipe's `smooth_landmarks`); no effect when it declares none.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/unsupported` (at `landmarks.tracking`) when the bundle
    ///   has no tracking rule; `TensorIOError/Code/invalidInput` for options out of range.
    public init(landmarker: Landmarker, options: LandmarkerOptions = LandmarkerOptions(), smoothsLandmarks: Bool = true) throws {
        guard let rule = landmarker.description.tracking else {
            throw TensorIOError(
                .unsupported, "\(landmarker.bundle.url.lastPathComponent) has no tracking rule (`tensorio init --landmarker` writes one)",
                location: "landmarks.tracking")
        }
        self.landmarker = landmarker
        self.options = options
        self.smoothsLandmarks = smoothsLandmarks
        self.rule = rule
        settings = try Landmarker.Settings(options, description: landmarker.description)
    }

    /// How many instances are being followed into the next frame.
    public var trackedCount: Int { tracks.count }

    /// Forgets every instance: the next frame starts afresh with the detector (a cut in the video, a seek).
    public mutating func reset() {
        tracks = []
        lastTimestamp = nil
        lostSmoother = nil
    }

    /// The instances on the next frame of the video.
    ///
    /// - Parameters:
    ///   - frame: The frame, in any format and orientation (a video frame's orientation is its display
    ///     matrix's).
    ///   - timestamp: When the frame is shown: later than the previous frame's.
    /// - Returns: The instances, in pixels of the frame as displayed, and whether the detector ran.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/invalidInput` (at `timestamp`) when the time is not
    ///   later than the previous frame's; what `Landmarker/landmarks(in:options:)` throws. The tracker is
    ///   left as it was when a frame throws.
    public mutating func landmarks(in frame: PixelBuffer, timestamp: Duration) throws -> TrackedLandmarks {
        try check(timestamp)
        let detectorRuns = tracks.count < settings.maximumInstances
        let detected = detectorRuns ? try landmarker.detectedRegions(in: frame, settings: settings) : []
        let upright = frame.orientedUpright()
        // Changed on a copy, so that a frame that throws leaves the tracker as it was.
        var found: [Landmarks] = [], next: [Track] = [], lost = lostSmoother
        for track in candidates(detected) {
            let result = try landmarker.landmarks(onUpright: upright, region: track.region, score: track.score, settings: settings)
            take(result, of: track, at: timestamp, upright: upright, found: &found, next: &next, lost: &lost)
        }
        tracks = next
        lostSmoother = lost
        lastTimestamp = timestamp
        return TrackedLandmarks(instances: found, detectorRan: detectorRuns, timestamp: timestamp)
    }

    /// The instances on the next frame without blocking the calling task's thread; see
    /// `landmarks(in:timestamp:)`.
    ///
    /// - Parameters:
    ///   - frame: The frame.
    ///   - timestamp: When the frame is shown: later than the previous frame's.
    /// - Returns: The instances and whether the detector ran.
    /// - Throws: `CancellationError` when the task is cancelled; otherwise as the synchronous call.
    public mutating func landmarks(in frame: PixelBuffer, timestamp: Duration) async throws -> TrackedLandmarks {
        try check(timestamp)
        let detectorRuns = tracks.count < settings.maximumInstances
        let detected = detectorRuns ? try await landmarker.detectedRegions(in: frame, settings: settings) : []
        let upright = frame.orientedUpright()
        // Changed on a copy, so that a frame that throws leaves the tracker as it was.
        var found: [Landmarks] = [], next: [Track] = [], lost = lostSmoother
        for track in candidates(detected) {
            try Task.checkCancellation()
            let result = try await landmarker.landmarks(onUpright: upright, region: track.region, score: track.score, settings: settings)
            take(result, of: track, at: timestamp, upright: upright, found: &found, next: &next, lost: &lost)
        }
        tracks = next
        lostSmoother = lost
        lastTimestamp = timestamp
        return TrackedLandmarks(instances: found, detectorRan: detectorRuns, timestamp: timestamp)
    }

    // MARK: - The steps

    private func check(_ timestamp: Duration) throws {
        if let lastTimestamp, timestamp <= lastTimestamp {
            throw TensorIOError(
                .invalidInput, "the frame's time \(timestamp) is not later than the previous frame's (\(lastTimestamp)); reset() to start again",
                location: "timestamp")
        }
    }

    /// What one candidate's landmark run gives this frame (the sync and async calls share it): no instance
    /// loses the track; an instance is kept, smoothed, and the track follows it to its next region, or is
    /// lost when no region can be made of its points.
    private func take(
        _ result: (instance: Landmarks, points: [Landmark])?, of track: Track, at timestamp: Duration, upright: PixelBuffer,
        found: inout [Landmarks], next: inout [Track], lost: inout LandmarkSmoother?
    ) {
        guard let result else { return lose(track, keeping: &lost) }
        var track = track
        found.append(smoothed(result.instance, of: &track, lost: &lost, points: result.points, at: timestamp, width: upright.width, height: upright.height))
        if follow(&track, points: result.points, at: timestamp, width: upright.width, height: upright.height) {
            next.append(track)
        } else {
            lose(track, keeping: &lost)
        }
    }

    /// The regions the landmark model runs on: the new detections' then the tracked ones, as MediaPipe's
    /// `AssociationNormRectCalculator` takes them — each in turn replaces the earlier ones it overlaps by more
    /// than the rule's `maximumOverlap`, so a tracked instance wins over a new detection of itself.
    private func candidates(_ detected: [(RegionOfInterest, score: Float)]) -> [Track] {
        let all = detected.map { Track(region: $0.0, score: $0.score) } + tracks
        guard let threshold = rule.region.maximumOverlap else { return all }
        return RegionOfInterest.associated(all.map { ($0.region, $0) }, threshold: threshold).map(\.1)
    }

    /// Moves the track to the region its points give for the next frame; `false` when they give none (a
    /// point missing, not finite, or a region far outside any sensible size), and the instance is lost.
    func follow(_ track: inout Track, points: [Landmark], at time: Duration, width: Int, height: Int) -> Bool {
        let imageWidth = Double(max(1, width)), imageHeight = Double(max(1, height))
        guard var normalized = trackingPoints(points, width: width, height: height) else { return false }
        if let smoothing = rule.smoothing {
            // PoseLandmarkFiltering: the points are smoothed in pixels (x·W, y·H in floats), their speed divided
            // by the instance's size, and normalized back in floats.
            guard let size = Self.objectScale(normalized, rule: rule.region, width: width, height: height) else { return false }
            if track.filters.count != normalized.count * 2 {
                track.filters = Array(repeating: OneEuroFilter(smoothing), count: normalized.count * 2)
            }
            // MediaPipe's min_allowed_object_scale: a smaller instance passes through unsmoothed.
            if Float(size) >= Float(1e-6) {
                let valueScale = 1 / Float(size), width = Float(imageWidth), height = Float(imageHeight)
                for index in normalized.indices {
                    let x = track.filters[2 * index](normalized[index].x * width, at: time, valueScale: valueScale)
                    let y = track.filters[2 * index + 1](normalized[index].y * height, at: time, valueScale: valueScale)
                    normalized[index] = (x / width, y / height)
                }
            }
        }
        guard let region = Self.region(normalized, rule: rule.region, width: width, height: height) else { return false }
        // A region a hundred times the frame, or under a pixel (points all at one place: MediaPipe's bounds,
        // which start from the smallest positive float, then leave a side of 1e-38), can hold no instance:
        // it would only crop border pixels or one pixel, so the instance is lost rather than followed.
        let limit = 100 * max(imageWidth, imageHeight)
        guard region.width <= limit, region.height <= limit, abs(region.centerX) <= limit, abs(region.centerY) <= limit,
              region.width >= 1, region.height >= 1
        else { return false }
        track.region = region
        return true
    }

    /// The region a rule makes of normalized points: their upright box and the points as keypoints
    /// (MediaPipe's `LandmarksToDetectionCalculator`), then the rule.
    static func region(_ points: [(x: Float, y: Float)], rule: RegionRule, width: Int, height: Int) -> RegionOfInterest? {
        guard !points.isEmpty, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let xs = points.map(\.x), ys = points.map(\.y)
        let left = xs.min()!, top = ys.min()!, right = xs.max()!, bottom = ys.max()!
        return RegionOfInterest.region(
            normalizedBox: (left, top, right - left, bottom - top), keypoints: points, imageWidth: max(1, width),
            imageHeight: max(1, height), rule: rule)
    }
}

extension Landmarker {
    /// A tracker that follows instances from frame to frame with this landmarker (see ``LandmarkTracker``).
    ///
    /// - Parameters:
    ///   - options: At most how many instances, and the least scores.
    ///   - smoothsLandmarks: Whether the landmarks returned are smoothed as the bundle's `output_smoothing`
    ///     says (MediaPipe's `smooth_landmarks`).
    /// - Returns: A tracker with nothing tracked yet.
    /// - Throws: What ``LandmarkTracker/init(landmarker:options:smoothsLandmarks:)`` throws.
    public func tracker(options: LandmarkerOptions = LandmarkerOptions(), smoothsLandmarks: Bool = true) throws -> LandmarkTracker {
        try LandmarkTracker(landmarker: self, options: options, smoothsLandmarks: smoothsLandmarks)
    }
}
