/// One input or output layer as `model.json` describes it.
///
/// A layer has a name, a shape, an optional declared element type, and a ``Kind`` that carries what only
/// that kind of layer can say: an array's quantization and labels, an image's pixel format and
/// normalization. Whether a layer is an input or an output is not part of the description: it is the list
/// the layer is in (``ModelBundle/inputs`` or ``ModelBundle/outputs``), and it decides which way the
/// kind's transforms run.
///
/// ```swift
/// let image = LayerDescription(
///     name: "image", shape: [224, 224, 3], kind: .image(format: .rgb, normalization: .standard(.minusOneToOne))
/// )
/// switch bundle.outputs[0].kind {
/// case .array(_, let labels?): print("\(labels.values.count) labels from \(labels.file)")
/// case .array, .scalar, .image, .bytes: break
/// }
/// ```
public struct LayerDescription: Sendable, Hashable {
    /// The kind of data a layer carries, with what only that kind can say.
    ///
    /// `model.json` spells the kinds `array`, `scalar`, `image` and `string` (for ``bytes``).
    public enum Kind: Sendable, Hashable {
        /// Numbers of any shape: single values, vectors, matrices, tensors.
        ///
        /// - Parameters:
        ///   - quantization: On an input, how floats become quantized integers (`quantize` in
        ///     `model.json`); on an output, how quantized integers become floats (`dequantize`).
        ///   - labels: Output arrays only: the labels file and its labels, one per element (`labels`).
        case array(quantization: QuantizationSpec? = nil, labels: LayerLabels? = nil)
        /// One number: a one-element tensor of rank 0 or 1, written from and read as a number (the
        /// original's 1.2 format).
        ///
        /// - Parameter quantization: On an input, how the float becomes a quantized integer
        ///   (`quantize`); on an output, how the quantized integer becomes a float (`dequantize`).
        case scalar(quantization: QuantizationSpec? = nil)
        /// Pixels.
        ///
        /// - Parameters:
        ///   - format: The channel order (`format`).
        ///   - normalization: On an input, how pixel bytes become the tensor's values (`normalize`); on an
        ///     output, how the tensor's values become pixel bytes (`denormalize`).
        case image(format: ImageTensorFormat, normalization: NormalizationSpec? = nil)
        /// Raw bytes, passed through untouched (`string` in `model.json`, as the original called them).
        case bytes
    }

    /// The layer's name: the key of dictionary inputs and of the outputs.
    public let name: String
    /// The shape; a first dimension of `-1` marks a batch dimension.
    public let shape: [Int]
    /// The element type written in `dtype`, or `nil` when the bundle leaves it to `model.quantized`.
    public let declaredDataType: DataType?
    /// The kind of data, with the settings that belong to it.
    public let kind: Kind
    /// How photos are fitted to this image input (`resize` in `model.json`); `nil` when the bundle
    /// leaves it out (``ModelConfiguration/imageResizeMode`` decides, centre crop by default).
    public let imageResizeMode: ImageResizeMode?
    /// How photos are resampled to this image input (`scaling` in `model.json`); `nil` when the bundle
    /// leaves it out (``ModelConfiguration/imageScalingFilter`` decides, the box filter by default).
    public let imageScalingFilter: ImageScalingFilter?

    /// Creates a layer description.
    ///
    /// - Parameters:
    ///   - name: The layer's name.
    ///   - shape: The shape; a first dimension of `-1` marks a batch dimension. Images:
    ///     `[height, width, channels]`, or four sizes with `-1` first or last.
    ///   - declaredDataType: The element type (`dtype`), or `nil` to leave it to `model.quantized`.
    ///   - kind: The kind of data and its settings.
    ///   - imageResizeMode: For an image input, how photos are fitted to it; `nil` to leave it to the
    ///     model's configuration.
    ///   - imageScalingFilter: For an image input, how photos are resampled to it; `nil` to leave it to the
    ///     model's configuration.
    public init(
        name: String, shape: [Int], declaredDataType: DataType? = nil, kind: Kind,
        imageResizeMode: ImageResizeMode? = nil, imageScalingFilter: ImageScalingFilter? = nil
    ) {
        self.name = name
        self.shape = shape
        self.declaredDataType = declaredDataType
        self.kind = kind
        self.imageResizeMode = imageResizeMode
        self.imageScalingFilter = imageScalingFilter
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

    /// The labels of a labelled output array; `nil` for every other layer.
    public var labels: LayerLabels? {
        if case .array(_, let labels) = kind { return labels }
        return nil
    }

    /// The size of an image layer; `nil` for other kinds.
    public var imageVolume: ImageVolume? {
        if case .image = kind { return ImageVolume(shape: shape) }
        return nil
    }

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

// MARK: - Internal helpers

extension LayerDescription {
    /// The kinds as `model.json`'s `type` spells them, in the order error messages list them.
    enum TypeName: String, CaseIterable {
        case array, image, string, scalar
    }

    /// The kind as `model.json`'s `type` spells it.
    var typeName: TypeName {
        switch kind {
        case .array: .array
        case .image: .image
        case .bytes: .string
        case .scalar: .scalar
        }
    }

    /// The kind as `model.json`'s `type` spells it ("array", "image", "string", "scalar"), for messages
    /// and for writing `model.json`.
    @_spi(Internal) public var kindName: String { typeName.rawValue }

    /// Whether this is an image layer.
    @_spi(Internal) public var isImage: Bool { typeName == .image }

    /// An array's or a scalar's quantization (`quantize` on inputs, `dequantize` on outputs).
    var quantization: QuantizationSpec? {
        switch kind {
        case .array(let quantization, _), .scalar(let quantization): quantization
        case .image, .bytes: nil
        }
    }

    /// An image's channel order; `nil` for other kinds.
    var pixelFormat: ImageTensorFormat? {
        if case .image(let format, _) = kind { return format }
        return nil
    }

    /// An image's normalization (`normalize` on inputs, `denormalize` on outputs).
    var normalization: NormalizationSpec? {
        if case .image(_, let normalization) = kind { return normalization }
        return nil
    }

    /// A copy with another kind.
    func with(kind: Kind) -> LayerDescription {
        LayerDescription(
            name: name, shape: shape, declaredDataType: declaredDataType, kind: kind, imageResizeMode: imageResizeMode,
            imageScalingFilter: imageScalingFilter
        )
    }

    /// A copy with these image settings (meaningful on image inputs).
    package func withImageSettings(resizeMode: ImageResizeMode?, scalingFilter: ImageScalingFilter?) -> LayerDescription {
        LayerDescription(
            name: name, shape: shape, declaredDataType: declaredDataType, kind: kind, imageResizeMode: resizeMode,
            imageScalingFilter: scalingFilter
        )
    }

    /// A copy of an array layer with these labels; other kinds are returned unchanged.
    func with(labels: LayerLabels?) -> LayerDescription {
        guard case .array(let quantization, _) = kind else { return self }
        return with(kind: .array(quantization: quantization, labels: labels))
    }
}
