#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import TensorIO
import TensorIOArchive

extension BundleArchive {
    /// One entry of an archive unpacked in memory by ``unpack(_:limits:name:)``.
    public struct UnpackedEntry: Sendable, Hashable {
        /// The path as written in the archive, without a folder's trailing `/`.
        public var path: String
        /// Whether the entry is a folder (its ``contents`` are empty).
        public var isDirectory: Bool
        /// The entry's unpacked bytes.
        public var contents: Data
    }

    /// Checks and unpacks an archive held in memory, with the same rules and limits as
    /// ``extract(_:into:limits:name:)``, and writes nothing: the entry point for fuzzing the reader, and
    /// for small archives.
    ///
    /// Memory use is bounded by `limits`: pass small ``Limits/maximumUnpackedBytes`` and
    /// ``Limits/maximumEntryBytes`` when the input is arbitrary.
    ///
    /// - Parameters:
    ///   - bytes: A zip archive.
    ///   - limits: Bounds on entries, sizes and time.
    ///   - name: How messages call the archive.
    /// - Returns: The entries in the archive's order.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidArchive`,
    ///   `TensorIOError.Code.unsafeArchive` or `TensorIOError.Code.limitExceeded`.
    public static func unpack(_ bytes: Data, limits: Limits = Limits(), name: String = "the archive") throws -> [UnpackedEntry] {
        try unpack(bytes, limits: limits, name: name, holdingOneBundle: true)
    }

    /// Unpacks a zip archive of any layout held in memory (NumPy's `.npz`, for one), with every rule and
    /// limit of ``unpack(_:limits:name:)`` except those on one top-level bundle folder.
    ///
    /// - Parameters:
    ///   - bytes: A zip archive.
    ///   - limits: Bounds on entries, sizes and time.
    ///   - name: How messages call the archive.
    /// - Returns: The entries in the archive's order.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidArchive`,
    ///   `TensorIOError.Code.unsafeArchive` or `TensorIOError.Code.limitExceeded`.
    package static func unpackAnyLayout(_ bytes: Data, limits: Limits = Limits(), name: String) throws -> [UnpackedEntry] {
        try unpack(bytes, limits: limits, name: name, holdingOneBundle: false)
    }

    private static func unpack(_ bytes: Data, limits: Limits, name: String, holdingOneBundle: Bool) throws -> [UnpackedEntry] {
        // The reader's errors are TensorIOErrors to this library's callers.
        try TensorIOError.reporting {
            let deadline = limits.deadline()
            let reader = try ZipReader(bytes: [UInt8](bytes), name: name, limits: limits.readerLimits, deadline: deadline)
            _ = try validate(reader, limits: limits, holdingOneBundle: holdingOneBundle)
            var written: UInt64 = 0
            var result: [UnpackedEntry] = []
            for entry in reader.entries {
                try deadline.check(name)
                var contents = Data()
                if entry.kind == .file {
                    written += try reader.unpack(entry, alreadyWritten: written) { contents.append(contentsOf: $0) }
                }
                result.append(UnpackedEntry(path: normalized(entry.path), isDirectory: entry.kind == .directory, contents: contents))
            }
            return result
        }
    }
}
#endif
