public import Foundation
@_spi(Internal) public import TensorIO

/// A classifier `tensorio train-classifier` (or ``ClassifierTrainer``) wrote: a base that turns a photo into
/// features, and a trained head that turns features into one score per class.
///
/// ```swift
/// let bundle = try ModelBundle(at: URL(filePath: "gestures.tiobundle"), registry: .vision)
/// let classifier = try TrainedClassifier(bundle: bundle)
/// for hand in try classifier.classify(contentsOf: URL(filePath: "photo.jpg")) {
///     print(hand.handedness?.label ?? "", hand.classification.first?.label ?? "")
/// }
/// ```
public struct TrainedClassifier: Sendable {
    /// One thing classified on a photo.
    public struct Instance: Sendable, Hashable {
        /// The hand's handedness, for a landmarker base.
        public var handedness: Landmarks.Handedness?
        /// The box around the hand's landmarks in pixels of the photo as displayed, for a landmarker base.
        public var box: Detection.Box?
        /// Every class with its probability, best first.
        public var classification: [LabeledScores.Entry]
    }

    /// The bundle.
    public let bundle: ModelBundle
    /// Its `classifier_head` entry.
    public let description: ClassifierHeadDescription
    /// The base, or `nil` when the features are given (``ClassifierFeatures/given``).
    public let extractor: FeatureExtractor?
    /// The head: the bundle's own model.
    public let head: any Model
    private let inputWidth: Int

    /// Opens a trained classifier.
    ///
    /// - Parameters:
    ///   - bundle: A bundle with a `classifier_head` entry.
    ///   - configuration: Threads, concurrent runs and limits, for the base's models and the head.
    ///   - registry: The backends and tasks the models are built with.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/unsupported` when the bundle has no
    ///   `classifier_head` entry; `TensorIOError/Code/invalidBundle` (at `classifier_head.base`) when the
    ///   base bundle is wrong or gives other features than the entry says.
    public init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .vision) throws {
        guard let description = try bundle.classifierHead else {
            throw TensorIOError(
                .unsupported, "\(bundle.url.lastPathComponent) has no classifier_head entry (tensorio train-classifier writes one; open it with registry: .vision)",
                location: ClassifierHeadTask.entryKey)
        }
        self.bundle = bundle
        self.description = description
        if let base = description.base {
            let location = "\(ClassifierHeadTask.entryKey).base"
            let extractor: FeatureExtractor
            do {
                let baseBundle = try ModelBundle(at: bundle.url.appendingPathComponent(base, isDirectory: true), limits: configuration.limits, registry: registry)
                extractor = try FeatureExtractor(bundle: baseBundle, configuration: configuration, registry: registry)
            } catch let error as TensorIOError {
                throw TensorIOError(error.code == .unsupported ? .invalidBundle : error.code, "the base bundle \(base): \(error.message)", location: location)
            }
            guard extractor.features == description.features, extractor.featureCount == description.featureCount else {
                throw TensorIOError(
                    .invalidBundle,
                    "the base bundle \(base) gives \(extractor.featureCount) \(extractor.features.rawValue) values; the head takes \(description.featureCount) \(description.features.rawValue) values",
                    location: location)
            }
            self.extractor = extractor
        } else {
            extractor = nil
        }
        head = try bundle.makeModel(configuration: configuration, registry: registry)
        inputWidth = bundle.inputs.first { $0.name == description.input }.map(ModelJSONReader.itemWidth) ?? description.featureCount
    }

    /// Loads the base's models and the head now rather than on the first photo.
    ///
    /// - Throws: What `Model.load()` throws.
    public func load() throws {
        try extractor?.load()
        try head.load()
    }

    /// Classifies what the base finds on a photo: the photo itself for an embedder base, each hand (best
    /// first) for a landmarker base — none when it finds no hand.
    ///
    /// - Parameters:
    ///   - photo: The photo, in any format and orientation (it is read upright).
    ///   - maximumInstances: At most how many hands (the landmarker's default when `nil`).
    /// - Returns: The instances, each with every class's probability, best first.
    /// - Throws: `TensorIOError/Code/unsupported` when the features are given (no base); what the
    ///   models throw.
    public func classify(_ photo: PixelBuffer, maximumInstances: Int? = nil) throws -> [Instance] {
        guard let extractor else {
            throw TensorIOError(.unsupported, "\(bundle.url.lastPathComponent) has no base bundle: give it features, not photos")
        }
        return try extractor.instances(in: photo, maximumInstances: maximumInstances).map { instance in
            Instance(handedness: instance.handedness, box: instance.box, classification: try classify(features: instance.features))
        }
    }

    /// Classifies a photo file; see ``classify(_:maximumInstances:)``.
    ///
    /// - Parameters:
    ///   - url: A JPEG or PNG file.
    ///   - maximumInstances: At most how many hands.
    /// - Returns: The instances.
    /// - Throws: What decoding the file throws, and what ``classify(_:maximumInstances:)`` throws.
    public func classify(contentsOf url: URL, maximumInstances: Int? = nil) throws -> [Instance] {
        try classify(PixelBuffer(contentsOf: url, limits: head.configuration.limits), maximumInstances: maximumInstances)
    }

    /// Classifies a feature vector.
    ///
    /// - Parameter features: ``ClassifierHeadDescription/featureCount`` values.
    /// - Returns: Every class with its probability, best first.
    /// - Throws: `TensorIOError/Code/invalidInput` for another count or a value that is not finite; what
    ///   the head throws.
    public func classify(features: [Float]) throws -> [LabeledScores.Entry] {
        guard features.count == description.featureCount else {
            throw TensorIOError(.invalidInput, "the head takes \(description.featureCount) feature values, not \(features.count)")
        }
        guard features.allSatisfy(\.isFinite) else { throw TensorIOError(.invalidInput, "a feature value is not a finite number") }
        let padded = features + repeatElement(0, count: inputWidth - features.count)
        let probabilities = try head.run(.named([description.input: .numbers(.float32(padded))]))[description.output].values(as: Float.self)
        guard probabilities.count >= description.labels.count else {
            throw TensorIOError.outputMismatch("the head gives \(probabilities.count) scores for \(description.labels.count) classes", output: description.output)
        }
        return try LabeledScores(labels: description.labels, scores: Array(probabilities.prefix(description.labels.count)))
            .top(description.labels.count)
    }
}
