/// A layer joined to the tensor it feeds or reads: everything the data path needs, resolved once when
/// the model loads so that a run only copies and converts.
struct TensorBinding: Sendable {
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
    var resizeMode: ImageResizeMode = .aspectFill

    /// The number of elements in the tensor.
    var elementCount: Int { shape.reduce(1, *) }

    /// The tensor's size in bytes.
    var byteCount: Int { elementCount * dataType.byteCount }
}
