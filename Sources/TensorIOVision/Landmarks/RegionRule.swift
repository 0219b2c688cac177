import Foundation

/// How a landmarker turns a detection into the region its landmark model sees: MediaPipe's
/// `DetectionsToRectsCalculator` (the rotation from two keypoints) followed by its
/// `RectTransformationCalculator` (shift, square, scale), as its hand, face and pose graphs set them.
///
/// Nothing of this is in a model file: MediaPipe compiles it into its graphs, and a bundle declares it in
/// its `landmarks` entry (docs/model-json.md, "Landmarks").
public struct RegionRule: Sendable, Hashable {
    /// Which side of the region a square region takes.
    public enum Square: String, Sendable, Hashable, CaseIterable {
        /// The region keeps its proportions.
        case none
        /// Both sides become the longer one (MediaPipe's `square_long`).
        case long
        /// Both sides become the shorter one (MediaPipe's `square_short`).
        case short
    }

    /// What gives the region its first size and centre.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The detection's box (MediaPipe's `DetectionsToRectsCalculator`: hands, faces).
        case box
        /// The rotation's two keypoints: centred on the first, twice their distance wide and high
        /// (MediaPipe's `AlignmentPointsRectsCalculator`: bodies, whose detector's second keypoint encodes
        /// the body's extent).
        case keypoints
        /// The smallest box holding every keypoint in the region's own turned frame (MediaPipe's
        /// `HandLandmarksToRectCalculator`: a hand tracked from its landmarks); needs a rotation.
        case rotatedBox = "rotated_box"
    }

    /// The rotation: the angle of the line from one keypoint to another, turned to a target angle.
    public struct Rotation: Sendable, Hashable {
        /// The keypoint the line starts at (a palm's wrist, a body's hip centre).
        public var startKeypoint: Int
        /// The keypoint the line ends at (a palm's middle-finger knuckle).
        public var endKeypoint: Int
        /// Empty, or two keypoints: the line then ends halfway between ``endKeypoint`` and the midpoint of
        /// these two — MediaPipe's hand tracking turns a hand by the wrist and the mean of its index, middle
        /// and ring knuckles, weighted so.
        public var endMidpointOf: [Int]
        /// The angle the line is turned to, in degrees counter-clockwise from the positive x axis (90: up).
        public var targetDegrees: Double

        /// Creates a rotation rule.
        ///
        /// - Parameters:
        ///   - startKeypoint: The keypoint the line starts at.
        ///   - endKeypoint: The keypoint the line ends at.
        ///   - targetDegrees: The angle the line is turned to, in degrees (90: pointing up).
        ///   - endMidpointOf: Empty, or two keypoints whose midpoint the line's end is averaged with.
        public init(startKeypoint: Int, endKeypoint: Int, targetDegrees: Double, endMidpointOf: [Int] = []) {
            self.startKeypoint = startKeypoint
            self.endKeypoint = endKeypoint
            self.targetDegrees = targetDegrees
            self.endMidpointOf = endMidpointOf
        }

        /// Every keypoint the rotation reads.
        var keypoints: [Int] { [startKeypoint, endKeypoint] + endMidpointOf }
    }

    /// What gives the region its first size and centre.
    public var source: Source
    /// The rotation, or `nil` for a region that stays upright (required when ``source`` is
    /// ``Source/keypoints`` or ``Source/rotatedBox``).
    public var rotation: Rotation?
    /// The region's width as a multiple of the detection's (after squaring).
    public var scaleX: Double
    /// The region's height as a multiple of the detection's (after squaring).
    public var scaleY: Double
    /// How far the centre moves along the region's own x axis, in region widths.
    public var shiftX: Double
    /// How far the centre moves along the region's own y axis, in region heights (negative: up).
    public var shiftY: Double
    /// Which side a square region takes.
    public var square: Square
    /// Regions overlapping an earlier one by more than this intersection over union (of their upright
    /// boxes) replace it — MediaPipe's `AssociationNormRectCalculator` in its hand graph; `nil` keeps
    /// every region.
    public var maximumOverlap: Double?

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - source: What gives the region its first size and centre.
    ///   - rotation: The rotation, or `nil` for an upright region.
    ///   - scaleX: The width as a multiple of the detection's.
    ///   - scaleY: The height as a multiple of the detection's.
    ///   - shiftX: The move along the region's x axis, in region widths.
    ///   - shiftY: The move along the region's y axis, in region heights.
    ///   - square: Which side a square region takes.
    ///   - maximumOverlap: The overlap above which a later region replaces an earlier one, or `nil`.
    public init(
        source: Source = .box, rotation: Rotation?, scaleX: Double = 1, scaleY: Double = 1, shiftX: Double = 0,
        shiftY: Double = 0, square: Square = .none, maximumOverlap: Double? = nil
    ) {
        self.source = source
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shiftX = shiftX
        self.shiftY = shiftY
        self.square = square
        self.maximumOverlap = maximumOverlap
    }
}
