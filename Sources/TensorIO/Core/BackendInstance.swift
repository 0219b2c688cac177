import Foundation

/// What a backend supplies to ``ModelCore``: one loaded instance of a model in its runtime (a LiteRT
/// compiled model, a TensorFlow session), with every layer already bound and checked. Everything around
/// it — matching values to layers, preparing images, modes, placeholders, the pool of instances,
/// profiling, batches and error locations — is the core's, so a new backend is this and a
/// ``BackendEngine``.
protocol BackendInstance: AnyObject {
    /// The tensors the runtime reports, with the layers bound to them.
    var tensors: ModelTensors { get }

    /// Writes the inputs, invokes and reads every prediction output.
    ///
    /// - Parameters:
    ///   - inputs: One value per prediction input layer, in `model.json` order, images already oriented
    ///     and scaled to their layer's size: the instance only writes them.
    ///   - placeholders: Values for the bundle's placeholder layers, names already checked.
    ///   - profile: Where to measure the inputs, invoke and outputs, when not `nil`.
    /// - Returns: A value per prediction output layer, in `model.json` order.
    /// - Throws: ``TensorIOError`` naming the layer when a value does not fit; the runtime's failure.
    func run(_ inputs: PreparedInputs, placeholders: [String: InputValue], profile: inout RunProfile?) throws -> Outputs

    /// Runs every item of a batch in one invoke, when the backend can feed a batch dimension.
    ///
    /// - Parameter batch: For each prediction input layer in `model.json` order, one value per item.
    /// - Returns: Each item's outputs, or `nil` when the backend runs items one at a time (the core then
    ///   does).
    /// - Throws: ``TensorIOError`` naming the item and layer when a value does not fit.
    func runBatch(_ batch: PreparedBatch) throws -> [Outputs]?
}

extension BackendInstance {
    func runBatch(_ batch: PreparedBatch) throws -> [Outputs]? { nil }
}

/// How a backend loads its instances, and how runs may share them.
protocol BackendEngine: Sendable {
    /// Whether one instance takes any number of runs at once (TensorFlow sessions) rather than one
    /// run at a time (LiteRT compiled models, whose buffers are the instance's own).
    var instancesRunConcurrently: Bool { get }

    /// How many instances may exist at once, for runs that take one each.
    var maximumInstances: Int { get }

    /// Loads one instance: compiles the model and binds every layer, checking it against its tensor.
    ///
    /// - Throws: ``TensorIOError`` when the runtime is missing, the model file cannot be read or a layer
    ///   disagrees with the model's tensors.
    func makeInstance() throws -> any BackendInstance
}

/// What only some backends' instances do: training steps and writing what was learnt.
protocol TrainingInstance: BackendInstance {
    /// Takes one training step: feeds the batch and the placeholders, runs the training operations and
    /// returns the training outputs.
    ///
    /// - Parameters:
    ///   - batch: At least one item, with a value for every input layer, images already oriented and
    ///     scaled to their layer's size.
    ///   - placeholders: A value for every placeholder layer (names already checked).
    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs

    /// Writes a copy of the bundle holding the weights learnt so far.
    func export(to directory: URL) throws
}
