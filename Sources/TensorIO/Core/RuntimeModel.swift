import Foundation

/// A model run by one of TensorIO's runtimes (LiteRT, TensorFlow): the shared ``ModelCore`` over the
/// backend's ``BackendEngine``. What `ModelBundle.makeModel()` returns for the built-in backends.
final class RuntimeModel: ProfilingModel, TrainableModel {
    let core: ModelCore
    /// The backend, for tests and tools that ask which one runs the model.
    let engine: any BackendEngine

    init(bundle: ModelBundle, configuration: ModelConfiguration, engine: any BackendEngine) {
        self.engine = engine
        core = ModelCore(bundle: bundle, configuration: configuration, engine: engine)
    }

    var bundle: ModelBundle { core.bundle }
    var configuration: ModelConfiguration { core.configuration }
    var isLoaded: Bool { core.isLoaded }

    func load() throws { try core.load() }

    /// Frees the runtime's resources. A trainable model forgets what it learnt unless it was exported.
    func unload() { core.unload() }

    func tensorDescriptions() throws -> ModelTensors { try core.tensorDescriptions() }

    // MARK: - Runs

    func run(_ input: InputValue) throws -> Outputs {
        try core.run(input)
    }

    func run(_ input: InputValue, placeholders: [String: InputValue]) throws -> Outputs {
        if placeholders.isEmpty { return try core.run(input) }
        var profile: RunProfile?
        return try core.run(input, placeholders: placeholders, profile: &profile)
    }

    func runProfiled(_ input: InputValue) throws -> (outputs: Outputs, profile: RunProfile) {
        var profile: RunProfile? = RunProfile()
        let outputs = try core.run(input, placeholders: [:], profile: &profile)
        return (outputs, profile ?? RunProfile())
    }

    func run(_ batch: Batch) throws -> [Outputs] {
        try core.run(batch)
    }

    func run(_ input: InputValue, placeholders: [String: InputValue]) async throws -> Outputs {
        try await RunThreads.shared.perform { [core] cancellation in
            var profile: RunProfile?
            return try core.run(input, placeholders: placeholders, profile: &profile, cancellation: cancellation)
        }
    }

    func run(_ batch: Batch) async throws -> [Outputs] {
        try await RunThreads.shared.perform { [core] cancellation in
            try core.run(batch, cancellation: cancellation)
        }
    }

    // MARK: - Training

    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        try train(batch, placeholders: placeholders, cancellation: nil)
    }

    func train(_ batch: Batch, placeholders: [String: InputValue]) async throws -> Outputs {
        try await RunThreads.shared.perform { [self] cancellation in
            try train(batch, placeholders: placeholders, cancellation: cancellation)
        }
    }

    private func train(_ batch: Batch, placeholders: [String: InputValue], cancellation: RunCancellation?) throws -> Outputs {
        // `core.bundle`, not `bundle`: that computed property copies the whole bundle (a retain per
        // field), twice a step.
        try core.bundle.require(.train)
        try core.bundle.checkPlaceholders(Set(placeholders.keys), requireAll: true)
        guard !batch.isEmpty else { throw TensorIOError.invalidInput("the batch has no items to train on") }
        return try core.pool.withInstance(cancellation: cancellation) { instance in
            try cancellation?.check()
            return try trainingInstance(instance).train(batch, placeholders: placeholders)
        }
    }

    /// Writes a copy of the bundle with the weights learnt so far, which the copy loads.
    func export(to directory: URL) throws {
        try core.pool.withInstance { instance in
            try trainingInstance(instance).export(to: directory)
        }
    }

    private func trainingInstance(_ instance: any BackendInstance) throws -> any TrainingInstance {
        guard let training = instance as? any TrainingInstance else {
            throw TensorIOError(
                .unsupported, "the model does not train (model.modes), so it has nothing to train or export",
                location: "model.modes"
            )
        }
        return training
    }
}
