extension ModelBundle {
    /// Builds the model this bundle describes, on the backend or custom model type it names.
    ///
    /// - Parameter configuration: Threads and other runtime settings.
    /// - Returns: A model, not yet loaded (it loads on first use or on ``Model/load()``).
    /// - Throws: ``TensorIOError`` when the backend or model class is not available.
    public func makeModel(configuration: ModelConfiguration = ModelConfiguration()) throws -> any Model {
        try ModelRegistry.shared.makeModel(for: self, configuration: configuration)
    }
}

extension ModelBundle {
    /// Builds the model this bundle describes, as a model that trains.
    ///
    /// - Parameter configuration: Threads and other runtime settings.
    /// - Returns: A trainable model, not yet loaded.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) when `model.modes` lacks `train` or
    ///   the backend cannot train; otherwise as ``makeModel(configuration:)``.
    public func makeTrainableModel(configuration: ModelConfiguration = ModelConfiguration()) throws -> any TrainableModel {
        guard model.modes.contains(.train) else {
            throw TensorIOError(
                .unsupported, "\(url.lastPathComponent) does not train: model.modes is \(model.modes.map(\.rawValue)), without \"train\"",
                location: "model.modes"
            )
        }
        let built = try makeModel(configuration: configuration)
        guard let trainable = built as? any TrainableModel else {
            throw TensorIOError(
                .unsupported, "the \(model.backend ?? ModelRegistry.defaultBackend) backend's models cannot train",
                location: "model.backend"
            )
        }
        return trainable
    }
}
