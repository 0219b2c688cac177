/// Where a SavedModel's graph saves and restores its variables: the `saver_def` of its `MetaGraphDef`.
///
/// Feeding a checkpoint prefix to ``filenameTensor`` and fetching ``saveTensor`` writes every variable
/// (`<prefix>.index` and `<prefix>.data-…`); running ``restoreOperation`` with the prefix reads them back.
/// This is how the original exported checkpoints, and it needs no Python.
struct SaverDefinition: Sendable, Hashable {
    /// The string tensor fed with the checkpoint prefix, such as `save/Const:0`.
    var filenameTensor: String
    /// The tensor whose fetch writes the checkpoint, such as `save/control_dependency:0`.
    var saveTensor: String
    /// The operation that restores every variable from the prefix, such as `save/restore_all`.
    var restoreOperation: String

    /// Reads the saver definition out of a serialized `tensorflow.MetaGraphDef`, or `nil` when it has
    /// none (or the bytes are not a protocol buffer).
    ///
    /// Only three strings are needed, so this walks the wire format directly rather than depending on a
    /// protocol-buffer library: `MetaGraphDef.saver_def` is field 3; in `SaverDef`, `filename_tensor_name`,
    /// `save_tensor_name` and `restore_op_name` are fields 1, 2 and 3.
    init?(metaGraphDef bytes: UnsafeRawBufferPointer) {
        guard let saver = ProtobufReader.lengthDelimitedField(3, in: bytes) else { return nil }
        guard
            let filename = ProtobufReader.lengthDelimitedField(1, in: saver).map(String.init(decoding:)),
            let save = ProtobufReader.lengthDelimitedField(2, in: saver).map(String.init(decoding:)),
            let restore = ProtobufReader.lengthDelimitedField(3, in: saver).map(String.init(decoding:)),
            !filename.isEmpty, !save.isEmpty, !restore.isEmpty
        else { return nil }
        filenameTensor = filename
        saveTensor = save
        restoreOperation = restore
    }
}

private extension String {
    init(decoding bytes: UnsafeRawBufferPointer) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}
