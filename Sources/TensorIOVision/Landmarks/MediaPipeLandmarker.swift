@_spi(Internal) public import TensorIO

/// MediaPipe's landmarker pipelines, whose settings — the region rule, how the landmark model's outputs
/// read, the defaults — live in MediaPipe's graphs rather than in the model files (the models of the
/// `mediapipe==0.10.21` wheel, `mediapipe/modules/`). `BundleInferenceOptions/landmarker` and
/// `tensorio init DETECTOR LANDMARKS --landmarker NAME` write them into a bundle.
///
/// The settings are those of MediaPipe 0.10.21's legacy solutions' graphs as they run in static-image mode
/// (recorded with the reference landmarks in `Tests/Fixtures/Landmarks/`). MediaPipe picks the landmark
/// model's outputs by their order, and so does this.
public enum MediaPipeLandmarker: String, Sendable, Hashable, CaseIterable {
    /// Hands (`palm_detection_full/lite.tflite`, `hand_landmark_full/lite.tflite`): 21 points, presence,
    /// handedness and world points; at most 2.
    case hand
    /// Faces (`face_detection_short_range.tflite`, `face_landmark.tflite`): the 468-point mesh and its
    /// presence; at most 1.
    case face
    /// Bodies (`pose_detection.tflite`, `pose_landmark_full.tflite`): 33 points with visibility and
    /// presence, refined from the model's heatmap, and world points; at most 1.
    case pose

    /// The detector family of the pipeline's first stage.
    public var detector: MediaPipeDetector {
        switch self {
        case .hand: .palm
        case .face: .blazeFaceShortRange
        case .pose: .pose
        }
    }

    /// The detector bundle's folder inside a landmark bundle `tensorio init` writes.
    public static let detectorFolder = "detector.tiobundle"

    /// The outputs MediaPipe's graph reads, by position: (role, numbers the output holds).
    private var outputs: [(role: String, count: Int)] {
        switch self {
        case .hand: [("points", 63), ("presence", 1), ("handedness", 1), ("world points", 63)]
        case .face: [("points", 1404), ("presence", 1)]
        case .pose: [("points", 195), ("presence", 1), ("segmentation", 256 * 256), ("heatmap", 64 * 64 * 39), ("world points", 117)]
        }
    }

    /// The landmark model's input side.
    var inputSize: Int {
        switch self {
        case .hand: 224
        case .face: 192
        case .pose: 256
        }
    }

    /// The pipeline's description over the landmark model's outputs, checked against what MediaPipe's graph
    /// expects of them.
    ///
    /// - Parameter outputs: The landmark model's outputs, in the model's order.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidInput`, at `outputs`) when they are not the
    ///   family's.
    func description(outputs: [LayerDescription]) throws -> LandmarksDescription {
        let expected = self.outputs
        guard outputs.count == expected.count, zip(outputs, expected).allSatisfy({ $0.elementCount == $1.count }) else {
            throw TensorIOError(
                .invalidInput,
                "--landmarker \(rawValue) expects \(expected.count) outputs holding \(expected.map { "\($0.count) (\($0.role))" }.joined(separator: ", ")) numbers; the model has \(outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))",
                location: "outputs")
        }
        let names = outputs.map(\.name)
        switch self {
        case .hand:
            return LandmarksDescription(
                detector: Self.detectorFolder,
                region: RegionRule(
                    rotation: .init(startKeypoint: 0, endKeypoint: 2, targetDegrees: 90), scaleX: 2.6, scaleY: 2.6,
                    shiftY: -0.5, square: .long, maximumOverlap: 0.5),
                points: .init(output: names[0], count: 21, keep: 21, values: 3, normalizeZ: 0.4, activation: .none),
                presence: .init(output: names[1], activation: .none),
                handedness: .init(output: names[2], labels: ["Left", "Right"]),
                heatmap: nil, worldPoints: names[3], connections: Self.handConnections,
                maximumInstances: 2, minimumDetectionScore: 0.5, minimumPresenceScore: 0.5, tracking: tracking)
        case .face:
            return LandmarksDescription(
                detector: Self.detectorFolder,
                region: RegionRule(rotation: .init(startKeypoint: 0, endKeypoint: 1, targetDegrees: 0), scaleX: 1.5, scaleY: 1.5, square: .long),
                points: .init(output: names[0], count: 468, keep: 468, values: 3, normalizeZ: 1, activation: .none),
                presence: .init(output: names[1], activation: .sigmoid),
                handedness: nil, heatmap: nil, worldPoints: nil, connections: Self.faceContours,
                maximumInstances: 1, minimumDetectionScore: 0.5, minimumPresenceScore: 0.5, tracking: tracking)
        case .pose:
            return LandmarksDescription(
                detector: Self.detectorFolder,
                region: RegionRule(
                    source: .keypoints, rotation: .init(startKeypoint: 0, endKeypoint: 1, targetDegrees: 90),
                    scaleX: 1.25, scaleY: 1.25, square: .long),
                points: .init(output: names[0], count: 39, keep: 33, values: 5, normalizeZ: 1, activation: .sigmoid),
                presence: .init(output: names[1], activation: .none),
                handedness: nil,
                heatmap: .init(output: names[3], height: 64, width: 64, kernel: 7, minimumConfidence: 0.5),
                worldPoints: names[4], connections: Self.poseConnections,
                maximumInstances: 1, minimumDetectionScore: 0.5, minimumPresenceScore: 0.5, tracking: tracking)
        }
    }

