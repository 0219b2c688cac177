public import Foundation
public import Logging

extension ModelBundle {
    /// Builds the bundle a bare model implies, in memory: a `.tflite` file (layers from its real tensors
    /// and its TFLite metadata) or a TensorFlow SavedModel folder (its `serving_default` signature).
    ///
    /// ```swift
    /// let bundle = try ModelBundle(modelAt: URL(filePath: "mobilenet.tflite"))
    /// let outputs = try bundle.makeModel().run(.image(photo))
    /// ```
    ///
    /// - Parameters:
    ///   - url: A `.tflite` file or a SavedModel folder.
    ///   - options: What the model cannot say: image inputs, normalization, labels, the labels' locale.
    ///   - limits: Bounds on the model file and the sizes it declares.
    ///   - registry: The tasks whose entries to infer from the model's metadata (`ModelRegistry.vision`,
    ///     `.audio`, `.text`; the built-in registry infers only embeddings).
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidModelFile`` when the file fails its checks,
    ///   ``TensorIOError/Code/unsupported`` for tensors TensorIO cannot feed or read.
    public init(
        modelAt url: URL, options: BundleInferenceOptions = BundleInferenceOptions(), limits: ModelLimits = ModelLimits(),
        registry: ModelRegistry = .builtIn
    ) throws {
        self = try Self.infer(fromModelAt: url, options: options, limits: limits, registry: registry).bundle
    }

    /// Infers the bundle a bare model implies, saying what was inferred, what could not be known and
    /// what its metadata holds that TensorIO does not use (what `tensorio init` prints).
    ///
    /// - Parameters:
    ///   - url: A `.tflite` file or a SavedModel folder.
    ///   - options: What the model cannot say.
    ///   - limits: Bounds on the model file and the sizes it declares.
    ///   - registry: The tasks whose entries to infer.
    /// - Returns: The bundle, the assets it refers to (labels), and the notes.
    /// - Throws: ``TensorIOError`` as ``init(modelAt:options:limits:registry:)`` does.
    public static func infer(
        fromModelAt url: URL, options: BundleInferenceOptions = BundleInferenceOptions(), limits: ModelLimits = ModelLimits(),
        registry: ModelRegistry = .builtIn
    ) throws -> InferredBundle {
        do {
            return try inferReporting(fromModelAt: url, options: options, limits: limits, registry: registry)
        } catch var error as TensorIOError where error.location == "model.file" {
            // There is no model.json: name the file as the caller gave it, not a bundle field.
            let fileName = url.lastPathComponent
            error.location = nil
            error.message = url.relativePath + ": "
                + (error.message.hasPrefix(fileName + ": ") ? String(error.message.dropFirst(fileName.count + 2)) : error.message)
            throw error
        }
    }

    private static func inferReporting(
        fromModelAt url: URL, options: BundleInferenceOptions, limits: ModelLimits, registry: ModelRegistry
    ) throws -> InferredBundle {
        let parent = url.deletingLastPathComponent()
        switch UntrustedFile.kind(of: url) {
        case .regularFile:
            var inference = TFLiteBundleInference(fileURL: url, options: options, limits: limits, tasks: registry.tasks)
            let description = try inference.infer()
            var bundle = ModelBundle(url: parent, description: description)
            bundle.isInferred = true
            bundle.inferredAssets = inference.assets
            return InferredBundle(bundle: bundle, assets: inference.assets, notes: inference.notes)
        case .directory:
            var inference = SavedModelBundleInference(directory: url, options: options, limits: limits)
            let description = try inference.infer()
            var bundle = ModelBundle(url: parent, description: description)
            bundle.isInferred = true
            var assets: [String: Data] = [:]
            for layer in bundle.outputs {
                if let labels = layer.labels {
                    assets[labels.file] = Data((labels.values.joined(separator: "\n") + "\n").utf8)
                }
            }
            return InferredBundle(bundle: bundle, assets: assets, notes: inference.notes)
        case .missing:
            throw TensorIOError(.invalidBundle, "\(url.relativePath) does not exist: give a .tflite file, a SavedModel folder or a .tiobundle folder")
        case let kind:
            throw TensorIOError(.invalidBundle, "\(url.relativePath) is \(UntrustedFile.describe(kind)), not a model file or folder")
        }
    }

    /// Opens what `url` names: a `.tiobundle` folder as ``init(at:limits:registry:logger:)`` does, a
    /// `.tflite` file or a SavedModel folder as ``init(modelAt:options:limits:registry:)`` does.
    ///
    /// - Parameters:
    ///   - url: A bundle folder, a `.tflite` file, or a SavedModel folder (one holding `saved_model.pb`).
    ///   - limits: Bounds on sizes.
    ///   - registry: The backends a bundle's `model.backend` may name, and the tasks read or inferred.
    ///   - logger: Where notes on a bundle go.
    /// - Returns: The bundle.
    /// - Throws: ``TensorIOError`` from whichever reader applies.
    public static func open(
        _ url: URL, limits: ModelLimits = ModelLimits(), registry: ModelRegistry = .builtIn,
        logger: Logger = Logger.current
    ) throws -> ModelBundle {
        isBareModel(url)
            ? try ModelBundle(modelAt: url, limits: limits, registry: registry)
            : try ModelBundle(at: url, limits: limits, registry: registry, logger: logger)
    }

    /// Whether `url` names a bare model rather than a bundle: a regular file (a `.tflite`), or a folder
    /// holding `saved_model.pb` without a bundle's extension.
    ///
    /// - Parameter url: A path given by a user.
    /// - Returns: `true` for a file or a SavedModel folder.
    public static func isBareModel(_ url: URL) -> Bool {
        switch UntrustedFile.kind(of: url) {
        case .regularFile:
            return true
        case .directory:
            return !["tiobundle", "tfbundle"].contains(url.pathExtension)
                && UntrustedFile.kind(of: url.appendingPathComponent("saved_model.pb")) != .missing
        default:
            return false
        }
    }
}
