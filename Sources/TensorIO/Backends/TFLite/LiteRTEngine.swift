/// How a `tflite` model loads: a compiled model per concurrent run, or, for a bundle that trains, the
/// one training session whose weights every run and step shares.
struct LiteRTEngine: BackendEngine {
    let bundle: ModelBundle
    let configuration: ModelConfiguration

    /// LiteRT's compiled models keep their buffers: one run at a time on each.
    var instancesRunConcurrently: Bool { false }

    /// A training session holds the weights: there is only one.
    var maximumInstances: Int {
        bundle.modelFile.modes.contains(.train) ? 1 : configuration.maximumConcurrentRuns
    }

    func makeInstance() throws -> any BackendInstance {
        if bundle.modelFile.modes.contains(.train) {
            return try LiteRTTrainingSession(bundle: bundle, configuration: configuration)
        }
        return try LiteRTCompiledModel(bundle: bundle, configuration: configuration)
    }
}
