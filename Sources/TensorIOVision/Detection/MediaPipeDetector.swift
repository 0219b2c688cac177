import TensorIO

/// MediaPipe's detector families, whose settings — anchors, box decoding, suppression, how the photo is
/// fitted — live in MediaPipe's graphs rather than in the model files (the models of the
/// `mediapipe==0.10.21` wheel, `mediapipe/modules/`). `BundleInferenceOptions/detector` and
/// `tensorio init MODEL --detector NAME` write them into a bundle.
///
/// The settings are those of MediaPipe 0.10.21's graphs as they run (recorded with the reference
/// detections in `Tests/Fixtures/Detection/`): the photo letterboxed to the input with OpenCV's bilinear
/// warp, SSD anchors with fixed sizes, sigmoid scores clipped at ±100, weighted non-maximum suppression
/// at an IoU of 0.3.
public enum MediaPipeDetector: String, Sendable, Hashable, CaseIterable {
    /// Faces close to the camera (`face_detection_short_range.tflite`): 128×128, 896 anchors, 6 keypoints
    /// (eyes, nose tip, mouth, ear tragions).
    case blazeFaceShortRange = "blazeface-short-range"
    /// Faces up to about five metres away (`face_detection_full_range*.tflite`): 192×192, 2,304 anchors,
    /// 6 keypoints; a minimum score of 0.6, as MediaPipe's graph applies.
    case blazeFaceFullRange = "blazeface-full-range"
    /// Palms (`palm_detection_full.tflite`, `palm_detection_lite.tflite`): 192×192, pixels in [0, 1],
    /// 2,016 anchors, 7 keypoints (wrist and finger bases).
    case palm
    /// People, by their upper body (`pose_detection.tflite`): 224×224, 2,254 anchors, 4 keypoints (hip
    /// centre, the body's extent, shoulder centre, the upper body's extent).
    case pose

    /// The numbers that tell the families apart.
    struct Settings {
        var inputSize: Int
        var layers: Int
        var strides: [Int]
        var interpolatedScaleAspectRatio: Float
        var keypointCount: Int
        var minimumScore: Float
        var pixelRange: StandardRange

        var coordinateCount: Int { 4 + 2 * keypointCount }
    }

    var settings: Settings {
        switch self {
        case .blazeFaceShortRange:
            Settings(inputSize: 128, layers: 4, strides: [8, 16, 16, 16], interpolatedScaleAspectRatio: 1, keypointCount: 6, minimumScore: 0.5, pixelRange: .minusOneToOne)
        case .blazeFaceFullRange:
            Settings(inputSize: 192, layers: 1, strides: [4], interpolatedScaleAspectRatio: 0, keypointCount: 6, minimumScore: 0.6, pixelRange: .minusOneToOne)
        case .palm:
            Settings(inputSize: 192, layers: 4, strides: [8, 16, 16, 16], interpolatedScaleAspectRatio: 1, keypointCount: 7, minimumScore: 0.5, pixelRange: .zeroToOne)
        case .pose:
            Settings(inputSize: 224, layers: 5, strides: [8, 16, 32, 32, 32], interpolatedScaleAspectRatio: 1, keypointCount: 4, minimumScore: 0.5, pixelRange: .minusOneToOne)
        }
    }

    /// The family's detection description over the model's two outputs.
    func description(boxesOutput: String, scoresOutput: String) throws -> DetectionDescription {
        let settings = settings
        var anchors = SSDAnchorOptions(inputSizeWidth: settings.inputSize, inputSizeHeight: settings.inputSize)
        anchors.numLayers = settings.layers
        anchors.strides = settings.strides
        anchors.minScale = 0.1484375
        anchors.maxScale = 0.75
        anchors.aspectRatios = [1]
        anchors.interpolatedScaleAspectRatio = settings.interpolatedScaleAspectRatio
        anchors.fixedAnchorSize = true
        let generated = try anchors.anchors(limit: DetectionDescription.maximumAnchors, location: "detection.anchors")
        var decoding = BoxDecodingOptions(numClasses: 1, numBoxes: generated.count, numCoords: settings.coordinateCount)
        decoding.keypointCoordOffset = 4
        decoding.numKeypoints = settings.keypointCount
        let scale = Float(settings.inputSize)
        (decoding.xScale, decoding.yScale, decoding.wScale, decoding.hScale) = (scale, scale, scale, scale)
        decoding.boxFormat = .xywh
        decoding.sigmoidScore = true
        decoding.scoreClippingThreshold = 100
        let suppression = NonMaxSuppression(algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
        return DetectionDescription(
            kind: .anchors, boxesOutput: boxesOutput, scoresOutput: scoresOutput, classesOutput: nil, countOutput: nil,
            minimumScore: settings.minimumScore, maximumResults: nil, labels: nil, boxLayout: .standard, labelsFile: nil,
            calibrationSettings: nil, calibration: nil, anchorOptions: anchors, anchors: generated, decoding: decoding,
            suppression: suppression
        )
    }
}
