import Foundation

/// The data path every backend shares: value → matching → image preparation → a model instance from
/// the pool → the backend's write, invoke and read → outputs. ``RuntimeModel`` holds one of these over
/// a backend's ``BackendEngine`` and adds training, which only some instances do.
final class ModelCore: Sendable {
    let bundle: ModelBundle
    let configuration: ModelConfiguration
    let pool: InstancePool

    /// Read from the bundle once, not on every run.
    private let predicts: Bool
    /// The layers a run takes (training-only ones left out).
    let predictionInputs: LayerList
    /// For each prediction input, the size its images are scaled to (`nil` for other layers).
    private let imageTargets: [ImageSize?]
    private let hasImageInputs: Bool

    init(bundle: ModelBundle, configuration: ModelConfiguration, engine: any BackendEngine) {
        self.bundle = bundle
        self.configuration = configuration
        pool = InstancePool(engine: engine)
        predicts = bundle.model.modes.contains(.predict)
        predictionInputs = bundle.predictionInputs
        imageTargets = predictionInputs.map(\.imageSize)
        hasImageInputs = imageTargets.contains { $0 != nil }
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

    /// Runs the model on a value: the synchronous run without placeholders or profile, the one apps
    /// make most, on the shortest path there is (no stage of it is measured or cancelled).
    ///
    /// - Parameter input: A value for the only input, a list by position or a dictionary by layer name.
    /// - Returns: A value per prediction output layer, in `model.json` order.
    /// - Throws: As ``run(_:placeholders:profile:cancellation:)``.
    func run(_ input: InputValue) throws -> Outputs {
        guard !hasImageInputs else {
            var profile: RunProfile?
            return try run(input, placeholders: [:], profile: &profile)
        }
        try requirePrediction()
        return try pool.withInstance { try $0.run(input) }
    }

    /// Runs the model on a value.
    ///
    /// - Parameters:
    ///   - input: A value for the only input, a list by position or a dictionary by layer name.
    ///   - placeholders: Values for the bundle's placeholder layers.
    ///   - profile: Where each part's time goes, when not `nil`.
    ///   - cancellation: Checked between the stages of the run, when the run is async.
    func run(
        _ input: InputValue, placeholders: [String: InputValue], profile: inout RunProfile?,
        cancellation: RunCancellation? = nil
    ) throws -> Outputs {
        try requirePrediction()
        if !placeholders.isEmpty { try bundle.checkPlaceholders(Set(placeholders.keys), requireAll: false) }
        // Image layers are checked against the model's tensors (by loading) before any image work: a
        // layer that claims more pixels than its tensor holds must fail there, not in the scaler.
        if hasImageInputs, !pool.isLoaded { try load() }
        let start = profile == nil ? 0 : Stopwatch.now()
        // Images are oriented and scaled before taking an instance, so concurrent callers overlap that
        // work; only the final copy into the tensor happens on the instance. Other values go as given:
        // the instance matches them to its layers as it writes them.
        // (Two calls rather than one on a conditionally rebound value: the rebinding copied the input,
        // a retain and a release on every run.)
        if hasImageInputs {
            let matched = try InputMatching.values(for: input, layers: predictionInputs)
            return try runOnInstance(.positional(prepared(matched)), placeholders: placeholders, profile: &profile,
                                     cancellation: cancellation, preparationStart: start)
        }
        return try runOnInstance(input, placeholders: placeholders, profile: &profile, cancellation: cancellation,
                                 preparationStart: start)
    }

    /// The rest of ``run(_:placeholders:profile:cancellation:)`` once images are prepared: takes an
    /// instance from the pool and runs on it.
    @inline(__always)
    private func runOnInstance(
        _ input: InputValue, placeholders: [String: InputValue], profile: inout RunProfile?,
        cancellation: RunCancellation?, preparationStart: UInt64
    ) throws -> Outputs {
        try cancellation?.check()
        var waitStart: UInt64 = 0
        if profile != nil {
            profile?.preparation = Stopwatch.since(preparationStart)
            waitStart = Stopwatch.now()
        }
        let lease = try pool.acquire(cancellation: cancellation)
        defer { pool.release(lease) }
        if profile != nil { profile?.waiting = Stopwatch.since(waitStart) }
        try cancellation?.check()
        return try lease.withInstance { try $0.run(input, placeholders: placeholders, profile: &profile) }
    }

    /// Runs the model on every item of a batch: in one invoke when the backend can, else one item after
    /// another on one instance. Errors name the item.
    func run(_ batch: Batch, cancellation: RunCancellation? = nil) throws -> [Outputs] {
        try requirePrediction()
        guard !batch.isEmpty else { return [] }
        if hasImageInputs, !pool.isLoaded { try load() }
        let columns = try batch.columns(for: predictionInputs).enumerated().map { index, column in
            column.map { prepared($0, target: imageTargets[index]) }
        }
        try cancellation?.check()
        return try pool.withInstance(cancellation: cancellation) { instance in
            if let outputs = try instance.runBatch(columns, itemCount: batch.count) { return outputs }
            var profile: RunProfile?
            return try (0..<batch.count).map { item in
                try cancellation?.check()
                return try TensorIOError.locating(item: item, of: batch.count) {
                    try instance.run(.positional(columns.map { $0[item] }), placeholders: [:], profile: &profile)
                }
            }
        }
    }

    /// Fails unless `model.modes` includes predict.
    func requirePrediction() throws {
        if !predicts { try bundle.require(.predict) }
    }

    private func prepared(_ values: [InputValue]) -> [InputValue] {
        guard hasImageInputs else { return values }
        return zip(values, imageTargets).map { prepared($0, target: $1) }
    }

    private func prepared(_ value: InputValue, target: ImageSize?) -> InputValue {
        guard let target, case .image(let image) = value else { return value }
        return .image(VisionPipeline.prepare(image, target: target, mode: configuration.imageResizeMode))
    }
}