    /// The video-mode graph's region from the previous frame's landmarks (its `…LandmarksToRoi` subgraph),
    /// as MediaPipe 0.10.21's graphs set it (checked against its regions in
    /// `Tests/Fixtures/Landmarks/tracking.json`).
    var tracking: TrackingRule {
        switch self {
        case .hand:
            // HandLandmarksToRectCalculator reads 12 of the 21 points — the wrist, the thumb's first three
            // joints, and the knuckle and first joint of each finger — and turns the hand by the wrist and the
            // mean of the index, middle and ring knuckles; RectTransformation 2.0, shift −0.1, square long.
            // A new palm's region whose overlap with a tracked one exceeds 0.5 gives way to it
            // (AssociationNormRectCalculator, min_similarity_threshold).
            return TrackingRule(
                points: [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18],
                region: RegionRule(
                    source: .rotatedBox, rotation: .init(startKeypoint: 0, endKeypoint: 6, targetDegrees: 90, endMidpointOf: [4, 8]),
                    scaleX: 2, scaleY: 2, shiftY: -0.1, square: .long, maximumOverlap: 0.5))
        case .face:
            // LandmarksToDetection over the 468 points, then DetectionsToRects turned by the eyes' outer
            // corners (33 and 263), RectTransformation 1.5, square long.
            return TrackingRule(
                region: RegionRule(
                    rotation: .init(startKeypoint: 33, endKeypoint: 263, targetDegrees: 0), scaleX: 1.5, scaleY: 1.5,
                    square: .long, maximumOverlap: 0.5))
        case .pose:
            // The two auxiliary points (33: the hips' centre, 34: the body's extent), smoothed by the graph's
            // one-euro filter (PoseLandmarkFiltering: min_cutoff 0.01, beta 10, derivate_cutoff 1, at 30 Hz —
            // outside the smooth_landmarks switch, so always), then AlignmentPointsRects and
            // RectTransformation 1.25, square long, as the detection's region. The landmarks returned are
            // smoothed behind the graph's smooth_landmarks switch (on by default): visibility low-pass 0.1,
            // landmarks one-euro 0.05, 80, 1 scaled by the auxiliary points' region, world landmarks one-euro
            // 0.1, 40, 1 unscaled (the proto's default frequency, 30 Hz, for all).
            return TrackingRule(
                points: [33, 34],
                region: RegionRule(
                    source: .keypoints, rotation: .init(startKeypoint: 0, endKeypoint: 1, targetDegrees: 90),
                    scaleX: 1.25, scaleY: 1.25, square: .long),
                smoothing: .init(minimumCutoff: 0.01, beta: 10, derivativeCutoff: 1, frequency: 30),
                outputSmoothing: .init(
                    landmarks: .init(minimumCutoff: 0.05, beta: 80, derivativeCutoff: 1, frequency: 30),
                    worldLandmarks: .init(minimumCutoff: 0.1, beta: 40, derivativeCutoff: 1, frequency: 30),
                    visibilityAlpha: 0.1))
        }
    }
}

extension BundleInferenceOptions {
    /// A MediaPipe landmarker pipeline whose settings (region rule, outputs, defaults) to write for a
    /// landmark model, which its file does not carry; `nil` when the model is not one.
    public var landmarker: MediaPipeLandmarker? {
        get { taskSettings[LandmarksTask.entryKey].flatMap(MediaPipeLandmarker.init(rawValue:)) }
        set { taskSettings[LandmarksTask.entryKey] = newValue?.rawValue }
    }
}

extension TFLiteBundleInference {
    /// The landmarks entry of a MediaPipe landmark model, its image input set as MediaPipe prepares the
    /// crop (RGB in [0, 1], the crop already at the input's size).
    mutating func applyLandmarker(_ landmarker: MediaPipeLandmarker) throws -> LandmarksDescription {
        let side = landmarker.inputSize
        guard inputs.count == 1, inputs[0].shape.suffix(3) == [side, side, 3], inputs[0].elementCount == side * side * 3 else {
            throw TensorIOError(
                .invalidInput,
                "--landmarker \(landmarker.rawValue) expects one \(side)×\(side) RGB image input; the model has \(inputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))",
                location: "inputs")
        }
        let description = try landmarker.description(outputs: outputs)
        let input = inputs[0]
        inputs[0] = LayerDescription(
            name: input.name, shape: [side, side, 3], declaredDataType: input.declaredDataType,
            kind: .image(format: .rgb, normalization: .standard(.zeroToOne)), imageResizeMode: .stretch, imageScalingFilter: .bilinear)
        note(.inferred, layer: input.name, "image \(side)×\(side) RGB normalized to [0,1]: the region's crop, cut at this size as MediaPipe's \(landmarker.rawValue) graph cuts it")
        note(.inferred, "landmarks: MediaPipe's \(landmarker.rawValue) pipeline (\(description.points.keep) points, the region rule, defaults: at most \(description.maximumInstances), scores from \(description.minimumDetectionScore)); the detector bundle is \(MediaPipeLandmarker.detectorFolder)")
        return description
    }
}
