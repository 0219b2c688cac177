/// The output smoothing of one tracked instance (``TrackingRule/OutputSmoothing``): MediaPipe's
/// `PoseLandmarkFiltering` behind its `smooth_landmarks` switch — the visibility low-pass filtered
/// (`VisibilitySmoothingCalculator`), the landmarks and the world landmarks one-euro filtered
/// (`LandmarksSmoothingCalculator`), each coordinate by a filter of its own.
///
/// MediaPipe's landmark filter works in pixels of the frame, in floats (`x·W`, `y·H`, `z·W`), its speed
/// divided by the instance's size; its world filter in metres, unscaled.
struct LandmarkSmoother: Sendable {
    let settings: TrackingRule.OutputSmoothing
    /// x, y and z of each landmark in turn (empty before the first frame, and after the instance was lost).
    private var points: [OneEuroFilter] = []
    /// x, y and z of each world landmark in turn.
    private var world: [OneEuroFilter] = []
    private var visibility: [LowPassFilter] = []

    init(_ settings: TrackingRule.OutputSmoothing) {
        self.settings = settings
    }

    /// Forgets the landmarks' filter, keeping the visibility's and the world landmarks'. MediaPipe's body
    /// graph resets the landmark filter on a frame without a body (its calculator also reads the frame's size,
    /// so it runs then and sees no landmarks); its visibility and world filters read the landmarks alone, so
    /// they never run on such a frame and carry their state into the next body found.
    mutating func forgetLandmarks() {
        points = []
    }

    /// Smooths `instance` found at `time` on a frame of `width` × `height` pixels.
    ///
    /// - Parameters:
    ///   - instance: The instance: its landmarks, visibility and world landmarks are replaced by the
    ///     smoothed ones, its box made anew around them.
    ///   - time: The frame's time.
    ///   - objectScale: The instance's size in pixels; `nil` (no region could be made) or under 1e-6
    ///     (MediaPipe's `min_allowed_object_scale`) leaves the landmarks' positions as they are.
    ///   - width: The frame's width.
    ///   - height: The frame's height.
    mutating func smooth(_ instance: inout Landmarks, at time: Duration, objectScale: Double?, width: Int, height: Int) {
        let count = instance.landmarks.count
        if let alpha = settings.visibilityAlpha {
            if visibility.count != count { visibility = Array(repeating: LowPassFilter(), count: count) }
            for index in 0..<count {
                guard let value = instance.landmarks[index].visibility else { continue }
                instance.landmarks[index].visibility = Double(visibility[index](Float(value), alpha: Float(alpha)))
            }
        }
        if let landmarks = settings.landmarks {
            if points.count != 3 * count { points = Array(repeating: OneEuroFilter(landmarks), count: 3 * count) }
            // MediaPipe: object_scale < min_allowed_object_scale (1e-6) returns the landmarks as they are.
            if let objectScale, Float(objectScale) >= Float(1e-6) {
                let valueScale = 1 / Float(objectScale)
                for index in 0..<count {
                    var point = instance.landmarks[index]
                    point.x = Double(points[3 * index](Float(point.x), at: time, valueScale: valueScale))
                    point.y = Double(points[3 * index + 1](Float(point.y), at: time, valueScale: valueScale))
                    point.z = Double(points[3 * index + 2](Float(point.z), at: time, valueScale: valueScale))
                    instance.landmarks[index] = point
                }
                instance.box = Landmarker.box(around: instance.landmarks, width: width, height: height)
            }
        }
        if let settings = settings.worldLandmarks, var worldLandmarks = instance.worldLandmarks {
            if world.count != 3 * worldLandmarks.count {
                world = Array(repeating: OneEuroFilter(settings), count: 3 * worldLandmarks.count)
            }
            for index in worldLandmarks.indices {
                var point = worldLandmarks[index]
                point.x = Double(world[3 * index](Float(point.x), at: time, valueScale: 1))
                point.y = Double(world[3 * index + 1](Float(point.y), at: time, valueScale: 1))
                point.z = Double(world[3 * index + 2](Float(point.z), at: time, valueScale: 1))
                worldLandmarks[index] = point
            }
            instance.worldLandmarks = worldLandmarks
        }
    }
}
