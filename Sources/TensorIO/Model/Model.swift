/// A machine-learning model built from a bundle, ready to run on native Swift values.
///
/// A model may be shared between threads and tasks: runs are safe to make concurrently (the original
/// Tensor/IO forbade it). Loading happens on the first run if ``load()`` was not called.
///
/// From async code, `try await model.run(…)` runs on threads TensorIO owns, so Swift's cooperative
/// pool stays free while the runtime works, and it honours task cancellation before and between the
/// stages of a run. The synchronous `run` blocks its caller's thread.
///
/// ```swift
/// let model = try bundle.makeModel()
/// let outputs = try model.run(["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]])
/// print(try outputs["output1"].value(as: Float.self))
/// let later = try await model.run(["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]])
/// ```
public protocol Model: AnyObject, Sendable {
    /// The bundle the model was built from.
    var bundle: ModelBundle { get }
    /// How the model runs: threads and other runtime settings.
    var configuration: ModelConfiguration { get }
    /// Whether the model's runtime resources are in memory.
    var isLoaded: Bool { get }

    /// Loads the model into memory; does nothing when it is already loaded.
    ///
    /// - Throws: ``TensorIOError`` when the runtime is missing, the model file cannot be read, or a
    ///   layer disagrees with the model's real tensors.
    func load() throws

    /// Frees the model's runtime resources; the next run loads it again.
    func unload()

    /// Runs the model on a value.
    ///
    /// - Parameter input: A value for the only input layer, a dictionary of values by layer name, or
    ///   ``InputValue/positional(_:)`` with one value per input layer in order (an array of numbers is
    ///   always one value; see ``InputValue``).
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidInput`` naming the layer when a value does
    ///   not fit; runtime errors otherwise.
    func run(_ input: InputValue) throws -> Outputs

    /// Runs the model on a value, feeding `placeholders` layers too (TensorFlow graphs).
    ///
    /// - Parameters:
    ///   - input: As for ``run(_:)-(InputValue)``.
    ///   - placeholders: Values for the bundle's `placeholders` layers, by name.
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidInput`` for a name that is not a
    ///   placeholder of the bundle, or naming a placeholder the run needs and was not given.
    func run(_ input: InputValue, placeholders: [String: InputValue]) throws -> Outputs

    /// The tensors the runtime reports, with the layers bound to them.
    ///
    /// - Returns: Descriptions of the model's input and output tensors.
    /// - Throws: ``TensorIOError`` when the model cannot be loaded.
    func tensorDescriptions() throws -> ModelTensors

    /// Runs the model on several items at once, one result per item.
    ///
    /// Backends that can feed a batch dimension (`-1` first in a layer's shape) run the items together;
    /// others run them one after another. Either way the results are the same.
    ///
    /// - Parameter batch: Items keyed by input layer name.
    /// - Returns: The outputs of each item, in item order.
    /// - Throws: ``TensorIOError`` naming the item and layer when a value does not fit.
    func run(_ batch: Batch) throws -> [Outputs]

    /// Runs the model on a value without blocking the calling task's thread.
    ///
    /// - Parameters:
    ///   - input: As for ``run(_:)-(InputValue)``.
    ///   - placeholders: Values for the bundle's `placeholders` layers, by name.
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: `CancellationError` when the task is cancelled before the run finishes its stages;
    ///   otherwise as ``run(_:placeholders:)-(InputValue,_)`` does.
    func run(_ input: InputValue, placeholders: [String: InputValue]) async throws -> Outputs

    /// Runs the model on several items without blocking the calling task's thread.
    ///
    /// - Parameter batch: Items keyed by input layer name.
    /// - Returns: The outputs of each item, in item order.
    /// - Throws: `CancellationError` when the task is cancelled; otherwise as ``run(_:)-(Batch)``.
    func run(_ batch: Batch) async throws -> [Outputs]
}

extension Model {
    /// Models without placeholders (every backend but TensorFlow): runs on `input` when `placeholders`
    /// is empty, and refuses any placeholder value, naming it.
    public func run(_ input: InputValue, placeholders: [String: InputValue]) throws -> Outputs {
        guard placeholders.isEmpty else {
            throw TensorIOError.invalidInput(
                "no placeholder named \(placeholders.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")): this model has no placeholders"
            )
        }
        return try run(input)
    }

    public func run(_ batch: Batch) throws -> [Outputs] {
        try batch.indices.map { index in
            try TensorIOError.locating(item: index, of: batch.count) { try run(.named(batch[index])) }
        }
    }

    /// Runs the synchronous ``run(_:placeholders:)-(InputValue,_)`` on TensorIO's threads (models of
    /// custom types; the built-in backends also check cancellation between stages).
    public func run(_ input: InputValue, placeholders: [String: InputValue]) async throws -> Outputs {
        try await RunThreads.shared.perform { _ in try self.run(input, placeholders: placeholders) }
    }

    /// Runs the synchronous ``run(_:)-(Batch)`` on TensorIO's threads.
    public func run(_ batch: Batch) async throws -> [Outputs] {
        try await RunThreads.shared.perform { _ in try self.run(batch) }
    }

    /// Runs the model on a value without blocking the calling task's thread.
    ///
    /// - Parameter input: A value for the only input layer, a dictionary by name, or values by position.
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: As ``run(_:placeholders:)-(InputValue,_)`` does.
    public func run(_ input: InputValue) async throws -> Outputs {
        try await run(input, placeholders: [:])
    }
}

extension Model {
    /// Runs the model on any value that converts to an input: a number, an array, `Data`, a dictionary
    /// by layer name.
    ///
    /// - Parameter input: The value.
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: ``TensorIOError`` as ``run(_:)-(InputValue)`` does.
    public func run(_ input: some ModelInput) throws -> Outputs {
        try run(input.inputValue)
    }

    /// Runs the model on any value that converts to an input, without blocking the calling task's thread.
    ///
    /// - Parameter input: The value.
    /// - Returns: A value per output layer, in `model.json` order.
    /// - Throws: As ``run(_:placeholders:)-(InputValue,_)`` does.
    public func run(_ input: some ModelInput) async throws -> Outputs {
        try await run(input.inputValue, placeholders: [:])
    }

    /// Every input layer, in `model.json` order, training-only ones included: the bundle's
    /// ``ModelBundle/inputs``. A run takes ``predictionInputs``; a training step takes all of these.
    public var inputs: LayerList { bundle.inputs }

    /// Every output layer, in `model.json` order, training-only ones included: the bundle's
    /// ``ModelBundle/outputs``. A run returns ``predictionOutputs``.
    public var outputs: LayerList { bundle.outputs }

    /// The input layers a run takes, in `model.json` order: the bundle's ``ModelBundle/predictionInputs``
    /// (training-only inputs, such as labels, left out).
    public var predictionInputs: LayerList { bundle.predictionInputs }

    /// The output layers a run returns, in `model.json` order: the bundle's
    /// ``ModelBundle/predictionOutputs`` (training-only outputs, such as a loss, left out).
    public var predictionOutputs: LayerList { bundle.predictionOutputs }
}
