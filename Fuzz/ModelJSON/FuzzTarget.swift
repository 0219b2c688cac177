// Fuzz target: model.json reading (JSON syntax, schema, limits, every task's entry) through the public
// entry point, with every task module's tasks registered as the tool registers them.
import FuzzSupport
import Foundation
import TensorIO
import TensorIOAudio
import TensorIOText
import TensorIOVision

let registry = ModelRegistry.builtIn.addingVisionTasks().addingAudioTask().addingTextTask()

func fuzzModelJSON(_ data: Data) {
    _ = ModelBundleValidator.issues(inModelJSON: data, registry: registry)
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzModelJSON) }
}
