package import TensorIOSupport

/// Why a `.tflite` file, or the metadata or attachments inside it, was refused: its message names the
/// file, the place in it and what is wrong. TensorIO reports it as the `TensorIOError` of the code its kind
/// names, at the location `model.file` (the `model.json` field that names the file) (`TensorIOError.init(_:)`).
package typealias ModelFileError = ModuleError<ModelFileErrorKind>

/// What kind of failure a ``ModelFileError`` is; each is a `TensorIOError.Code` of the same name.
package enum ModelFileErrorKind: Sendable, Hashable {
    /// The file is structurally broken: an offset, size or index out of range, a missing or repeated
    /// name, malformed metadata or attachments.
    case invalidModelFile
    /// A size or count in the file is past one of the limits (the message names it).
    case limitExceeded
}
