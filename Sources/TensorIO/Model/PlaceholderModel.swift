import Foundation
internal import TensorIOSupport

/// The model of a placeholder bundle: it has layers but nothing to run. Loading succeeds and every run
/// returns no outputs, as in the original; apps use such bundles to collect data for a model to come.
public final class PlaceholderModel: Model {
    public let bundle: ModelBundle
    public let configuration: ModelConfiguration
    private let loaded = LockedValue(false)

    /// Creates the model of a placeholder bundle.
    public init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration()) {
        self.bundle = bundle
        self.configuration = configuration
    }

    public var isLoaded: Bool { loaded.value }

    public func load() throws { loaded.value = true }

    public func unload() { loaded.value = false }

    /// Returns empty outputs.
    public func run(_ input: InputValue) throws -> Outputs {
        try load()
        return Outputs([])
    }

    /// A placeholder has no tensors.
    public func tensorDescriptions() throws -> ModelTensors {
        ModelTensors(signature: nil, inputs: [], outputs: [])
    }
}
