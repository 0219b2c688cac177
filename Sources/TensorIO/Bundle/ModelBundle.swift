public import Foundation
public import Logging

/// A Tensor/IO model bundle: a `.tiobundle` folder holding `model.json`, the model file and its assets.
///
/// Opening a bundle reads and checks everything a model needs before it runs: the JSON against the
/// schema, the model file, every labels file. ``makeModel(configuration:registry:)`` then builds the model on the
/// backend `model.json` names.
///
/// ```swift
/// let bundle = try ModelBundle(at: URL(filePath: "Examples/number.tiobundle"))
/// let model = try bundle.makeModel()
/// let outputs = try model.run(2)
/// ```
public struct ModelBundle: Sendable, Hashable {
    /// The bundle folder.
    public let url: URL
    /// A human-readable name.
    public internal(set) var name: String
    /// What the model does.
    public internal(set) var details: String
    /// A unique identifier (`id` in `model.json`).
    public internal(set) var identifier: String
    /// The model's version.
    public internal(set) var version: String
    /// Who made the model.
    public internal(set) var author: String
    /// The model's licence.
    public internal(set) var license: String
    /// Whether this bundle has no model yet (a placeholder for collecting data).
    public internal(set) var isPlaceholder: Bool
    /// The `model` entry of `model.json`: the model file, its backend, quantization and modes.
    public internal(set) var modelFile: ModelFileDescription
    /// Every input layer, in `model.json` order, training-only ones included (``predictionInputs`` leaves
    /// those out).
    public internal(set) var inputs: LayerList
    /// Every output layer, in `model.json` order, training-only ones included (``predictionOutputs`` leaves
    /// those out).
    public internal(set) var outputs: LayerList
    /// Layers fed at run time besides the inputs (TensorFlow models; `placeholders` in `model.json`).
    public internal(set) var placeholders: LayerList
    /// How the model trains (`train`), if it does.
    public internal(set) var training: TrainingDescription?
    /// The `options` entry.
    public internal(set) var options: ModelOptions
    /// The task entries (`detection`, `audio`, …): each task's module reads its own
    /// (``taskDescription(_:)``) and gives it a property of its own (`bundle.detection`…).
    package internal(set) var tasks: BundleTasks
    /// Whether the bundle was inferred from a bare model (``init(modelAt:options:limits:registry:)``) rather than
    /// read from a `model.json`: ``url`` is then the model's folder.
    public internal(set) var isInferred = false
    /// An inferred bundle's `assets/` files, in memory (labels, a tokenizer's vocabulary): there is no folder.
    package internal(set) var inferredAssets: [String: Data] = [:]

    /// Opens and checks the bundle at `url`.
    ///
    /// - Parameters:
    ///   - url: A `.tiobundle` (or deprecated `.tfbundle`) folder.
    ///   - limits: Bounds on layer sizes, `model.json`, labels and model files (see ``ModelLimits``).
    ///   - registry: The backends `model.backend` may name besides `tflite` and `tensorflow`; give the
    ///     registry you will build the model with when it has backends of your own.
    ///   - logger: Where notes on the bundle go (a deprecated `.tfbundle` extension); swift-log's
    ///     task-local `Logger.current` by default.
    /// - Throws: ``TensorIOError`` with code ``TensorIOError/Code/invalidBundle`` listing every problem.
    public init(
        at url: URL, limits: ModelLimits = ModelLimits(), registry: ModelRegistry = .builtIn,
        logger: Logger = Logger.current
    ) throws {
        self = try ModelBundleValidator(bundleAt: url, limits: limits, registry: registry, logger: logger).validate()
    }

    init(url: URL, description: ModelJSON) {
        self.url = url
        // Left out of model.json: the folder's name without its extension stands in for both.
        let identifier = description.identifier ?? url.deletingPathExtension().lastPathComponent
        self.name = description.name ?? identifier
        self.details = description.details
        self.identifier = identifier
        self.version = description.version
        self.author = description.author
        self.license = description.license
        self.isPlaceholder = description.isPlaceholder
        self.modelFile = description.modelFile
        self.inputs = LayerList(description.inputs)
        self.outputs = LayerList(description.outputs)
        self.placeholders = LayerList(description.placeholders)
        self.training = description.training
        self.options = description.options
        self.tasks = description.tasks
    }

    /// The operations run as targets when training (`train.ops`), if any.
    public var trainingOperations: [String]? { training?.operations }

    /// The model file or folder; `nil` for placeholder bundles.
    public var modelFileURL: URL? {
        isPlaceholder ? nil : url.appendingPathComponent(modelFile.path)
    }

    /// The URL of a file in the bundle's `assets/` folder.
    ///
    /// - Parameter name: A file name relative to `assets/`.
    /// - Returns: The file's URL (which may not exist).
    public func assetURL(named name: String) -> URL {
        url.appendingPathComponent("assets").appendingPathComponent(name)
    }

    /// The bytes of a file in `assets/`: read from the folder (at most `limit` bytes), or for an inferred
    /// bundle from what the model carried.
    ///
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/io`` when it cannot be read,
    ///   ``TensorIOError/Code/limitExceeded`` past `limit` (named `limitName`).
    package func assetData(named name: String, limit: Int, limitName: String) throws -> Data {
        if isInferred {
            guard let data = inferredAssets[name] else {
                throw TensorIOError(.io, "\(name) is not among the files the model carries", location: "assets")
            }
            guard data.count <= limit else {
                throw TensorIOError(.limitExceeded, "\(name) is \(data.count) bytes, more than the limit of \(limit) (\(limitName))", location: "assets")
            }
            return data
        }
        return try UntrustedFile.read(assetURL(named: name), limit: limit, name: name, limitName: limitName)
    }
}
