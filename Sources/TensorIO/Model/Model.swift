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

    /// The tensors the runtime reports, with the layers bound to them.
    ///
    /// - Returns: Descriptions of the model's input and output tensors.
    /// - Throws: ``TensorIOError`` when the model cannot be loaded.
    func tensorDescriptions() throws -> ModelTensors
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

    /// The input layers, in `model.json` order.
    public var inputs: LayerList { bundle.inputs }

    /// The output layers, in `model.json` order.
    public var outputs: LayerList { bundle.outputs }
}
