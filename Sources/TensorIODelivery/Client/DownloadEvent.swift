#if Delivery  // built with the Delivery trait only (Package.swift)
public import TensorIO

/// What a download reports, in order: ``started(_:resumingFrom:)``, ``progress(received:total:)`` (many),
/// ``verified(sha256:)``, then ``installed(_:)``; or ``installed(_:)`` alone, when the version's archive is
/// the installed one's and nothing is downloaded; or ``upToDate(_:)``; or ``failed(_:)`` at any point.
public enum DownloadEvent: Sendable {
    /// The transfer of this version begins; `resumingFrom` bytes were already on disk.
    case started(VersionDetails, resumingFrom: Int64)
    /// Bytes of the archive on disk so far, of `total`.
    case progress(received: Int64, total: Int64)
    /// The whole archive is on disk and its SHA-256 matches the server's.
    case verified(sha256: String)
    /// The version is installed and current; the one it replaced is kept for rollback. Alone (without
    /// ``started(_:resumingFrom:)``), it was copied from the installed version with the same archive.
    case installed(InstalledModel)
    /// Nothing to do: the installed version is the one wanted (or no newer one exists).
    case upToDate(InstalledModel?)
    /// The download or the install failed; the current version, if any, is untouched.
    case failed(TensorIOError)
}
#endif
