public import Foundation

/// Finds the programs that ship next to the running one (`swift build` puts every product of the package
/// in one folder): `tensorio-load-check` for isolated load checks, `tensorio-repository` for the tool's
/// repository commands.
public enum CompanionProgram {
    /// The executable file `name` next to the running executable, else the first one on `PATH`.
    ///
    /// - Parameter name: The program's file name.
    /// - Returns: Its location, or `nil` when there is none.
    public static func find(named name: String) -> URL? {
        var folders: [URL] = []
        #if os(Linux)
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        folders.append(running.deletingLastPathComponent())
        #endif
        if let running = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(running.deletingLastPathComponent())
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        folders += path.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        return folders.lazy.map { $0.appendingPathComponent(name) }.first(where: isExecutableFile)
    }

    /// Whether `url` is an executable file (not a folder).
    ///
    /// - Parameter url: The file.
    /// - Returns: `true` when it can be run.
    public static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }
}
