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

/// One tensor as the runtime reports it.
public struct TensorDescription: Sendable, Hashable {
    /// The name the signature gives the tensor.
    public var name: String
    /// The tensor's own name in the graph, when it differs from ``name``.
    public var tensorName: String?
    /// The layer bound to the tensor.
    public var layerName: String
    /// The element type's name as the runtime gives it (`float32`, `uint8`, `string`, …).
    public var typeName: String
    /// The shape the runtime will use.
    public var shape: [Int]
    /// How the tensor is quantized, if it is.
    public var quantization: TensorQuantization?
    /// The shape the model file gives, when the runtime sizes the tensor otherwise: `[]` for an output
    /// whose operator sizes it (the COCO SSD detector's four), `-1` for each dimension the file leaves
    /// open. `nil` when the file fixes ``shape``. Such an output is read at the shape the runtime reports
    /// after each run.
    public var fileShape: [Int]?
    /// Whether the runtime, not the model file, sizes the tensor (``fileShape`` is set).
    public var isSizedByRuntime: Bool { fileShape != nil }

    public init(
        name: String, tensorName: String? = nil, layerName: String, typeName: String, shape: [Int],
        quantization: TensorQuantization? = nil, fileShape: [Int]? = nil
    ) {
        self.name = name
        self.tensorName = tensorName
        self.layerName = layerName
        self.typeName = typeName
        self.shape = shape
        self.quantization = quantization
        self.fileShape = fileShape
    }
}

/// A tensor's quantization parameters: real value = (q − zeroPoint) × scale.
public enum TensorQuantization: Sendable, Hashable {
    /// One scale and zero point for the whole tensor.
    case perTensor(scale: Float, zeroPoint: Int64)
    /// A scale and zero point per slice along one dimension.
    case perChannel(dimension: Int, scales: [Float], zeroPoints: [Int64])
}
