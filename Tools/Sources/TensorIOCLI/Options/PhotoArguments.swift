import ArgumentParser
import Foundation
import TensorIOToolSupport

/// `PHOTO... [--json]`, for the commands that answer each photo with one block of text or one element of a
/// JSON line (detect, segment): the photos, checked to be at least one, and how the answers print.
struct PhotoArguments: ParsableArguments {
    @Argument(help: "JPEG or PNG files.")
    var images: [String] = []

    @Flag(help: "Print one JSON line instead of text.")
    var json = false

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("give at least one image") }
    }

    /// The folder an option such as `--draw DIR` names, made when missing.
    ///
    /// - Parameters:
    ///   - path: The folder's path as given.
    ///   - option: The option's name, for the error.
    /// - Returns: The folder's URL.
    /// - Throws: ``CLIError`` naming the option and the folder when it cannot be made.
    static func outputFolder(_ path: String, option: String) throws -> URL {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("\(option) \(folder.relativePath): cannot make the folder (\(error.localizedDescription))")
        }
        return folder
    }
}
