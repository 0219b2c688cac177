public import Foundation

/// The executables `swift test` builds next to the test bundle: the test targets depend on their targets
/// (`tensorio`, `tensorio-repository`, `tensorio-load-check`) so that they are there.
public enum BuiltProducts {
    /// The executable called `name`: next to the test binary (`.xctest`), which is where `swift test` puts
    /// it whatever the scratch path and configuration; else in `.build/debug` under the repository root.
    public static func executable(_ name: String) throws -> URL {
        let candidates = folders().map { $0.appendingPathComponent(name).standardizedFileURL }
        var isDirectory: ObjCBool = false
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw ExecutableNotFound(name: name, searched: candidates.map(\.path))
    }

    /// Where built products may be, most likely first.
    private static func folders() -> [URL] {
        var folders: [URL] = []
        // On Linux the .xctest is the test process's own executable; on macOS it is a loaded bundle.
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first, first.hasSuffix(".xctest") || first.contains(".xctest/") {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(Fixtures.repositoryURL(".build/debug"))
        return folders
    }

    /// No built executable of that name.
    public struct ExecutableNotFound: Error, CustomStringConvertible {
        public var name: String
        public var searched: [String]

        public var description: String {
            "the \(name) executable was not found; `swift test` builds it next to the test bundle "
                + "(looked in: \(searched.joined(separator: ", "))). Run `swift build --product \(name)` first."
        }
    }
}
