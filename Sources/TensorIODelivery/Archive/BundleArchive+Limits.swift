#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import TensorIO
import TensorIOArchive

extension BundleArchive {
    /// Bounds on what reading an archive may cost: bytes written, entries, time. Every archive from a
    /// server or a client is untrusted, so each bound holds against the bytes actually produced, not only
    /// against what the archive's headers declare.
    ///
    /// Exceeding one throws `TensorIOError` with `TensorIOError.Code.limitExceeded` naming the entry
    /// (when one is at fault) and the limit.
    public struct Limits: Sendable, Hashable {
        /// The most bytes the whole archive may unpack to, counting the bytes actually written
        /// (default 4 GiB).
        public var maximumUnpackedBytes: UInt64
        /// The most entries, files and folders together, checked before any is read (default 10,000).
        public var maximumEntries: Int
        /// The most bytes one entry may unpack to (default 2 GiB: a FlatBuffer, the format of `.tflite`
        /// files, cannot address more, and archives without ZIP64, the only ones read, cannot hold an
        /// entry of 4 GiB or more anyway).
        public var maximumEntryBytes: UInt64
        /// The largest ratio of unpacked to packed size, for one entry and for the whole archive; only
        /// checked past ``compressionRatioThreshold`` (default 100).
        ///
        /// Real model weights shrink by less than 2:1 when deflated and text assets by about 10:1, while a
        /// zip bomb's entries reach deflate's maximum of about 1,000:1. The ratio is computed from the
        /// declared sizes, which the reader then enforces exactly (an entry producing more or fewer bytes,
        /// or ending its compressed data early or late, is refused), so it cannot be understated.
        public var maximumCompressionRatio: UInt64
        /// Entries, and archives, that unpack to at most this many bytes are never refused for their
        /// ratio (default 16 MiB): small files of zeros or repeated text compress far beyond any sensible
        /// ratio and cost nothing to unpack.
        public var compressionRatioThreshold: UInt64
        /// The most seconds reading, checking and unpacking the whole archive may take (default 600): far
        /// more than 4 GiB needs on any disk, so only a stalled or hostile read reaches it.
        public var timeLimit: TimeInterval

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maximumUnpackedBytes: The most bytes the archive may unpack to (default 4 GiB).
        ///   - maximumEntries: The most entries (default 10,000).
        ///   - maximumEntryBytes: The most bytes one entry may unpack to (default 2 GiB).
        ///   - maximumCompressionRatio: The largest unpacked-to-packed ratio (default 100).
        ///   - compressionRatioThreshold: The size up to which the ratio is not checked (default 16 MiB).
        ///   - timeLimit: The most seconds the whole read may take (default 600).
        public init(
            maximumUnpackedBytes: UInt64 = 4 << 30, maximumEntries: Int = 10_000,
            maximumEntryBytes: UInt64 = 2 << 30, maximumCompressionRatio: UInt64 = 100,
            compressionRatioThreshold: UInt64 = 16 << 20, timeLimit: TimeInterval = 600
        ) {
            self.maximumUnpackedBytes = maximumUnpackedBytes
            self.maximumEntries = maximumEntries
            self.maximumEntryBytes = maximumEntryBytes
            self.maximumCompressionRatio = maximumCompressionRatio
            self.compressionRatioThreshold = compressionRatioThreshold
            self.timeLimit = timeLimit
        }

        /// The bounds ``ZipReader`` enforces itself, named as these settings for its messages.
        var readerLimits: ZipReader.Limits {
            ZipReader.Limits(
                maximumEntries: maximumEntries, maximumEntryBytes: maximumEntryBytes,
                maximumUnpackedBytes: maximumUnpackedBytes, settingsName: "BundleArchive.Limits")
        }

        /// The deadline for one archive's reading, starting now.
        func deadline() -> ArchiveDeadline {
            ArchiveDeadline(seconds: timeLimit, settingName: "BundleArchive.Limits.timeLimit")
        }

        /// Whether `unpacked` bytes made from `packed` bytes break the ratio rule.
        func exceedsRatio(unpacked: UInt64, packed: UInt64) -> Bool {
            CompressionRatio.isExceeded(
                unpacked: unpacked, packed: packed, maximum: maximumCompressionRatio, threshold: compressionRatioThreshold)
        }
    }
}
#endif
