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

/// A new, empty folder in the system's temporary folder; the caller removes it.
public func makeTemporaryDirectory() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("tensorio-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
