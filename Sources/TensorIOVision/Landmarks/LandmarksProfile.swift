public import TensorIO

/// Where the time of one ``Landmarker/profiledLandmarks(in:options:)`` call went: the two models' runs,
/// each split as `RunProfile` splits a run, and the landmarker's own steps between them.
///
/// The landmarker's own work besides the two invokes is ``regions`` (the detector's answer decoded),
/// ``crops`` (each region cut from the photo and written into the landmark model's input) and
/// ``mapping`` (each instance's points read, decoded and mapped back onto the photo);
/// ``cropAndMapping`` is the part MediaPipe's graph spends in its ImageToTensor and landmark-projection
/// calculators.
public struct LandmarksProfile: Sendable, Hashable {
    /// The detector's run: the photo scaled into its input, its invoke, its outputs read.
    public var detector = RunProfile()
    /// The detector's outputs decoded into candidates, suppressed, turned into regions.
    public var regions: Duration = .zero
    /// The photo turned upright, each region's crop cut (bilinear, MediaPipe's ImageToTensor).
    public var cutting: Duration = .zero
    /// The landmark model's runs, one per region, in the detector's order.
    public var landmarkRuns: [RunProfile] = []
    /// Each instance's points decoded and mapped back onto the photo (through the crop's letterbox, the
    /// region's rotation and the photo's orientation), its box, handedness and world points.
    public var pointMapping: Duration = .zero

    public init() {}

    /// The two models' invokes: the runtime's own work, the detector's and every landmark run's.
    public var invokes: Duration { landmarkRuns.reduce(detector.invoke) { $0 + $1.invoke } }

    /// The crops: cut from the photo and written into the landmark model's input (the landmark runs'
    /// preparation and input conversion).
    public var crops: Duration { landmarkRuns.reduce(cutting) { $0 + $1.preparation + $1.inputs } }

    /// The point mapping: the landmark runs' outputs read, then decoded and mapped back.
    public var mapping: Duration { landmarkRuns.reduce(pointMapping) { $0 + $1.outputs } }

    /// The region crops and the point mapping together: the landmarker's work around the landmark model.
    public var cropAndMapping: Duration { crops + mapping }

    /// The whole call.
    public var total: Duration {
        landmarkRuns.reduce(detector.total + regions + cutting + pointMapping) { $0 + $1.total }
    }
}
