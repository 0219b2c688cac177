import TensorIO

/// How to turn an SSD model's raw box and score tensors into detections: the fields of MediaPipe's
/// `TensorsToDetectionsCalculatorOptions` that its CPU path for raw (not post-processed) outputs uses,
/// with the proto's defaults (`mediapipe/calculators/tensor/tensors_to_detections_calculator.proto`).
///
/// The options come from a `model.json`; `validate(location:)` checks them before a `BoxDecoder`
/// uses them.
struct BoxDecodingOptions: Sendable, Hashable {
    /// How the four box values of one prediction are laid out.
    enum BoxFormat: Sendable, Hashable {
        /// `[yCenter, xCenter, height, width]`, keypoints `[y, x]` (MediaPipe's default, `YXHW`).
        case yxhw
        /// `[xCenter, yCenter, width, height]`, keypoints `[x, y]` (`XYWH`; what
        /// `reverse_output_order: true` means).
        case xywh
        /// Distances from the anchor centre to the `[left, top, right, bottom]` edges, keypoints
        /// `[x, y]` (`XYXY`): MediaPipe takes the centre offset as `(right − left) / 2` and the width as
        /// `left + right`, then scales both like the other formats.
        case xyxy
    }

    /// How many classes each box is scored for (required; no proto default).
    var numClasses: Int
    /// How many boxes the model predicts: one per anchor (required).
    var numBoxes: Int
    /// How many values each box prediction holds: 4 + 2 × `numKeypoints` (required).
    var numCoords: Int
    /// Where the four box values start in a prediction (proto default 0).
    var boxCoordOffset = 0
    /// Where the keypoints start in a prediction (proto default 0).
    var keypointCoordOffset = 0
    /// How many keypoints each prediction holds (proto default 0).
    var numKeypoints = 0
    /// Values per keypoint; MediaPipe supports only 2 (proto default 2).
    var valuesPerKeypoint = 2
    /// The raw centre offsets are divided by these, then multiplied by the anchor's size (proto default
    /// 0, which divides by zero: the validation asks for a non-zero value).
    var xScale: Float = 0
    var yScale: Float = 0
    /// The raw sizes are divided by these (proto default 0, refused likewise).
    var wScale: Float = 0
    var hScale: Float = 0
    /// Whether sizes are `exp(raw / scale) × anchor size` rather than `raw / scale × anchor size`
    /// (proto default false).
    var applyExponentialOnBoxSize = false
    /// The layout of the box values (proto default `BoxFormat/yxhw`).
    var boxFormat = BoxFormat.yxhw
    /// Whether raw scores are logits, turned into probabilities by the sigmoid (proto default false).
    var sigmoidScore = false
    /// Clamps logits to ±this before the sigmoid; `nil` for no clamping (unset in the proto).
    var scoreClippingThreshold: Float?
    /// Drops boxes whose best score is below this; `nil` keeps every score (unset in the proto).
    var minScoreThreshold: Float?
    /// Only these classes are considered; empty for all (mutually exclusive with `ignoredClasses`).
    var allowedClasses: Set<Int> = []
    /// These classes are never considered.
    var ignoredClasses: Set<Int> = []
    /// The most detections kept, the first ones in box order; negative for all (proto default -1; 0 is
    /// refused, as MediaPipe does).
    var maxResults = -1
    /// Whether to flip y (`1 − y`), for a bottom-left origin (proto default false).
    var flipVertically = false

    /// Creates options; the counts are required, every other field has the proto's default.
    init(numClasses: Int, numBoxes: Int, numCoords: Int) {
        self.numClasses = numClasses
        self.numBoxes = numBoxes
        self.numCoords = numCoords
    }

    /// Checks the options on their own; a `BoxDecoder` also checks them against the anchors.
    ///
    /// - Parameter location: The JSON path of these options; errors name a field under it.
    /// - Throws: `TensorIOError` `TensorIOError/Code/invalidBundle`.
    func validate(location: String) throws {
        func fail(_ field: String, _ message: String) -> TensorIOError {
            .invalidDetectionOption(message, at: "\(location).\(field)")
        }
        guard numClasses >= 1 else { throw fail("numClasses", "must be at least 1, not \(numClasses)") }
        guard numBoxes >= 1 else { throw fail("numBoxes", "must be at least 1, not \(numBoxes)") }
        guard valuesPerKeypoint == 2 else { throw fail("valuesPerKeypoint", "must be 2 (x and y), not \(valuesPerKeypoint)") }
        guard numKeypoints >= 0 else { throw fail("numKeypoints", "must be 0 or more, not \(numKeypoints)") }
        // 4 + 2 × numKeypoints, overflow-checked: the keypoint count is the untrusted part.
        let (keypointValues, overflow1) = numKeypoints.multipliedReportingOverflow(by: valuesPerKeypoint)
        let (expectedCoords, overflow2) = keypointValues.addingReportingOverflow(4)
        guard !overflow1, !overflow2, numCoords == expectedCoords else {
            throw fail("numCoords", "must be 4 + 2 × numKeypoints (\(numKeypoints) keypoints), not \(numCoords)")
        }
        guard (0...(numCoords - 4)).contains(boxCoordOffset) else {
            throw fail("boxCoordOffset", "must be 0…\(numCoords - 4) so the 4 box values fit in numCoords (\(numCoords)), not \(boxCoordOffset)")
        }
        if numKeypoints > 0 {
            let keypointEnd = keypointCoordOffset.addingReportingOverflow(keypointValues)
            guard keypointCoordOffset >= 0, !keypointEnd.overflow, keypointEnd.partialValue <= numCoords else {
                throw fail(
                    "keypointCoordOffset",
                    "must be 0…\(numCoords - keypointValues) so the \(numKeypoints) keypoints (\(keypointValues) values) fit in numCoords (\(numCoords)), not \(keypointCoordOffset)"
                )
            }
        }
        for (field, scale) in [("xScale", xScale), ("yScale", yScale), ("wScale", wScale), ("hScale", hScale)] where !(scale.isFinite && scale != 0) {
            throw fail(field, "must be a finite, non-zero number, not \(scale)")
        }
        if let scoreClippingThreshold, !(scoreClippingThreshold.isFinite && scoreClippingThreshold >= 0) {
            throw fail("scoreClippingThreshold", "must be a finite number ≥ 0, not \(scoreClippingThreshold)")
        }
        if let minScoreThreshold, !minScoreThreshold.isFinite {
            throw fail("minScoreThreshold", "must be a finite number, not \(minScoreThreshold)")
        }
        guard allowedClasses.isEmpty || ignoredClasses.isEmpty else {
            throw fail("allowedClasses", "cannot be given together with ignoredClasses")
        }
        guard maxResults != 0 else { throw fail("maxResults", "must be positive, or negative for every result; 0 keeps nothing") }
    }
}
