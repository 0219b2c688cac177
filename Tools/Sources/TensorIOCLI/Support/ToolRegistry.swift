import TensorIO
import TensorIOAudio
import TensorIOText
import TensorIOVision

extension ModelRegistry {
    /// Every task the tool runs: each command opens and infers bundles with all of them, so `validate`
    /// and `init` check and write every task entry, and a command reads its task's entry when the bundle
    /// opens.
    static let tool = ModelRegistry.builtIn.addingVisionTasks().addingAudioTask().addingTextTask()
}
