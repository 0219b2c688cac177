#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// A fresh temporary folder for `body`, removed when it returns or throws.
public func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// A fresh temporary folder for `body`, removed when it returns or throws.
public func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A new, empty folder inside the test process's scratch folder. The caller may remove it; whatever is
/// left (a bundle a helper made for several tests, a clip) goes when the process exits.
public func makeTemporaryDirectory() throws -> URL {
    let folder = scratchFolder.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The test process's own folder in the system's temporary folder, made on first use and removed at exit,
/// so that a run of the tests leaves nothing behind (each run used to leave hundreds of folders).
private let scratchFolder: URL = {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("tensorio-tests-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
    atexit { removeScratchFolder() }
    return folder
}()

private func removeScratchFolder() {
    try? FileManager.default.removeItem(at: scratchFolder)
}
