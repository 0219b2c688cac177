import Foundation
internal import TensorIOSupport

/// Writes a trained copy of a bundle so that nothing half-written is ever left at the destination: the
/// copy is made and filled next to it, then renamed into place.
enum BundleExport {
    /// Copies `bundle` to `destination`, letting `writeWeights` replace the model's weights in the copy
    /// before it appears.
    ///
    /// - Parameters:
    ///   - bundle: The bundle to copy.
    ///   - destination: A `.tiobundle` folder that does not exist yet, or an empty one.
    ///   - writeWeights: Writes the trained weights into the staged copy (given its URL).
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/invalidInput`` when the destination is not named
    ///   `.tiobundle`; ``TensorIOError/Code/io`` when it is taken or a file
    ///   cannot be written; whatever `writeWeights` throws. The staged copy is removed on failure.
    static func write(_ bundle: ModelBundle, to destination: URL, writeWeights: (URL) throws -> Void) throws {
        let files = FileManager.default
        let destination = destination.standardizedFileURL
        guard destination.pathExtension == "tiobundle" else {
            throw TensorIOError.invalidInput(
                "export into a folder named NAME.tiobundle, so that the trained bundle can be opened (got \(destination.lastPathComponent))"
            )
        }
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            let contents = isDirectory.boolValue ? (try? files.contentsOfDirectory(atPath: destination.path)) : nil
            guard let contents, contents.isEmpty else {
                throw TensorIOError(.io, "\(destination.path) already exists and is not an empty folder; export into a new folder")
            }
        }
        let parent = destination.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
        do {
            try files.createDirectory(at: parent, withIntermediateDirectories: true)
            try files.copyItem(at: bundle.url, to: staging)
            try writeWeights(staging)
            if files.fileExists(atPath: destination.path) { try files.removeItem(at: destination) }
            try files.moveItem(at: staging, to: destination)
        } catch {
            try? files.removeItem(at: staging)
            if let error = error as? TensorIOError { throw error }
            throw TensorIOError(.io, "exporting the trained bundle to \(destination.path) failed: \(SystemErrorText.reason(of: error))")
        }
    }
}
