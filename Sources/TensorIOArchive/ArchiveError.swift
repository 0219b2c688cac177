package import TensorIOSupport

/// Why an archive could not be read. TensorIO reports it as the `TensorIOError` of the code its kind
/// names, with its message (`TensorIOError.init(_:)`); the tool's `.npz` reader words it its own way.
package typealias ArchiveError = ModuleError<ArchiveErrorKind>

/// What kind of failure an ``ArchiveError`` is; each is a `TensorIOError.Code` of the same name.
package enum ArchiveErrorKind: Sendable, Hashable {
    /// The archive could not be opened or read.
    case io
    /// The archive is malformed, corrupt or uses a feature the reader refuses.
    case invalidArchive
    /// Reading it would pass one of the reader's limits (its message names the setting).
    case limitExceeded
}
