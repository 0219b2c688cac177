/// A machine-learning model built from a bundle, ready to run on native Swift values.
///
/// A model may be shared between threads and tasks: runs are safe to make concurrently (the original
/// Tensor/IO forbade it). Loading happens on the first run if ``load()`` was not called.
///
/// ```swift
/// let model = try bundle.makeModel()
/// let outputs = try model.run(["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]])
/// print(outputs["output1"]?.scalar ?? 0)
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
    /// - Parameter input: A value for the only input layer, a list of values matched to the input layers
    ///   by position, or a dictionary of values by layer name.
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
            do {
                return try run(.named(batch[index]))
            } catch var error as TensorIOError {
                error.location = ["item \(index)", error.location].compactMap { $0 }.joined(separator: ", ")
                throw error
            }
        }
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

    /// The input layers a run takes, in `model.json` order (training-only layers left out).
    public var inputs: LayerList { bundle.predictionInputs }

    /// The output layers a run returns, in `model.json` order (training-only layers left out).
    public var outputs: LayerList { bundle.predictionOutputs }
}
