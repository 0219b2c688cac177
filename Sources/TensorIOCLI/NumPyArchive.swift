import Foundation
@_spi(Tools) import TensorIO
@_spi(Tools) import TensorIODelivery

/// NumPy's `.npz` files (`numpy.savez`, `numpy.savez_compressed`): a zip archive of `.npy` files, one per
/// named array.
///
/// The archive goes through the delivery client's zip reader, with its checks on paths, sizes, compression
/// ratio and time, bounded here by ``InputArgument/maximumFileBytes`` and ``maximumArrays``.
enum NumPyArchive {
    /// The most arrays read from one file.
    static let maximumArrays = 256

    /// The arrays of the `.npz` file at `path`, by name (the entry's name without `.npy`), in archive order.
    ///
    /// - Throws: ``CLIError`` naming the argument, the file and the problem.
    static func read(_ path: String, argument: String) throws -> [(name: String, array: NumPyArray)] {
        let data = try InputFile.read(path, argument: argument).data
        var limits = BundleArchive.Limits()
        limits.maximumEntries = maximumArrays
        limits.maximumEntryBytes = UInt64(InputArgument.maximumFileBytes)
        limits.maximumUnpackedBytes = UInt64(InputArgument.maximumFileBytes)
        let entries: [BundleArchive.UnpackedEntry]
        do {
            entries = try BundleArchive.unpackAnyLayout(data, limits: limits, name: path)
        } catch let error as TensorIOError {
            // The archive reader's message names the file already ("X is not a readable zip archive: why",
            // "X has 257 entries, … (BundleArchive.Limits.maximumEntries)"): keep the why, in the CLI's words.
            var reason = error.message.range(of: "zip archive: ").map { String(error.message[$0.upperBound...]) } ?? error.message
            if reason.hasPrefix(path + " ") { reason = "it " + reason.dropFirst(path.count + 1) }
            if let limit = reason.range(of: " (BundleArchive.Limits.") { reason = String(reason[..<limit.lowerBound]) }
            throw CLIError("--input \(argument): \(path) is not a readable .npz file: \(reason)")
        }
        var arrays: [(name: String, array: NumPyArray)] = []
        for entry in entries where !entry.isDirectory {
            guard entry.path.hasSuffix(".npy") else {
                throw CLIError("--input \(argument): \(path) holds \(entry.path), which is not an .npy array")
            }
            let name = String(entry.path.dropLast(4))
            arrays.append((name, try NumPyArray(entry.contents, source: "\(entry.path) in \(path)")))
        }
        guard !arrays.isEmpty else { throw CLIError("--input \(argument): \(path) holds no arrays") }
        return arrays
    }
}
