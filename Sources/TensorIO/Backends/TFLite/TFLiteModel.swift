import Foundation

/// A TensorFlow Lite model, run by LiteRT.
///
/// Layers bind to the model's signature tensors by name where the names match, the rest in `model.json`
/// order. Loading checks every layer's element count and type against its tensor. Runs from several
/// threads or tasks are safe: LiteRT's compiled models are not, so each run takes one from a small pool —
/// one by default, so callers take turns; up to ``ModelConfiguration/maximumConcurrentRuns`` to let runs
/// overlap on several cores, at the memory cost of one compiled model each.
///
/// A bundle whose modes include `train` holds a model in TensorFlow's on-device training format
/// (signatures `train`, `infer`, `save` and `restore`): it trains, predicts with what it learnt, and
/// exports the weights. Its runs take turns on one compiled model, since the weights live there.
public final class TFLiteModel: ProfilingModel, TrainableModel, @unchecked Sendable {
    public let bundle: ModelBundle
    public let configuration: ModelConfiguration

    /// The compiled models: idle ones, and how many exist in the current generation (idle or running).
    /// `unload()` starts a new generation; instances of older ones are dropped when their run ends.
    private struct Pool {
        var idle: [CompiledTFLiteModel] = []
        var created = 0
        var generation = 0
    }

    private let condition = NSCondition()
    private var pool = Pool()  // guarded by `condition`

    /// Read from the bundle once, not on every run.
    private let predicts: Bool
    private let trains: Bool
    private let hasImageInputs: Bool
    /// The layers a run takes (training-only ones left out), filtered once rather than on every run.
    private let predictionInputs: LayerList

    /// For trainable models: the one session every run and training step uses.
    private let trainingLock = NSLock()
    private var trainingSession: TFLiteTrainingSession?  // guarded by `trainingLock`

    /// Creates a model for a bundle; nothing is loaded until ``load()`` or the first run.
    ///
    /// - Parameters:
    ///   - bundle: A bundle whose model file is a `.tflite` file.
    ///   - configuration: Threads, concurrent runs and other runtime settings.
    public init(bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration()) {
        self.bundle = bundle
        self.configuration = configuration
        predicts = bundle.model.modes.contains(.predict)
        trains = bundle.model.modes.contains(.train)
        predictionInputs = bundle.predictionInputs
        hasImageInputs = predictionInputs.contains { $0.kind == .image }
    }

    public var isLoaded: Bool {
        if trains { return trainingLock.withLock { trainingSession != nil } }
        condition.lock()
        defer { condition.unlock() }
        return pool.created > 0
    }

    public func load() throws {
        if trains { return try withTrainingSession { _ in } }
        let (instance, generation) = try acquire()
        release(instance, generation: generation)
    }

    /// Frees the runtime's resources. A trainable model forgets what it learnt unless it was exported.
    public func unload() {
        if trains { trainingLock.withLock { trainingSession = nil } }
        condition.lock()
        let dropped = pool.idle
        pool = Pool(generation: pool.generation + 1)
        condition.broadcast()
        condition.unlock()
        _ = dropped  // freed here, outside the lock
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

    public func tensorDescriptions() throws -> ModelTensors {
        if trains { return try withTrainingSession { $0.tensors } }
        let (instance, generation) = try acquire()
        defer { release(instance, generation: generation) }
        return instance.tensors
    }

    /// Runs, measuring each part into `profile` when it is not `nil`.
    private func run(_ input: InputValue, profile: inout RunProfile?) throws -> Outputs {
        guard predicts else {
            throw TensorIOError(.unsupported, "the model does not support predict (model.modes)", location: "model.modes")
        }
        // Image layers are checked against the model's tensors (by loading) before any image work: a
        // layer that claims more pixels than its tensor holds must fail there, not in the scaler.
        if hasImageInputs, !isLoaded { try load() }
        let start = profile == nil ? 0 : Stopwatch.now()
        let values = try InputMatching.values(for: input, layers: predictionInputs)
        // Images are oriented and scaled before taking a compiled model, so concurrent callers overlap
        // that work; only the final copy into the tensor happens on the compiled model.
        let prepared = !hasImageInputs ? values : zip(values, predictionInputs).map { value, layer in
            guard case .image(let image) = value, layer.kind == .image, let volume = layer.imageVolume else { return value }
            let target = ImageSize(width: volume.width, height: volume.height)
            return InputValue.image(VisionPipeline.prepare(image, target: target, mode: configuration.imageResizeMode))
        }
        if trains {
            return try withTrainingSession { session in
                guard let predictor = session.predictor else {
                    throw TensorIOError(.unsupported, "the model does not support predict (model.modes)", location: "model.modes")
                }
                return try predictor.run(prepared, profile: &profile)
            }
        }
        var waitStart: UInt64 = 0
        if profile != nil {
            profile?.preparation = Stopwatch.since(start)
            waitStart = Stopwatch.now()
        }
        let (instance, generation) = try acquire()
        defer { release(instance, generation: generation) }
        if profile != nil { profile?.waiting = Stopwatch.since(waitStart) }
        return try instance.run(prepared, profile: &profile)
    }

    // MARK: - Training

    public func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        guard trains else {
            throw TensorIOError(.unsupported, "the model does not support train (model.modes)", location: "model.modes")
        }
        return try withTrainingSession { try $0.train(batch, placeholders: placeholders) }
    }

    /// Writes a copy of the bundle with the weights learnt so far in `weights.safetensors`, which the copy
    /// restores when it loads.
    public func export(to directory: URL) throws {
        guard trains else {
            throw TensorIOError(
                .unsupported, "the model does not train (model.modes), so it has nothing to export", location: "model.modes"
            )
        }
        try withTrainingSession { session in
            try BundleExport.write(bundle, to: directory) { staging in
                try session.saveWeights(to: staging.appendingPathComponent(TFLiteTrainingSession.weightsFileName))
            }
        }
    }

    private func withTrainingSession<Result>(_ body: (TFLiteTrainingSession) throws -> Result) throws -> Result {
        try trainingLock.withLock {
            let session = try trainingSession ?? TFLiteTrainingSession(bundle: bundle, configuration: configuration)
            trainingSession = session
            return try body(session)
        }
    }

    /// An idle compiled model, a new one while the pool has room, or the next one released.
    private func acquire() throws -> (CompiledTFLiteModel, generation: Int) {
        condition.lock()
        while true {
            if let instance = pool.idle.popLast() {
                let generation = pool.generation
                condition.unlock()
                return (instance, generation)
            }
            if pool.created < configuration.maximumConcurrentRuns {
                pool.created += 1
                let generation = pool.generation
                condition.unlock()
                // Compiling takes milliseconds: other callers keep running meanwhile.
                do {
                    return (try CompiledTFLiteModel(bundle: bundle, configuration: configuration), generation)
                } catch {
                    condition.lock()
                    if pool.generation == generation { pool.created -= 1 }
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func release(_ instance: CompiledTFLiteModel, generation: Int) {
        condition.lock()
        if generation == pool.generation { pool.idle.append(instance) }
        condition.signal()
        condition.unlock()
    }
}
