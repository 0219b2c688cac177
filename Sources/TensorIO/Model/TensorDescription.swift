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
