/// One instance a landmarker found — a hand, a face, a body — with its points in pixels of the photo as
/// displayed (after its EXIF orientation), origin at the top-left corner.
///
/// ```swift
/// let landmarker = try Landmarker(bundle: ModelBundle(at: URL(filePath: "hand.tiobundle"), registry: .vision))
/// for hand in try landmarker.landmarks(contentsOf: URL(filePath: "photo.jpg")) {
///     print(hand.handedness?.label ?? "", hand.score, hand.landmarks[0])  // the wrist
/// }
/// ```
public struct Landmarks: Sendable, Hashable {
    /// Which hand, as the landmark model says, with its probability.
    ///
    /// MediaPipe's hand models were trained on mirrored selfie photos: on a photo that is not mirrored, a
    /// right hand is reported "Left". The label is the model's, as MediaPipe reports it.
    public struct Handedness: Sendable, Hashable {
        /// The label, such as "Left" or "Right".
        public var label: String
        /// Its probability, from 0.5 to 1.
        public var score: Double
    }

    /// A point in metres, relative to the instance's own centre (a hand's middle, a body's hips), turned
    /// back by the region's rotation as MediaPipe's `WorldLandmarkProjectionCalculator` does.
    public struct WorldLandmark: Sendable, Hashable {
        /// Metres to the right (on the photo as displayed).
        public var x: Double
        /// Metres down.
        public var y: Double
        /// Metres away from the camera.
        public var z: Double
    }

    /// The detector's score for the instance: how the instances are ordered, best first.
    public var score: Double
    /// How likely the landmark model thinks the instance is really there, where the model says.
    public var presence: Double?
    /// Which hand, for hand models.
    public var handedness: Handedness?
    /// The smallest upright box holding every landmark, in the photo's pixels.
    public var box: Detection.Box
    /// The points, in the model's order (see the bundle's `connections` for the skeleton).
    public var landmarks: [Landmark]
    /// The points in metres, where the model gives them.
    public var worldLandmarks: [WorldLandmark]?
    /// The region of the photo the landmark model saw.
    public var region: RegionOfInterest
}
