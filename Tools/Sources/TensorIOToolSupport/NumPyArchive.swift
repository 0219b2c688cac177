package import Foundation
import TensorIO
import TensorIOArchive
import TensorIOSupport

/// NumPy's `.npz` files (`numpy.savez`, `numpy.savez_compressed`): a zip archive of `.npy` files, one per
/// named array.
///
/// Read with TensorIO's zip reader, which bounds the entries, each entry's and the total unpacked bytes
/// (here ``maximumArrays`` and the caller's `maximumBytes`) and checks every entry's data against
/// its headers; ``maximumSeconds`` bounds the time and ``maximumCompressionRatio`` the zip bombs. Nothing
/// is written to disk, so the path rules of bundle archives do not apply: an entry's name is only the
/// array's name.
package enum NumPyArchive {
    /// The most arrays read from one file.
    package static let maximumArrays = 256
    /// The most seconds reading one file may take.
    package static let maximumSeconds: TimeInterval = 600
    /// The largest ratio of an array's unpacked to packed size, past ``compressionRatioThreshold`` bytes:
    /// the bundle archives' rule (`BundleArchive.Limits`), so a small crafted file cannot claim a
    /// gigabyte of memory.
    package static let maximumCompressionRatio: UInt64 = 100
    /// Arrays of at most this many bytes are never refused for their ratio (zeros compress far beyond
    /// any sensible ratio and cost nothing to unpack).
    package static let compressionRatioThreshold: UInt64 = 16 << 20

    /// The arrays of an `.npz` file, by name (the entry's name without `.npy`), in archive order.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, as read (untrusted).
    ///   - path: How messages name the file.
    ///   - argument: The `--input` argument that named it, for messages.
    ///   - maximumBytes: The most bytes one array, and all of them together, may unpack to.
    /// - Returns: Each array with its name.
    /// - Throws: ``CLIError`` naming the argument, the file and the problem.
    package static func arrays(
        in data: Data, path: String, argument: String, maximumBytes: Int
    ) throws -> [(name: String, array: NumPyArray)] {
        let limits = ZipReader.Limits(
            maximumEntries: maximumArrays, maximumEntryBytes: UInt64(maximumBytes),
            maximumUnpackedBytes: UInt64(maximumBytes), settingsName: "NumPyArchive")
        let deadline = ArchiveDeadline(seconds: maximumSeconds, settingName: "NumPyArchive.maximumSeconds")
        var files: [(name: String, path: String, contents: Data)] = []
        do {
            let reader = try ZipReader(bytes: [UInt8](data), name: path, limits: limits, deadline: deadline)
            var unpacked: UInt64 = 0
            var names = Set<String>()
            for entry in reader.entries {
                try deadline.check(path)
                switch entry.kind {
                case .directory: continue
                case .symbolicLink, .special:
                    throw CLIError("--input \(argument): \(path) holds \(entry.path), which is not a plain file")
                case .file: break
                }
                guard entry.path.hasSuffix(".npy") else {
                    throw CLIError("--input \(argument): \(path) holds \(entry.path), which is not an .npy array")
                }
                if CompressionRatio.isExceeded(
                    unpacked: entry.uncompressedSize, packed: entry.compressedSize,
                    maximum: maximumCompressionRatio, threshold: compressionRatioThreshold
                ) {
                    throw CLIError(
                        "--input \(argument): \(path) is not a readable .npz file: \(entry.path) unpacks \(entry.compressedSize) bytes to \(entry.uncompressedSize), more than \(maximumCompressionRatio) times")
                }
                let name = String(entry.path.dropLast(4))
                guard names.insert(name).inserted else {
                    throw CLIError("--input \(argument): \(path) holds the array \(name) twice")
                }
                var contents = Data()
                unpacked += try reader.unpack(entry, alreadyWritten: unpacked) { contents.append(contentsOf: $0) }
                files.append((name, entry.path, contents))
            }
        } catch let error as CLIError {
            throw error
        } catch {
            // The reader's error (its description is its message) names the file ("X is not a readable zip
            // archive: why", "X has 257 entries, … (NumPyArchive.maximumEntries)"): keep the why, in the
            // CLI's words.
            let message = String(describing: error)
            var reason = message.range(of: "zip archive: ").map { String(message[$0.upperBound...]) } ?? message
            if reason.hasPrefix(path + " ") { reason = "it " + reason.dropFirst(path.count + 1) }
            if let limit = reason.range(of: " (NumPyArchive.") { reason = String(reason[..<limit.lowerBound]) }
            throw CLIError("--input \(argument): \(path) is not a readable .npz file: \(reason)")
        }
        guard !files.isEmpty else { throw CLIError("--input \(argument): \(path) holds no arrays") }
        return try files.map { file in
            (file.name, try NumPyArray(file.contents, source: "\(file.path) in \(path)"))
        }
    }
}
