/// What a bundle's `landmarks` entry says (docs/model-json.md, "Landmarks"): a two-stage pipeline — a
/// detector bundle inside this one finds instances, a rule turns each into a region, the bundle's own model
/// (the landmark model) runs on the region's crop — and how that model's outputs read.
public struct LandmarksDescription: Sendable, Hashable {
    /// The landmark model's point output.
    public struct Points: Sendable, Hashable {
        /// The output's name.
        public var output: String
        /// How many points the output holds.
        public var count: Int
        /// How many of them, from the first, are the instance's landmarks (the rest — a pose model's
        /// auxiliary points — only serve the model's own tracking).
        public var keep: Int
        /// Numbers per point: 2 (x, y), 3 (z), 4 (visibility) or 5 (presence).
        public var values: Int
        /// z is divided by this as well as by the input's width (MediaPipe's `normalize_z`).
        public var normalizeZ: Double
        /// How the visibility and presence numbers become probabilities (for 4 and 5 values a point).
        public var activation: LandmarkScoreActivation
    }

    /// An output holding one score (the instance's presence) and how it reads.
    public struct Score: Sendable, Hashable {
        /// The output's name.
        public var output: String
        /// How the number becomes a probability.
        public var activation: LandmarkScoreActivation
    }

    /// The handedness output: one number, the first label's probability (MediaPipe's binary
    /// classification: the second label gets one minus it).
    public struct Handedness: Sendable, Hashable {
        /// The output's name.
        public var output: String
        /// The two labels, first the one whose probability the model gives.
        public var labels: [String]
    }

    /// A heatmap output the points are refined from (MediaPipe's `RefineLandmarksFromHeatmapCalculator`,
    /// in its pose graph): `height × width × points.count` numbers, one map per point.
    public struct Heatmap: Sendable, Hashable {
        /// The output's name.
        public var output: String
        /// The map's height, from the output's shape.
        public var height: Int
        /// The map's width, from the output's shape.
        public var width: Int
        /// The side of the square window around a point whose weighted centre replaces it (odd).
        public var kernel: Int
        /// The least confidence (sigmoid of the map) in the window for the point to move.
        public var minimumConfidence: Double
    }

    /// The detector bundle's folder, inside this bundle.
    public var detector: String
    /// How a detection becomes the region the landmark model sees.
    public var region: RegionRule
    /// The points.
    public var points: Points
    /// The instance's presence, where the model gives it.
    public var presence: Score?
    /// Left or right hand, where the model says.
    public var handedness: Handedness?
    /// The heatmap the points are refined from, where the model has one.
    public var heatmap: Heatmap?
    /// The output of world points (metres, `points.count` × 3), where the model has one.
    public var worldPoints: String?
    /// Pairs of point indices drawn as the skeleton.
    public var connections: [[Int]]
    /// At most this many instances, by default (``LandmarkerOptions/maximumInstances`` overrides it).
    public var maximumInstances: Int
    /// The least detector score an instance needs, by default.
    public var minimumDetectionScore: Double
    /// The least presence the landmark model must give an instance, by default.
    public var minimumPresenceScore: Double
    /// How an instance is followed from frame to frame in a video (``LandmarkTracker``), or `nil` for a
    /// pipeline that only runs photo by photo.
    public var tracking: TrackingRule? = nil

    /// The most points a landmark model may declare (MediaPipe's face mesh with irises has 478).
    public static let maximumPoints = 1024
    /// The widest heatmap window a bundle may declare.
    public static let maximumHeatmapKernel = 63
    /// The most instances a call may ask for.
    public static let maximumInstances = 64
}

/// How a landmark model's score becomes a probability.
public enum LandmarkScoreActivation: String, Sendable, Hashable, CaseIterable {
    /// The number is one already.
    case none
    /// `1 / (1 + e^-x)`.
    case sigmoid
}
