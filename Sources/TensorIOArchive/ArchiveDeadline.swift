public import Foundation
import TensorIOSupport

/// The moment an archive's reading must be over, on the monotonic clock (a wall-clock change neither
/// extends nor cuts it short).
public struct ArchiveDeadline: Sendable {
    private let end: TimeInterval
    private let limit: TimeInterval
    private let settingName: String

    /// A deadline `limit` seconds from now; a negative or NaN limit has passed already.
    ///
    /// - Parameters:
    ///   - limit: The seconds allowed.
    ///   - settingName: The setting the limit comes from as messages name it, such as
    ///     `BundleArchive.Limits.timeLimit`.
    public init(seconds limit: TimeInterval, settingName: String) {
        self.limit = limit
        self.settingName = settingName
        // NaN would compare false forever: treat it, like a negative limit, as no time at all.
        end = ProcessInfo.processInfo.systemUptime + (limit.isNaN ? 0 : max(0, limit))
    }

    /// Throws once the deadline has passed.
    ///
    /// - Parameter name: How messages call the archive.
    /// - Throws: ``ArchiveError`` (``ArchiveErrorKind/limitExceeded``).
    public func check(_ name: String) throws {
        if ProcessInfo.processInfo.systemUptime >= end {
            throw ArchiveError(
                .limitExceeded,
                "reading \(name) took longer than the time limit of \(limit) seconds (\(settingName))")
        }
    }
}
