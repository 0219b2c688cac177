import Foundation
internal import TensorIOSupport

/// The model of a placeholder bundle: it has layers but nothing to run. Loading succeeds and every run
/// returns no outputs, as in the original; apps use such bundles to collect data for a model to come.
final class PlaceholderModel: Model {
    let bundle: ModelBundle
    let configuration: ModelConfiguration
    private let loaded = LockedValue(false)

    /// Creates the model of a placeholder bundle.
    init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration()) {
        self.bundle = bundle
        self.configuration = configuration
    }

    var isLoaded: Bool { loaded.value }

    func load() throws { loaded.value = true }

    func unload() { loaded.value = false }

    /// Returns empty outputs.
    func run(_ input: InputValue) throws -> Outputs {
        try load()
        return Outputs([])
    }

    /// A placeholder has no tensors.
    func tensorDescriptions() throws -> ModelTensors {
        ModelTensors(signature: nil, inputs: [], outputs: [])
    }
}
