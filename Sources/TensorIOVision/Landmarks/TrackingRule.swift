/// How a ``LandmarkTracker`` turns an instance's landmarks on one frame into the region its landmark model
/// sees on the next — MediaPipe's `…LandmarksToRoi` subgraphs of its video-mode graphs (a hand's
/// `HandLandmarkLandmarksToRoi`, a face's `FaceLandmarkLandmarksToRoi`, a body's `PoseLandmarksToRoi` with
/// the smoothing of `PoseLandmarkFiltering` before it), and the smoothing of the landmarks it returns.
///
/// Like ``RegionRule``, nothing of this is in a model file: MediaPipe compiles it into its graphs, and a
/// bundle declares it in its `landmarks` entry's `tracking` (docs/model-json.md, "Landmarks").
public struct TrackingRule: Sendable, Hashable {
    /// The settings of MediaPipe's one-euro filter (`LandmarksSmoothingCalculator`'s `one_euro_filter`): as
    /// ``TrackingRule/smoothing``, applied to the tracking points before the region is made of them (a body's
    /// region follows its smoothed auxiliary points; positions in pixels, their speed scaled by the instance's
    /// size), and in ``OutputSmoothing``. MediaPipe holds them as floats; so do the filters.
    public struct Smoothing: Sendable, Hashable {
        /// The least cutoff frequency, in hertz: lower smooths slow motion more.
        public var minimumCutoff: Double
        /// How much the cutoff rises with speed: higher follows fast motion more closely.
        public var beta: Double
        /// The cutoff frequency of the speed's own filter, in hertz.
        public var derivativeCutoff: Double
        /// The frame rate assumed until two frames give one, in hertz.
        public var frequency: Double

        /// Creates a filter's settings.
        ///
        /// - Parameters:
        ///   - minimumCutoff: The least cutoff frequency, in hertz.
        ///   - beta: How much the cutoff rises with speed.
        ///   - derivativeCutoff: The speed filter's cutoff, in hertz.
        ///   - frequency: The frame rate assumed before two frames give one.
        public init(minimumCutoff: Double, beta: Double, derivativeCutoff: Double, frequency: Double) {
            self.minimumCutoff = minimumCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
            self.frequency = frequency
        }
    }

    /// Which of the landmark model's points (indices into all it gives, auxiliary ones included) the region
    /// is made of, in order; the region rule's keypoints index this list. Empty: every point, in order.
    public var points: [Int]
    /// How the points become the region: ``RegionRule/Source/box`` (their upright box, turned by two of
    /// them: a face), ``RegionRule/Source/keypoints`` (a body's two alignment points),
    /// ``RegionRule/Source/rotatedBox`` (their box in the turned frame: a hand); the rule's `maximumOverlap`
    /// is the overlap above which a new detection's region gives way to a tracked one.
    public var region: RegionRule
    /// The smoothing of the points before the region is made, or `nil`.
    public var smoothing: Smoothing?
    /// The smoothing of the landmarks the tracker returns, or `nil` (a ``LandmarkTracker`` can turn it off).
    public var outputSmoothing: OutputSmoothing?

    /// Creates a tracking rule.
    ///
    /// - Parameters:
    ///   - points: The points the region is made of, or empty for every point.
    ///   - region: How the points become the region.
    ///   - smoothing: The smoothing of the points, or `nil`.
    ///   - outputSmoothing: The smoothing of the landmarks the tracker returns, or `nil`.
    public init(points: [Int] = [], region: RegionRule, smoothing: Smoothing? = nil, outputSmoothing: OutputSmoothing? = nil) {
        self.points = points
        self.region = region
        self.smoothing = smoothing
        self.outputSmoothing = outputSmoothing
    }
}
