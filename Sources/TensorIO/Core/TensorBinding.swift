/// A layer joined to the tensor it feeds or reads: everything the data path needs, resolved once when
/// the model loads so that a run only copies and converts.
///
/// A class, immutable: a run reaches its bindings with one retain each, where copying a struct holding a
/// layer description retained every string and array inside it, on every run.
final class TensorBinding: Sendable {
    /// The layer as `model.json` describes it.
    let layer: LayerDescription
    /// The tensor's element type.
    let dataType: DataType
    /// The tensor's real shape.
    let shape: [Int]
    /// Quantizes float values written into an integer input tensor.
    let quantizer: Quantizer?
    /// Dequantizes an integer output tensor into floats.
    let dequantizer: Dequantizer?
    /// The number of elements in the tensor.
    let elementCount: Int
    /// What reading this tensor as an output gives, decided from the layer once rather than on every run.
    let outputForm: OutputForm

    /// The kinds of value an output tensor is read into.
    enum OutputForm {
        /// Raw bytes (model.json's `string` layers).
        case bytes
        /// Pixels, for image layers.
        case image
        /// One number, read without a loop.
        case scalar
        /// Numbers with the tensor's shape.
        case numbers
        /// Scores named by these labels (as many labels as elements).
        case labeled([String])
    }

    init(layer: LayerDescription, dataType: DataType, shape: [Int], quantizer: Quantizer?, dequantizer: Dequantizer?) {
        self.layer = layer
        self.dataType = dataType
        self.shape = shape
        self.quantizer = quantizer
        self.dequantizer = dequantizer
        elementCount = shape.reduce(1, *)
        outputForm = Self.outputForm(of: layer, elementCount: elementCount)
    }

    private static func outputForm(of layer: LayerDescription, elementCount: Int) -> OutputForm {
        if layer.kind == .bytes { return .bytes }
        if layer.isImage { return .image }
        if elementCount == 1, layer.labels == nil || layer.typeName == .scalar { return .scalar }
        if let labels = layer.labels?.values, labels.count == elementCount { return .labeled(labels) }
        return .numbers
    }

    /// The tensor's size in bytes.
    var byteCount: Int { elementCount * dataType.byteCount }
}
