import Foundation
import TensorIO

/// The moment an archive's reading must be over, on the monotonic clock (a wall-clock change neither
/// extends nor cuts it short).
struct ArchiveDeadline: Sendable {
    private let end: TimeInterval
    private let limit: TimeInterval

    /// A deadline `limit` seconds from now; a negative or NaN limit has passed already.
    init(seconds limit: TimeInterval) {
        self.limit = limit
        // NaN would compare false forever: treat it, like a negative limit, as no time at all.
        end = ProcessInfo.processInfo.systemUptime + (limit.isNaN ? 0 : max(0, limit))
    }

    /// Throws once the deadline has passed.
    ///
    /// - Parameter name: How messages call the archive.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/limitExceeded``).
    func check(_ name: String) throws {
        if ProcessInfo.processInfo.systemUptime >= end {
            throw TensorIOError(
                .limitExceeded,
                "reading \(name) took longer than the time limit of \(limit) seconds (BundleArchive.Limits.timeLimit)")
        }
    }
}
