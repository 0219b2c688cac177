public import TensorIO
import TensorIOAudio
import TensorIOText
import TensorIOVision

extension ModelRegistry {
    /// The built-in registry with every task module's tasks, as the tool opens bundles: what tests of
    /// bare models use so that each model's task entry is inferred.
    public static let everyTask = ModelRegistry.builtIn.addingVisionTasks().addingAudioTask().addingTextTask()
}
