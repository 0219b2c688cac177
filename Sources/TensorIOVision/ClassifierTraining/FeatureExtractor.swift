public import Foundation
@_spi(Internal) public import TensorIO

/// Turns a photo into the features a classification head takes: a base bundle's embedding, or each hand's
/// world landmarks (`HandFeatures`) from a hand landmarker.
public struct FeatureExtractor: Sendable {
    /// One thing found on a photo, with its features.
    public struct Instance: Sendable, Hashable {
        /// The features, ``FeatureExtractor/featureCount`` values.
        public var features: [Float]
        /// The hand's handedness, for a landmarker base.
        public var handedness: Landmarks.Handedness?
        /// The box around the hand's landmarks in pixels of the photo as displayed, for a landmarker base.
        public var box: Detection.Box?
    }

    private enum Base: Sendable {
        case embedder(any Model)
        case landmarker(Landmarker)
    }

    private let base: Base
    /// What the features are.
    public let features: ClassifierFeatures
    /// How many values each instance's features have.
    public let featureCount: Int
    /// The base bundle.
    public let bundle: ModelBundle

    /// Opens a base: a bundle with a `landmarks` entry whose model gives 21 points and world landmarks (a
    /// hand landmarker), or one with an `embedding` entry (or whose only output is an unlabelled vector).
    ///
    /// - Parameters:
    ///   - bundle: The base bundle.
    ///   - configuration: Threads, concurrent runs and limits for its models.
    ///   - registry: The backends and tasks its models are built with.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/unsupported`) when the bundle is neither, or a
    ///   landmarker that gives no hand world landmarks; what opening the models throws.
    public init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .vision) throws {
        self.bundle = bundle
        if let landmarks = try bundle.landmarks {
            guard landmarks.worldPoints != nil, landmarks.points.count * 3 == HandFeatures.count else {
                throw TensorIOError(
                    .unsupported,
                    "\(bundle.url.lastPathComponent) is a landmarker with \(landmarks.points.count) points\(landmarks.worldPoints == nil ? " and no world landmarks" : ""): a classification head's base must be a hand landmarker (21 points with world landmarks) or an embedder",
                    location: "landmarks")
            }
            base = .landmarker(try Landmarker(bundle: bundle, configuration: configuration, registry: registry))
            features = .handWorldLandmarks
            featureCount = HandFeatures.count
            return
        }
        guard let embedding = try EmbeddingDescription.implied(by: bundle),
              let layer = bundle.outputs.first(where: { $0.name == embedding.output })
        else {
            throw TensorIOError(
                .unsupported,
                "\(bundle.url.lastPathComponent) is neither an embedder (an \"embedding\" entry, or one unlabelled vector output) nor a hand landmarker (a \"landmarks\" entry): it cannot give a classification head its features")
        }
        base = .embedder(try bundle.makeModel(configuration: configuration, registry: registry))
        features = .embedding
        featureCount = ModelJSONReader.itemWidth(layer)
    }

    /// Loads the base's models now rather than on the first photo.
    ///
    /// - Throws: What `Model.load()` throws.
    public func load() throws {
        switch base {
        case .embedder(let model): try model.load()
        case .landmarker(let landmarker): try landmarker.load()
        }
    }

    /// The instances on a photo with their features: one for an embedder; each hand found, best first, for a
    /// landmarker (none when it finds none).
    ///
    /// - Parameters:
    ///   - photo: The photo, in any format and orientation (it is read upright).
    ///   - maximumInstances: At most how many hands (a landmarker's default when `nil`).
    /// - Returns: The instances.
    /// - Throws: What the base's models throw; `TensorIOError/Code/outputMismatch` when an embedding has
    ///   another size than the base's output declares.
    public func instances(in photo: PixelBuffer, maximumInstances: Int? = nil) throws -> [Instance] {
        switch base {
        case .embedder(let model):
            let embedding = try model.embed(photo, options: EmbeddingOptions(quantizes: false))
            guard embedding.values.count == featureCount else {
                throw TensorIOError.outputMismatch("the embedding has \(embedding.values.count) values, not the \(featureCount) its output declares", output: "embedding")
            }
            return [Instance(features: embedding.values)]
        case .landmarker(let landmarker):
            return try landmarker.landmarks(in: photo, options: LandmarkerOptions(maximumInstances: maximumInstances)).compactMap { hand in
                HandFeatures.features(of: hand).map { Instance(features: $0, handedness: hand.handedness, box: hand.box) }
            }
        }
    }

    /// The photo file decoded with the base's limits (upright, as ``instances(in:maximumInstances:)`` reads
    /// it), then its instances.
    ///
    /// - Parameters:
    ///   - url: A JPEG or PNG file.
    ///   - maximumInstances: At most how many hands.
    /// - Returns: The instances.
    /// - Throws: What decoding the file throws, and what ``instances(in:maximumInstances:)`` throws.
    public func instances(contentsOf url: URL, maximumInstances: Int? = nil) throws -> [Instance] {
        try instances(in: PixelBuffer(contentsOf: url, limits: configuration.limits), maximumInstances: maximumInstances)
    }

    private var configuration: ModelConfiguration {
        switch base {
        case .embedder(let model): model.configuration
        case .landmarker(let landmarker): landmarker.configuration
        }
    }
}
