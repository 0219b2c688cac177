#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// The executables `swift test` builds next to the test bundle: the test targets depend on their targets
/// (`tensorio`, `tensorio-repository`, `tensorio-load-check`) so that they are there.
public enum BuiltProducts {
    /// The executable called `name`: next to the test binary (`.xctest`), which is where `swift test` puts
    /// it whatever the scratch path and configuration; else in `.build/debug` or `Tools/.build/debug` under the repository root.
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

    /// Copies `executable` to `destination` (a new file) through a descriptor opened close-on-exec.
    ///
    /// FileManager's copy writes through a plain descriptor, which a child that a parallel test spawns
    /// meanwhile inherits and keeps open for its life: running the copy then fails with ETXTBSY ("Text
    /// file busy").
    public static func copyExecutable(_ executable: URL, to destination: URL) throws {
        let bytes = try Data(contentsOf: executable)
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(destination.path): errno \(errno)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            guard written > 0 else { throw TestFailure("cannot write \(destination.path): errno \(errno)") }
            offset += written
        }
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
        folders.append(Fixtures.repositoryURL("Tools/.build/debug"))
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
