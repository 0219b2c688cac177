/// What a ``LandmarkTracker`` found on one frame.
public struct TrackedLandmarks: Sendable, Hashable {
    /// The instances, in MediaPipe's order: the detector's new ones first, then the ones followed from the
    /// previous frame (a tracked instance keeps the detector score it was first found with). As in MediaPipe,
    /// a frame where the detector runs can hold more than the most instances: up to that many new ones, which
    /// do not overlap the tracked ones, besides those; the next frame follows them all.
    public var instances: [Landmarks]
    /// Whether the detector ran on this frame: on the first, and whenever fewer than the most instances were
    /// followed from the previous one.
    public var detectorRan: Bool
    /// The frame's time, as given.
    public var timestamp: Duration

    /// Creates a frame's result.
    ///
    /// - Parameters:
    ///   - instances: The instances.
    ///   - detectorRan: Whether the detector ran.
    ///   - timestamp: The frame's time.
    public init(instances: [Landmarks], detectorRan: Bool, timestamp: Duration) {
        self.instances = instances
        self.detectorRan = detectorRan
        self.timestamp = timestamp
    }
}
