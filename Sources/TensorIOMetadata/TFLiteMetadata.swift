import TensorIOModelFile

/// The TFLite Model Metadata of a `.tflite` file: the `TFLITE_METADATA` buffer that tflite-support's
/// metadata writers and MediaPipe's model makers add, describing the model, each input and output tensor
/// (names, image colour space, normalization, labels) and the files zipped onto the end of the model
/// (read those with ``ModelAttachments``).
///
/// Every byte comes from an untrusted file, so ``read(fromModel:fileName:)`` checks the buffer's bounds,
/// identifier and whole structure before reading a field, and bounds what it builds:
///
/// | What | Most |
/// | --- | --- |
/// | Bytes in one string (names, descriptions, licenses) | ``maximumStringBytes`` (64 KiB) |
/// | Tensor metadata entries, over all subgraphs | ``maximumTensorCount`` (4,096) |
/// | Elements of one list (mean, std, stats, box index, dimension names, process units, associated files, subgraphs) | ``maximumListCount`` (1,024) |
/// | Associated files named, over the whole metadata | ``maximumAssociatedFileCount`` (4,096) |
/// | Bytes of one custom metadata entry | ``maximumCustomDataBytes`` (1 MiB) |
///
/// Past a bound, reading throws ``ModelFileErrorKind/limitExceeded``. The schema read is version 1.5.0
/// (FlatBuffers tables only grow at the end, so every 1.x buffer reads); fields and union members of newer
/// versions are skipped, and enum values this reader does not know become `unknown` cases.
package struct TFLiteMetadata: Sendable, Hashable {
    /// The most bytes one string may have.
    package static let maximumStringBytes = 64 * 1024
    /// The most tensor metadata entries, inputs and outputs of every subgraph together.
    package static let maximumTensorCount = 4096
    /// The most elements of any one list.
    package static let maximumListCount = 1024
    /// The most associated files named anywhere in the metadata.
    package static let maximumAssociatedFileCount = 4096
    /// The most bytes of data one custom metadata entry may hold.
    package static let maximumCustomDataBytes = 1 << 20
    /// The name of the `Model.metadata` entry whose buffer holds the metadata.
    package static let metadataName = "TFLITE_METADATA"

    /// The model's name.
    package var name: String?
    /// What the model does.
    package var description: String?
    /// The model's version, as its author gives it.
    package var version: String?
    /// Who made the model.
    package var author: String?
    /// The licenses that apply to the model.
    package var license: String?
    /// The oldest metadata parser version that understands every field used, such as `1.0.0`.
    package var minParserVersion: String?
    /// One entry per subgraph; the first describes the main subgraph.
    package var subgraphs: [SubgraphMetadata]
    /// Files describing the whole model.
    package var associatedFiles: [AssociatedFile]
    /// The name of every associated file the metadata refers to, at any level (model, subgraphs,
    /// tensors, tokenizer options), without repeats, in the order they appear.
    package var associatedFileNames: [String]

    /// Creates metadata.
    package init(
        name: String? = nil, description: String? = nil, version: String? = nil, author: String? = nil,
        license: String? = nil, minParserVersion: String? = nil, subgraphs: [SubgraphMetadata] = [],
        associatedFiles: [AssociatedFile] = [], associatedFileNames: [String] = []
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.author = author
        self.license = license
        self.minParserVersion = minParserVersion
        self.subgraphs = subgraphs
        self.associatedFiles = associatedFiles
        self.associatedFileNames = associatedFileNames
    }

    /// Reads the metadata of a `.tflite` file.
    ///
    /// Call it only on bytes that `TFLiteModelVerifier.verify(_:limits:fileName:)` accepted: the
    /// model's own tables are read on that promise. The metadata buffer is checked here, and whatever it
    /// holds, reading never traps and never reads outside `bytes`.
    ///
    /// The first `Model.metadata` entry named ``metadataName`` counts. Its buffer is the buffer's inline
    /// `data`, or the `offset`/`size` range stored after the FlatBuffer; it must start with a root offset
    /// and the identifier `M001`, and every table, vector and string reachable from its root must lie
    /// inside it.
    ///
    /// - Parameters:
    ///   - bytes: The whole model file.
    ///   - fileName: The file's name, used in messages.
    /// - Returns: The metadata, or `nil` when the model has none.
    /// - Throws: ``ModelFileError``: ``ModelFileErrorKind/invalidModelFile`` when the metadata is
    ///   malformed, the message naming the file, `TFLITE_METADATA` and the place, such as
    ///   `subgraph_metadata[0].input_tensor_metadata[0].process_units[0]`; or
    ///   ``ModelFileErrorKind/limitExceeded`` when it is past one of the bounds above.
    package static func read(fromModel bytes: UnsafeRawBufferPointer, fileName: String) throws -> TFLiteMetadata? {
        guard let buffer = try MetadataBufferLocator.metadataBuffer(named: metadataName, in: bytes, fileName: fileName) else {
            return nil
        }
        return try read(buffer: buffer, fileName: fileName)
    }

    /// Reads a `TFLITE_METADATA` buffer on its own (the bytes ``read(fromModel:fileName:)`` finds in a model).
    ///
    /// - Throws: As ``read(fromModel:fileName:)``.
    package static func read(buffer: UnsafeRawBufferPointer, fileName: String) throws -> TFLiteMetadata {
        var reader = try MetadataReader(buffer, fileName: fileName)
        return try reader.read()
    }
}
