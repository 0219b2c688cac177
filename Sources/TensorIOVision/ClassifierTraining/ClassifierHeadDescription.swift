@_spi(Internal) package import TensorIO

/// A trained classification head's `classifier_head` entry (docs/model-json.md, "Classification heads"): the
/// base bundle inside this one that turns a photo into features, which features, how many, and the class
/// names. The bundle's own model is the head: features in, one probability per class out.
public struct ClassifierHeadDescription: Sendable, Hashable {
    /// The most classes a head has (its output's width may be larger: the rest are masked).
    public static let maximumClasses = 100
    /// The most feature values a head takes (the widest of the trainable heads).
    public static let maximumFeatures = 2048

    /// The base bundle's folder, relative to this bundle; `nil` when the features are given directly.
    public var base: String?
    /// What the base's answer becomes.
    public var features: ClassifierFeatures
    /// How many values the features have (the head's input may be wider: the rest are zero).
    public var featureCount: Int
    /// The head's input layer.
    public var input: String
    /// The head's output layer, one probability per class (and zero for the masked rest).
    public var output: String
    /// The labels file in `assets/`.
    public var labelsFile: String
    /// The class names, in the output's order (read from ``labelsFile``).
    public var labels: [String]
}

/// What a classification head's features are.
public enum ClassifierFeatures: String, Sendable, Hashable, CaseIterable {
    /// The base is an embedder (an `embedding` entry): its vector, as the embedder gives it.
    case embedding
    /// The base is a hand landmarker: each hand's 21 world landmarks, as MediaPipe's gesture recognizer
    /// prepares them (relative to the wrist, divided by the larger of their x and y extents): 63 values.
    case handWorldLandmarks = "hand_world_landmarks"
    /// No base: the caller gives the feature vectors.
    case given
}

extension ClassifierHeadDescription: TaskDescription {
    package var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = []
        if let base { members.append(.init(key: "base", value: .string(base))) }
        members += [
            .init(key: "features", value: .string(features.rawValue)),
            .init(key: "feature_count", value: .integer(featureCount)),
            .init(key: "input", value: .string(input)),
            .init(key: "output", value: .string(output)),
            .init(key: "labels", value: .string(labelsFile)),
        ]
        return .object(members)
    }
}
