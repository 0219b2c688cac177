internal import TensorIOSupport

/// Why an archive could not be read. TensorIO reports it as the `TensorIOError` of the code ``kind``
/// names, with this message (`TensorIOError.init(_:)`); the tool's `.npz` reader words it its own way.
package struct ArchiveError: SelfDescribingError, Hashable {
    /// What kind of failure this is; each is a `TensorIOError.Code` of the same name.
    package enum Kind: Sendable, Hashable {
        /// The archive could not be opened or read.
        case io
        /// The archive is malformed, corrupt or uses a feature the reader refuses.
        case invalidArchive
        /// Reading it would pass one of the reader's limits (its message names the setting).
        case limitExceeded
    }

    /// What kind of failure this is.
    package var kind: Kind
    /// A sentence naming the archive and what is wrong with it.
    package var message: String

    /// Creates an error.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
