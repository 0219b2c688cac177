import Foundation

/// The data path every backend shares, in one pass: the value is matched to the layers and its images
/// prepared (``InputPreparer``), an instance is taken from the pool, and the instance writes the
/// prepared values, invokes and reads the outputs. ``RuntimeModel`` and ``TrainableRuntimeModel`` are
/// the public faces of one of these.
final class ModelCore: Sendable {
    let bundle: ModelBundle
    let configuration: ModelConfiguration
    let pool: InstancePool
    /// What a run takes, matched and prepared before an instance is taken.
    let preparer: InputPreparer

    /// Read from the bundle once, not on every run.
    private let predicts: Bool

    init(bundle: ModelBundle, configuration: ModelConfiguration, engine: any BackendEngine) {
        self.bundle = bundle
        self.configuration = configuration
        pool = InstancePool(engine: engine)
        predicts = bundle.modelFile.modes.contains(.predict)
        preparer = InputPreparer(layers: bundle.predictionInputs, configuration: configuration)
    }

    var isLoaded: Bool { pool.isLoaded }

    func load() throws {
        _ = try pool.withInstance { _ in }
    }

    func unload() {
        pool.drain()
    }

    func tensorDescriptions() throws -> ModelTensors {
        try pool.withInstance { $0.tensors }
    }

    /// Runs the model on a value.
    ///
    /// - Parameters:
    ///   - input: A value for the only input, a list by position or a dictionary by layer name.
    ///   - placeholders: Values for the bundle's placeholder layers.
    ///   - profile: Where each part's time goes, when not `nil`.
    ///   - cancellation: Checked between the stages of the run, when the run is async.
    /// - Returns: A value per prediction output layer, in `model.json` order.
    /// - Throws: ``TensorIOError`` when the model does not predict, a value does not fit or the runtime
    ///   fails; `CancellationError` when `cancellation` says so.
    func run(
        _ input: InputValue, placeholders: [String: InputValue] = [:], profile: inout RunProfile?,
        cancellation: RunCancellation? = nil
    ) throws -> Outputs {
        if !predicts { try bundle.require(.predict) }
        if !placeholders.isEmpty { try bundle.checkPlaceholders(Set(placeholders.keys), requireAll: false) }
        // Image layers are checked against the model's tensors (by loading) before any image work: a
        // layer that claims more pixels than its tensor holds must fail there, not in the scaler.
        if preparer.hasImageInputs, !pool.isLoaded { try load() }
        let start = profile == nil ? 0 : Stopwatch.now()
        // Matched and prepared before taking an instance, so concurrent callers overlap that work; only
        // the copy into the tensors happens on the instance.
        let inputs = try preparer.prepare(input)
        try cancellation?.check()
        var waitStart: UInt64 = 0
        if profile != nil {
            profile?.preparation = Stopwatch.since(start)
            waitStart = Stopwatch.now()
        }
        let lease = try pool.acquire(cancellation: cancellation)
        defer { pool.release(lease) }
        if profile != nil { profile?.waiting = Stopwatch.since(waitStart) }
        try cancellation?.check()
        return try lease.withInstance { try $0.run(inputs, placeholders: placeholders, profile: &profile) }
    }

    /// Runs the model on every item of a batch: in one invoke when the backend can, else one item after
    /// another on one instance. Errors name the item.
    func run(_ batch: Batch, cancellation: RunCancellation? = nil) throws -> [Outputs] {
        if !predicts { try bundle.require(.predict) }
        guard !batch.isEmpty else { return [] }
        if preparer.hasImageInputs, !pool.isLoaded { try load() }
        let prepared = try preparer.prepare(batch)
        try cancellation?.check()
        return try pool.withInstance(cancellation: cancellation) { instance in
            if let outputs = try instance.runBatch(prepared) { return outputs }
            var profile: RunProfile?
            return try (0..<prepared.itemCount).map { item in
                try cancellation?.check()
                return try TensorIOError.locating(item: item, of: prepared.itemCount) {
                    try instance.run(prepared.item(item), placeholders: [:], profile: &profile)
                }
            }
        }
    }
}
