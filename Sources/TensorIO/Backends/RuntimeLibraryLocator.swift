import Foundation

/// Finds and opens a runtime library (LiteRT's or TensorFlow's) the way every backend does: the file an
/// environment variable names (and nothing else when it is set), else the per-user install the set-up
/// scripts make under `$XDG_DATA_HOME/tensorio/` (by default `~/.local/share`), else the system's
/// library search path.
struct RuntimeLibraryLocator {
    /// The environment variable that overrides the location.
    let variable: String
    /// The folder under `$XDG_DATA_HOME/tensorio/`, such as `litert-2.3.0`.
    let installFolder: String
    /// The library's file name, such as `libLiteRt.so`.
    let fileName: String

    /// The per-user install location.
    var userInstallURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return dataHome.appendingPathComponent("tensorio/\(installFolder)/\(fileName)")
    }

    /// The paths to try, in order.
    var candidates: [String] {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty { return [path] }
        return [userInstallURL.path, fileName]
    }

    /// Tries each candidate with `open`, which fills a message buffer and returns `nil` on failure.
    ///
    /// - Parameters:
    ///   - failures: Receives, for each path that failed, why.
    ///   - open: Opens one path.
    /// - Returns: What `open` returned for the first path that worked, and that path; `nil` if none did.
    func open<Loaded>(
        collectingFailuresInto failures: inout [String],
        _ open: (String, UnsafeMutablePointer<CChar>, Int) -> Loaded?
    ) -> (loaded: Loaded, path: String)? {
        for path in candidates {
            // A bare name goes through the system's search path; a path we check first for a clearer message.
            if path.contains("/"), !FileManager.default.fileExists(atPath: path) {
                failures.append("\(path): no such file")
                continue
            }
            var message = [CChar](repeating: 0, count: 1024)
            if let loaded = open(path, &message, message.count) { return (loaded, path) }
            failures.append(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return nil
    }
}
