/// The tensors a backend reports for a model: what is really there, as opposed to what `model.json`
/// says.
public struct ModelTensors: Sendable, Hashable {
    /// The signature the model runs (`serving_default` for most converted models).
    public var signature: String?
    /// The input tensors, in the layers' order.
    public var inputs: [TensorDescription]
    /// The output tensors, in the layers' order.
    public var outputs: [TensorDescription]

    public init(signature: String?, inputs: [TensorDescription], outputs: [TensorDescription]) {
        self.signature = signature
        self.inputs = inputs
        self.outputs = outputs
    }
}
