import Foundation
import TensorIOTestSupport

/// Files a script of the project writes for the tests (video clips made with ffmpeg from the repository's
/// photos): made once per version of the script into `.build/CACHE/SCRIPT-CRC` — a change to the script
/// makes them again — written beside and renamed, so a run cut short leaves nothing half made.
enum ScriptOutput {
    /// The folder holding what `script` writes, made unless it is there already.
    ///
    /// - Parameters:
    ///   - script: The script, relative to the repository root; it takes the folder to write into.
    ///   - cache: The folder under `.build/` for its versions.
    ///   - marker: A file the script writes, whose presence says the folder is complete.
    /// - Returns: The folder.
    /// - Throws: ``TestFailure`` when the script fails.
    static func folder(script: String, cache: String, marker: String) throws -> URL {
        let script = Fixtures.repositoryURL(script)
        let version = String(CRC32.checksum(try Data(contentsOf: script)), radix: 16)
        let versions = Fixtures.repositoryURL(".build/\(cache)")
        let folder = versions.appendingPathComponent(version)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path) { return folder }
        let scratch = versions.appendingPathComponent(".making-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path, scratch.path], timeLimit: .seconds(120))
        guard result.exited, result.status == 0 else { throw TestFailure("\(script.lastPathComponent) failed: \(result)") }
        do {
            try FileManager.default.moveItem(at: scratch, to: folder)
        } catch where FileManager.default.fileExists(atPath: folder.path) {
            // Another test process made them meanwhile.
        }
        return folder
    }
}
