/// When and how a model may be downloaded (after ML Kit's `ModelDownloadConditions`).
///
/// Network kinds (cellular, background) are not modelled: on Apple platforms configure them on your own
/// `URLSessionConfiguration`; on Linux they do not apply.
public struct DownloadConditions: Sendable, Hashable {
    /// The largest archive to download, in bytes; `nil` for no limit. A bigger version is refused before
    /// any byte is fetched (`TensorIOError.Code.tooLarge`).
    public var maximumBytes: Int64?
    /// Download only a version uploaded after the installed one (so a server-side move of the canonical
    /// pointer to an older version is not followed). A version's `upgradeTo` is always followed.
    public var onlyIfNewer: Bool
    /// Continue an interrupted download where it stopped (HTTP Range), instead of starting over.
    public var allowsResume: Bool

    /// Creates conditions.
    ///
    /// - Parameters:
    ///   - maximumBytes: The largest archive to download; `nil` for no limit.
    ///   - onlyIfNewer: Download only versions uploaded after the installed one.
    ///   - allowsResume: Continue interrupted downloads.
    public init(maximumBytes: Int64? = nil, onlyIfNewer: Bool = true, allowsResume: Bool = true) {
        self.maximumBytes = maximumBytes
        self.onlyIfNewer = onlyIfNewer
        self.allowsResume = allowsResume
    }
}
