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
    /// How images are fitted to an image input layer.
    let resizeMode: ImageResizeMode
    /// The number of elements in the tensor.
    let elementCount: Int

    init(
        layer: LayerDescription, dataType: DataType, shape: [Int], quantizer: Quantizer?, dequantizer: Dequantizer?,
        resizeMode: ImageResizeMode = .aspectFill
    ) {
        self.layer = layer
        self.dataType = dataType
        self.shape = shape
        self.quantizer = quantizer
        self.dequantizer = dequantizer
        self.resizeMode = resizeMode
        elementCount = shape.reduce(1, *)
    }

    /// The tensor's size in bytes.
    var byteCount: Int { elementCount * dataType.byteCount }
}
