public import TensorIO

extension ModelRegistry {
    /// The built-in registry with the text task: opening a bundle reads its `text` entry, and a bare
    /// model's is inferred from its tokenizer metadata.
    public static let text = ModelRegistry.builtIn.addingTextTask()

    /// This registry with the text task added.
    ///
    /// - Returns: The registry, its backends and other tasks kept.
    public func addingTextTask() -> ModelRegistry {
        adding(TextTask.self)
    }
}
