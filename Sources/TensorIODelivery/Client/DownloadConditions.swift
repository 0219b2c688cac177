#if Delivery  // built with the Delivery trait only (Package.swift)
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking  // URLSessionConfiguration on Linux
#else
public import Foundation
#endif

/// When and how a model may be downloaded (after ML Kit's `ModelDownloadConditions`).
///
/// The network conditions are `URLSessionConfiguration` settings, applied to the session that transfers
/// the archive (``configure(_:)``). Apple platforms honour them all; on Linux, swift-corelibs-foundation's
/// transfer (libcurl) has no notion of cellular, expensive or constrained networks:
///
/// | Condition | Apple platforms | Linux |
/// |---|---|---|
/// | ``allowsCellularAccess`` | `allowsCellularAccess` | set, no effect |
/// | ``allowsExpensiveNetworkAccess`` | `allowsExpensiveNetworkAccess` | not available: ignored |
/// | ``allowsConstrainedNetworkAccess`` | `allowsConstrainedNetworkAccess` (Low Data Mode) | not available: ignored |
/// | ``waitsForConnectivity`` | `waitsForConnectivity` | not available: ignored |
/// | ``allowsBackgroundDownloading`` | `shouldUseExtendedBackgroundIdleMode` | not supported there: ignored |
public struct DownloadConditions: Sendable, Hashable {
    /// The largest archive to download, in bytes; `nil` for no limit. A bigger version is refused before
    /// any byte is fetched (`TensorIOError.Code.tooLarge`).
    public var maximumBytes: Int64?
    /// Download only a version uploaded after the installed one (so a server-side move of the canonical
    /// pointer to an older version is not followed). A version's `upgradeTo` is always followed.
    public var onlyIfNewer: Bool
    /// Continue an interrupted download where it stopped (HTTP Range), instead of starting over.
    public var allowsResume: Bool
    /// Whether the archive may come over a cellular network (ML Kit's `allowsCellularAccess`).
    public var allowsCellularAccess: Bool
    /// Whether the archive may come over a network the system calls expensive (cellular, a personal
    /// hotspot): the condition Apple recommends over ``allowsCellularAccess``. Apple platforms only.
    public var allowsExpensiveNetworkAccess: Bool
    /// Whether the archive may come over a network in Low Data Mode. Apple platforms only.
    public var allowsConstrainedNetworkAccess: Bool
    /// On a network the conditions refuse (or none), wait for an allowed one instead of failing at once
    /// with `TensorIOError.Code.unreachable` — until the task is cancelled or the session's
    /// `timeoutIntervalForResource` passes. Apple platforms only.
    public var waitsForConnectivity: Bool
    /// Keep the transfer's connection open when the app moves to the background (ML Kit's
    /// `allowsBackgroundDownloading`), for as long as the system lets the app run. It is not a background
    /// `URLSession`: a transfer the system suspends stops, and the next download resumes it from its
    /// partial file (``allowsResume``).
    public var allowsBackgroundDownloading: Bool

    /// Creates conditions.
    ///
    /// - Parameters:
    ///   - maximumBytes: The largest archive to download; `nil` for no limit.
    ///   - onlyIfNewer: Download only versions uploaded after the installed one.
    ///   - allowsResume: Continue interrupted downloads.
    ///   - allowsCellularAccess: Allow cellular networks.
    ///   - allowsExpensiveNetworkAccess: Allow networks the system calls expensive.
    ///   - allowsConstrainedNetworkAccess: Allow networks in Low Data Mode.
    ///   - waitsForConnectivity: Wait for an allowed network instead of failing.
    ///   - allowsBackgroundDownloading: Keep the connection open while the app is in the background.
    public init(
        maximumBytes: Int64? = nil, onlyIfNewer: Bool = true, allowsResume: Bool = true,
        allowsCellularAccess: Bool = true, allowsExpensiveNetworkAccess: Bool = true,
        allowsConstrainedNetworkAccess: Bool = true, waitsForConnectivity: Bool = false,
        allowsBackgroundDownloading: Bool = false
    ) {
        self.maximumBytes = maximumBytes
        self.onlyIfNewer = onlyIfNewer
        self.allowsResume = allowsResume
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        self.waitsForConnectivity = waitsForConnectivity
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }

    /// Sets the network conditions on `configuration`: those the platform's `URLSessionConfiguration` has
    /// (see the table above). The client does this for the session that transfers an archive; call it on a
    /// configuration of your own to transfer with the same conditions.
    ///
    /// - Parameter configuration: The configuration to change.
    public func configure(_ configuration: URLSessionConfiguration) {
        configuration.allowsCellularAccess = allowsCellularAccess
        #if canImport(Darwin)
        configuration.shouldUseExtendedBackgroundIdleMode = allowsBackgroundDownloading
        configuration.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        configuration.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        configuration.waitsForConnectivity = waitsForConnectivity
        #endif
    }
}
#endif
