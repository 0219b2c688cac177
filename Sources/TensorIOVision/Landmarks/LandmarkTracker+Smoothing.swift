/// The tracker's smoothing: of the landmarks it returns (the rule's `output_smoothing`), and the instance's
/// size both smoothings scale the speed by.
extension LandmarkTracker {
    /// The instance as returned: smoothed by the rule's output smoothing when the tracker smooths, with the
    /// track's filters (a new track takes `lost`, a lost instance's, when there is one: see `lostSmoother`).
    func smoothed(
        _ instance: Landmarks, of track: inout Track, lost: inout LandmarkSmoother?, points: [Landmark], at time: Duration,
        width: Int, height: Int
    ) -> Landmarks {
        guard smoothsLandmarks, let output = rule.outputSmoothing else { return instance }
        if track.smoother == nil {
            track.smoother = lost ?? LandmarkSmoother(output)
            lost = nil
        }
        var instance = instance
        let scale = trackingPoints(points, width: width, height: height).flatMap {
            Self.objectScale($0, rule: rule.region, width: width, height: height)
        }
        track.smoother?.smooth(&instance, at: time, objectScale: scale, width: width, height: height)
        return instance
    }

    /// Keeps the output smoothing of a lost instance for the next one found, when at most one instance is
    /// followed (MediaPipe's body graph, see `LandmarkSmoother/forgetLandmarks()`); with more, which lost
    /// instance a new one would continue is unknown, and each starts afresh.
    func lose(_ track: Track, keeping lost: inout LandmarkSmoother?) {
        guard settings.maximumInstances == 1, var smoother = track.smoother else { return }
        smoother.forgetLandmarks()
        lost = smoother
    }

    /// The rule's tracking points, normalized to the frame; `nil` when the model gave too few.
    func trackingPoints(_ points: [Landmark], width: Int, height: Int) -> [(x: Float, y: Float)]? {
        let imageWidth = Double(max(1, width)), imageHeight = Double(max(1, height))
        guard rule.points.allSatisfy(points.indices.contains) else { return nil }
        let chosen = rule.points.isEmpty ? points : rule.points.map { points[$0] }
        return chosen.map { (x: Float($0.x / imageWidth), y: Float($0.y / imageHeight)) }
    }

    /// The instance's size, in pixels, by which its smoothing divides the points' speed: PoseLandmarkFiltering's
    /// object scale, the mean side of the plain region of the unsmoothed tracking points (no shift, square or
    /// scale); `nil` when they make none.
    static func objectScale(_ normalized: [(x: Float, y: Float)], rule: RegionRule, width: Int, height: Int) -> Double? {
        var plain = rule
        (plain.scaleX, plain.scaleY, plain.shiftX, plain.shiftY, plain.square) = (1, 1, 0, 0, .none)
        guard let bare = Self.region(normalized, rule: plain, width: width, height: height) else { return nil }
        return (bare.width + bare.height) / 2
    }
}
