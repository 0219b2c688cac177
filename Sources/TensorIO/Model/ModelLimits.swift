/// Bounds on the sizes and counts TensorIO accepts from files it did not write: `model.json`, model
/// files, images and their headers.
///
/// Every count or byte size computed from such a file is overflow-checked and compared with one of these
/// before memory is allocated or a C library sees the data. Going past a limit is a ``TensorIOError``
/// with code ``TensorIOError/Code/limitExceeded`` naming the field (such as `inputs[0].shape`) and the
/// limit. The defaults fit every published model we know of with room to spare; raise them for the rare
/// model that needs more. `docs/security.md` explains each one.
public struct ModelLimits: Sendable, Hashable, Codable {
    /// The most elements one layer or tensor may hold (one item, without the batch dimension).
    public var maximumElementsPerTensor: Int
    /// The most pixels (width × height) an image layer may have.
    public var maximumImageLayerPixels: Int
    /// The most pixels an image may decode to (after any reduced-size decoding).
    public var maximumDecodedImagePixels: Int
    /// The largest model file (a `.tflite` file, or a SavedModel's `saved_model.pb`), in bytes.
    public var maximumModelFileBytes: Int
    /// The largest `model.json`, in bytes.
    public var maximumModelJSONBytes: Int
    /// The largest labels file, in bytes.
    public var maximumLabelsFileBytes: Int
    /// The largest image file read from disk, in bytes.
    public var maximumImageFileBytes: Int

    /// Creates limits; every argument has the documented default.
    ///
    /// - Parameters:
    ///   - maximumElementsPerTensor: Elements per layer or tensor; default 2²⁸ (268,435,456: 1 GiB of
    ///     float32).
    ///   - maximumImageLayerPixels: Pixels per image layer; default 2²⁶ (67,108,864: 8192 × 8192).
    ///   - maximumDecodedImagePixels: Pixels per decoded image; default 2²⁶ (a 67-megapixel photo).
    ///   - maximumModelFileBytes: Bytes per model file; default 2 GiB (the FlatBuffers limit).
    ///   - maximumModelJSONBytes: Bytes per `model.json`; default 4 MiB.
    ///   - maximumLabelsFileBytes: Bytes per labels file; default 64 MiB.
    ///   - maximumImageFileBytes: Bytes per image file; default 256 MiB.
    public init(
        maximumElementsPerTensor: Int = 1 << 28,
        maximumImageLayerPixels: Int = 1 << 26,
        maximumDecodedImagePixels: Int = 1 << 26,
        maximumModelFileBytes: Int = 1 << 31,
        maximumModelJSONBytes: Int = 4 << 20,
        maximumLabelsFileBytes: Int = 64 << 20,
        maximumImageFileBytes: Int = 256 << 20
    ) {
        self.maximumElementsPerTensor = maximumElementsPerTensor
        self.maximumImageLayerPixels = maximumImageLayerPixels
        self.maximumDecodedImagePixels = maximumDecodedImagePixels
        self.maximumModelFileBytes = maximumModelFileBytes
        self.maximumModelJSONBytes = maximumModelJSONBytes
        self.maximumLabelsFileBytes = maximumLabelsFileBytes
        self.maximumImageFileBytes = maximumImageFileBytes
    }
}
