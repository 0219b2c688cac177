import Foundation

/// A model run by one of TensorIO's runtimes (LiteRT, TensorFlow): the public face of a ``ModelCore``
/// over the backend's ``BackendEngine``. What `ModelBundle.makeModel()` returns for the built-in
/// backends when the bundle only predicts; a bundle that trains gets a ``TrainableRuntimeModel``.
final class RuntimeModel: CoreBackedModel {
    let core: ModelCore
    let engine: any BackendEngine

    init(bundle: ModelBundle, configuration: ModelConfiguration, engine: any BackendEngine) {
        self.engine = engine
        core = ModelCore(bundle: bundle, configuration: configuration, engine: engine)
    }
}

/// A model of one of TensorIO's runtimes whose bundle trains (`model.modes` includes `train`): the
/// only built-in model type that is a ``TrainableModel``.
final class TrainableRuntimeModel: CoreBackedModel, TrainableModel {
    let core: ModelCore
    let engine: any BackendEngine
    /// The layers a training step feeds (every input layer), to prepare a batch's images with.
    private let trainingPreparer: InputPreparer
    /// Whether the bundle's modes include train, and the placeholders a step must be given, known once:
    /// a step that is given exactly those is checked without reading (and copying) the bundle, which cost
    /// about 4% of a 10 µs LiteRT step (docs/performance.md, training).
    private let trains: Bool
    private let placeholderNames: Set<String>

    init(bundle: ModelBundle, configuration: ModelConfiguration, engine: any BackendEngine) {
        self.engine = engine
        core = ModelCore(bundle: bundle, configuration: configuration, engine: engine)
        trainingPreparer = InputPreparer(layers: bundle.inputs, configuration: configuration)
        trains = bundle.modelFile.modes.contains(.train)
        placeholderNames = Set(bundle.placeholders.names)
    }

    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        try train(batch, placeholders: placeholders, cancellation: nil)
    }

    func train(_ batch: Batch, placeholders: [String: InputValue]) async throws -> Outputs {
        try await RunThreads.shared.perform { [self] cancellation in
            try train(batch, placeholders: placeholders, cancellation: cancellation)
        }
    }

    private func train(_ batch: Batch, placeholders: [String: InputValue], cancellation: RunCancellation?) throws -> Outputs {
        if !trains || placeholders.count != placeholderNames.count || !placeholders.keys.allSatisfy(placeholderNames.contains) {
            // Something is wrong: the bundle's own checks say what.
            try core.bundle.require(.train)
            try core.bundle.checkPlaceholders(Set(placeholders.keys), requireAll: true)
        }
        guard !batch.isEmpty else { throw TensorIOError.invalidInput("the batch has no items to train on") }
        let prepared = trainingPreparer.preparingImages(in: batch)
        return try core.pool.withInstance(cancellation: cancellation) { instance in
            try cancellation?.check()
            return try trainingInstance(instance).train(prepared, placeholders: placeholders)
        }
    }

    /// Writes a copy of the bundle with the weights learnt so far, which the copy loads.
    func export(to directory: URL) throws {
        try core.pool.withInstance { instance in
            try trainingInstance(instance).export(to: directory)
        }
    }

    /// The instance as one that trains: every built-in backend's instance for a bundle that trains is one.
    private func trainingInstance(_ instance: any BackendInstance) throws -> any TrainingInstance {
        guard let training = instance as? any TrainingInstance else {
            throw TensorIOError(
                .unsupported, "the \(core.bundle.modelFile.backend ?? ModelRegistry.defaultBackend) backend's models cannot train",
                location: "model.backend"
            )
        }
        return training
    }
}

/// What ``RuntimeModel`` and ``TrainableRuntimeModel`` share: every ``Model`` requirement, answered by
/// the core. Written once here so the two types differ only in what training adds.
protocol CoreBackedModel: ProfilingModel {
    var core: ModelCore { get }
    /// The backend, for tests and tools that ask which one runs the model.
    var engine: any BackendEngine { get }
}

extension CoreBackedModel {
    var bundle: ModelBundle { core.bundle }
    var configuration: ModelConfiguration { core.configuration }
    var isLoaded: Bool { core.isLoaded }

    func load() throws { try core.load() }

    /// Frees the runtime's resources. A trainable model forgets what it learnt unless it was exported.
    func unload() { core.unload() }

    func tensorDescriptions() throws -> ModelTensors { try core.tensorDescriptions() }

    func run(_ input: InputValue) throws -> Outputs {
        var profile: RunProfile?
        return try core.run(input, profile: &profile)
    }

    func run(_ input: InputValue, placeholders: [String: InputValue]) throws -> Outputs {
        var profile: RunProfile?
        return try core.run(input, placeholders: placeholders, profile: &profile)
    }

    func runProfiled(_ input: InputValue) throws -> (outputs: Outputs, profile: RunProfile) {
        var profile: RunProfile? = RunProfile()
        let outputs = try core.run(input, profile: &profile)
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
}
