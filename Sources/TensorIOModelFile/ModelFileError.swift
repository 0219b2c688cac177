internal import TensorIOSupport

/// Why a `.tflite` file, or the metadata or attachments inside it, was refused. TensorIO reports it as the
/// `TensorIOError` of the code ``kind`` names, with this message, at the location `model.file` (the
/// `model.json` field that names the file) (`TensorIOError.init(_:)`).
package struct ModelFileError: SelfDescribingError, Hashable {
    /// What kind of failure this is; each is a `TensorIOError.Code` of the same name.
    package enum Kind: Sendable, Hashable {
        /// The file is structurally broken: an offset, size or index out of range, a missing or repeated
        /// name, malformed metadata or attachments.
        case invalidModelFile
        /// A size or count in the file is past one of the limits (the message names it).
        case limitExceeded
    }

    /// What kind of failure this is.
    package var kind: Kind
    /// A sentence naming the file, the place in it and what is wrong.
    package var message: String

    /// Creates an error.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
