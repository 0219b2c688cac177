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
