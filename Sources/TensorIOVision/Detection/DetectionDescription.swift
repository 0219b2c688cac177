public import TensorIO

/// How a bundle's outputs become ``Detection`` values: the `detection` entry of `model.json`
/// (docs/model-json.md, "Detection").
///
/// Two kinds of detectors are described:
/// - `Kind/postProcessed`: the model ends in TFLite's `TFLite_Detection_PostProcess` operator and returns
///   four outputs — boxes, class ids, scores and a count (the COCO SSD models). The description says how a
///   box's four numbers are laid out, where the class labels are, and how to calibrate scores.
/// - `Kind/anchors`: the model returns raw box regressions and scores for a fixed set of SSD anchors
///   (MediaPipe's face, palm and pose detectors). The description says how to make the anchors, decode
///   the boxes and keypoints, and suppress overlapping detections.
public struct DetectionDescription: Sendable, Hashable {
    /// The two kinds of detectors.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Four outputs of TFLite's post-processing operator: boxes, class ids, scores, count.
        case postProcessed = "post_processed"
        /// Raw regressions and scores over SSD anchors, decoded and suppressed by TensorIO.
        case anchors
    }

    /// The kind of detector.
    public let kind: Kind
    /// The output holding the boxes (and, for `Kind/anchors`, the keypoints).
    public let boxesOutput: String
    /// The output holding the scores.
    public let scoresOutput: String
    /// The output holding each detection's class id (`Kind/postProcessed` only).
    public let classesOutput: String?
    /// The output holding the number of detections (`Kind/postProcessed` only).
    public let countOutput: String?
    /// The lowest score kept (`min_score`); `nil` keeps every score.
    public let minimumScore: Float?
    /// The most detections returned (`max_results`); `nil` for all.
    public let maximumResults: Int?
    /// The class labels by class id (`labels`: a file in `assets/`, one label per line); `nil` when the
    /// model has none.
    public internal(set) var labels: LayerLabels?
    /// The class labels in other languages, by locale (`display_names`: locale → a file in `assets/`, one
    /// label per line, as `labels`): what ``DetectionOptions/labelsLocale`` picks from.
    public internal(set) var displayNames: [String: LayerLabels] = [:]
    /// The number of anchors (`Kind/anchors` only; 0 otherwise): the boxes output has one row per anchor.
    public var anchorCount: Int { anchors.count }
    /// The number of keypoints each detection has (`Kind/anchors` only; 0 otherwise).
    public var keypointCount: Int { decoding?.numKeypoints ?? 0 }

    /// How a post-processed box's four numbers are laid out.
    let boxLayout: BoxLayout
    /// The labels file named in `model.json`, read when the bundle opens.
    let labelsFile: String?
    /// Score calibration as `model.json` gives it (the parameters file is read when the bundle opens).
    let calibrationSettings: CalibrationSettings?
    /// The calibration, once its file is read.
    var calibration: ScoreCalibration?
    /// How the anchors are made (`Kind/anchors`).
    let anchorOptions: SSDAnchorOptions?
    /// The anchors: made once when `model.json` is read, or read from `fixedAnchorsFile` when the bundle
    /// opens.
    var anchors: [Anchor]
    /// The file in `assets/` listing the anchors one by one (`anchors.file`), for models that carry their
    /// anchors rather than how to make them (MediaPipe's `DETECTOR_METADATA`); `nil` when they are generated.
    var fixedAnchorsFile: String? = nil
    /// How boxes, keypoints and scores are decoded (`Kind/anchors`); its box count is the anchors'.
    var decoding: BoxDecodingOptions?
    /// How overlapping detections are suppressed (`Kind/anchors`).
    let suppression: NonMaxSuppression?
    /// The display-name files named in `model.json`, by locale, read when the bundle opens.
    var displayNamesFiles: [String: String] = [:]
}

extension DetectionDescription {
    /// The layout of a post-processed box: which of its four numbers is which, what they describe, and
    /// in which unit (TFLite metadata's `BoundingBoxProperties`).
    struct BoxLayout: Sendable, Hashable {
        /// What the four numbers describe.
        enum Shape: String, Sendable, Hashable, CaseIterable {
            /// Left, top, right, bottom.
            case boundaries
            /// Left, top, width, height.
            case upperLeft = "upper_left"
            /// Centre x, centre y, width, height.
            case center

            /// The names `order` uses for this shape, in the shape's default order.
            var elementNames: [String] {
                switch self {
                case .boundaries: ["left", "top", "right", "bottom"]
                case .upperLeft: ["left", "top", "width", "height"]
                case .center: ["center_x", "center_y", "width", "height"]
                }
            }
        }

        /// Whether coordinates are fractions of the input image or its pixels.
        enum Coordinates: String, Sendable, Hashable, CaseIterable {
            case ratio
            case pixels
        }

        var shape: Shape
        /// For each element in the shape's default order, its position among the box's four numbers.
        var positions: [Int]
        var coordinates: Coordinates

        /// The layout of the COCO SSD models: top, left, bottom, right as fractions.
        static let standard = BoxLayout(shape: .boundaries, positions: [1, 0, 3, 2], coordinates: .ratio)

        /// The element names in the order the box holds them.
        var order: [String] {
            var names = [String](repeating: "", count: 4)
            for (element, position) in positions.enumerated() where (0..<4).contains(position) {
                names[position] = shape.elementNames[element]
            }
            return names
        }
    }

    /// Score calibration as `model.json` gives it: TFLite metadata's `ScoreCalibrationOptions` and the
    /// file of per-class parameters.
    struct CalibrationSettings: Sendable, Hashable {
        var file: String
        var transformation: ScoreCalibration.Transformation
        var defaultScore: Float
    }
}
