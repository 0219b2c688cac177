public import TensorIO

extension ModelRegistry {
    /// The built-in registry with the audio task: opening a bundle reads its `audio` entry, and a bare
    /// model's is inferred from its AudioProperties metadata.
    public static let audio = ModelRegistry.builtIn.addingAudioTask()

    /// This registry with the audio task added.
    ///
    /// - Returns: The registry, its backends and other tasks kept.
    public func addingAudioTask() -> ModelRegistry {
        adding(AudioTask.self)
    }
}
