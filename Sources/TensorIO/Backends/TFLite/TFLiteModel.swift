import Foundation

/// A TensorFlow Lite model, run by LiteRT.
///
/// Layers bind to the model's signature tensors by name where the names match, the rest in `model.json`
/// order. Loading checks every layer's element count and type against its tensor. Runs from several
/// threads or tasks are safe: they take turns on the one compiled model.
public final class TFLiteModel: ProfilingModel, @unchecked Sendable {
    public let bundle: ModelBundle
    public let configuration: ModelConfiguration

    // Guards `compiled`; LiteRT's compiled models are not thread-safe, so runs hold it too.
    private let lock = NSLock()
    private var compiled: CompiledTFLiteModel?

    /// Creates a model for a bundle; nothing is loaded until ``load()`` or the first run.
    ///
    /// - Parameters:
    ///   - bundle: A bundle whose model file is a `.tflite` file.
    ///   - configuration: Threads and other runtime settings.
    public init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration()) {
        self.bundle = bundle
        self.configuration = configuration
    }

    public var isLoaded: Bool { lock.withLock { compiled != nil } }

    public func load() throws {
        try lock.withLock { _ = try loadedModel() }
    }

    public func unload() {
        lock.withLock { compiled = nil }
    }

    public func run(_ input: InputValue) throws -> Outputs {
        var profile: RunProfile?
        return try run(input, profile: &profile)
    }

    public func runProfiled(_ input: InputValue) throws -> (outputs: Outputs, profile: RunProfile) {
        var profile: RunProfile? = RunProfile()
        let outputs = try run(input, profile: &profile)
        return (outputs, profile ?? RunProfile())
    }

    /// Runs, measuring each part into `profile` when it is not `nil`.
    private func run(_ input: InputValue, profile: inout RunProfile?) throws -> Outputs {
        guard bundle.model.modes.contains(.predict) else {
            throw TensorIOError(.unsupported, "the model does not support predict (model.modes)", location: "model.modes")
        }
        let start = profile == nil ? 0 : Stopwatch.now()
        let values = try InputMatching.values(for: input, layers: bundle.inputs)
        // Images are oriented and scaled before taking the lock, so concurrent callers overlap that work;
        // only the final copy into the tensor happens under it.
        let prepared = zip(values, bundle.inputs).map { value, layer in
            guard case .image(let image) = value, layer.kind == .image, let volume = layer.imageVolume else { return value }
            let target = ImageSize(width: volume.width, height: volume.height)
            return InputValue.image(VisionPipeline.prepare(image, target: target, mode: configuration.imageResizeMode))
        }
        if profile != nil {
            profile?.preparation = Stopwatch.since(start)
            let waitStart = Stopwatch.now()
            lock.lock()
            profile?.waiting = Stopwatch.since(waitStart)
        } else {
            lock.lock()
        }
        defer { lock.unlock() }
        return try loadedModel().run(prepared, profile: &profile)
    }

    public func tensorDescriptions() throws -> ModelTensors {
        try lock.withLock { try loadedModel().tensors }
    }

    /// Call with the lock held.
    private func loadedModel() throws -> CompiledTFLiteModel {
        if let compiled { return compiled }
        let model = try CompiledTFLiteModel(bundle: bundle, configuration: configuration)
        compiled = model
        return model
    }
}
