import Foundation
extension ModelBundle {
    /// Builds the model this bundle describes, on the backend or custom model type it names.
    ///
    /// - Parameters:
    ///   - configuration: Threads, the logger and other runtime settings.
    ///   - registry: The backends and custom model types to choose from (the built-in backends by default).
    /// - Returns: A model, not yet loaded (it loads on first use or on ``Model/load()``).
    /// - Throws: ``TensorIOError`` when the backend or model class is not in the registry.
    public func makeModel(
        configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .builtIn
    ) throws -> any Model {
        try registry.makeModel(for: self, configuration: configuration)
    }
}

extension ModelBundle {
    /// Builds the model this bundle describes, as a model that trains.
    ///
    /// - Parameters:
    ///   - configuration: Threads, the logger and other runtime settings.
    ///   - registry: The backends and custom model types to choose from (the built-in backends by default).
    /// - Returns: A trainable model, not yet loaded.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) when `model.modes` lacks `train` or
    ///   the backend cannot train; otherwise as ``makeModel(configuration:registry:)``.
    public func makeTrainableModel(
        configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .builtIn
    ) throws -> any TrainableModel {
        guard modelFile.modes.contains(.train) else {
            throw TensorIOError(
                .unsupported, "\(url.lastPathComponent) does not train: model.modes is \(modelFile.modes.map(\.rawValue)), without \"train\"",
                location: "model.modes"
            )
        }
        let built = try makeModel(configuration: configuration, registry: registry)
        guard let trainable = built as? any TrainableModel else {
            throw TensorIOError(
                .unsupported, "the \(modelFile.backend ?? ModelRegistry.defaultBackend) backend's models cannot train",
                location: "model.backend"
            )
        }
        return trainable
    }
}
