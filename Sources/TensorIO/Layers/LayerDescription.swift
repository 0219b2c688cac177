/// One input or output layer as `model.json` describes it.
///
/// A layer is an `array` (numbers of any shape), a `scalar` (one number), an `image`, or a `string` (raw
/// bytes). Which of the
/// optional fields are set depends on the kind and on whether the layer is an input or an output.
public struct LayerDescription: Sendable, Hashable {
    /// The kind of data a layer carries.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Numbers: single values, vectors, matrices, tensors.
        case array
        /// Pixels.
        case image
        /// Raw bytes, passed through untouched (the original called these "string" layers).
        case string
        /// One number: a one-element tensor of rank 0 or 1, written from and read as a number (the
        /// original's 1.2 format).
        case scalar
    }

    /// The layer's name: the key of dictionary inputs and of the outputs.
    public var name: String
    /// The kind of data.
    public var kind: Kind
    /// The element type written in `dtype`, or `nil` when the bundle leaves it to `model.quantized`.
    public var declaredDataType: DataType?
    /// The shape; a first dimension of `-1` marks a batch dimension.
    public var shape: [Int]
    /// Input arrays: how floats become quantized bytes.
    public var quantize: QuantizationSpec?
    /// Output arrays: how quantized bytes become floats.
    public var dequantize: QuantizationSpec?
    /// Output arrays: the labels file's name inside `assets/`.
    public var labelsFile: String?
    /// Output arrays: the labels, one per element, read from ``labelsFile``.
    public var labels: [String]?
    /// Image layers: the channel order.
    public var pixelFormat: PixelFormat?
    /// Image inputs: how pixel bytes become floats.
    public var normalize: NormalizationSpec?
    /// Image outputs: how floats become pixel bytes.
    public var denormalize: NormalizationSpec?

    /// Creates a layer description.
    public init(
        name: String, kind: Kind, declaredDataType: DataType? = nil, shape: [Int],
        quantize: QuantizationSpec? = nil, dequantize: QuantizationSpec? = nil,
        labelsFile: String? = nil, labels: [String]? = nil, pixelFormat: PixelFormat? = nil,
        normalize: NormalizationSpec? = nil, denormalize: NormalizationSpec? = nil
    ) {
        self.name = name
        self.kind = kind
        self.declaredDataType = declaredDataType
        self.shape = shape
        self.quantize = quantize
        self.dequantize = dequantize
        self.labelsFile = labelsFile
        self.labels = labels
        self.pixelFormat = pixelFormat
        self.normalize = normalize
        self.denormalize = denormalize
    }

    /// Whether the first dimension is a batch dimension (`-1`).
    public var isBatched: Bool { shape.first == -1 }

    /// The number of elements in one item: the absolute product of the shape, so `[-1, 6, 7]` has 42.
    ///
    /// Bundles opened from `model.json` have shapes within ``ModelLimits/maximumElementsPerTensor``; for a
    /// layer built by hand whose product overflows, this is `Int.max`, which no tensor matches.
    public var elementCount: Int {
        var count = 1
        for size in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: size == Int.min ? 0 : abs(size))
            if overflow { return Int.max }
            count = product
        }
        return count
    }

    /// Whether the output's elements are labelled.
    public var isLabeled: Bool { labels != nil }

    /// The size of an image layer; `nil` for other kinds.
    public var imageVolume: ImageVolume? { kind == .image ? ImageVolume(shape: shape) : nil }

    /// The element type the tensor should have: the declared one, else uint8 for quantized models and
    /// float32 otherwise (the original's rule).
    ///
    /// - Parameter quantizedModel: `model.quantized`, or `nil` when `model.json` leaves it out.
    /// - Returns: The type, or `nil` when neither `dtype` nor `model.quantized` says: the layer then takes
    ///   its tensor's type.
    public func dataType(quantizedModel: Bool?) -> DataType? {
        declaredDataType ?? quantizedModel.map { $0 ? .uint8 : .float32 }
    }
}
