public import Foundation

/// A machine-learning runtime TensorIO loads at run time, and where it is loaded from.
///
/// TensorIO does not link LiteRT or TensorFlow: it opens the runtime's shared library the first time a
/// model of that backend loads, and keeps it for the rest of the process. Where it looks, first match wins:
///
/// 1. the file given in code with ``use(_:)``;
/// 2. the file the environment variable names (``environmentVariable``: `TENSORIO_LITERT_LIBRARY` or
///    `TENSORIO_TENSORFLOW_LIBRARY`);
/// 3. the per-user location ``defaultURL``, `$XDG_DATA_HOME/tensorio/<runtime>-<version>/<file>` (by default
///    under `~/.local/share`);
/// 4. the system's library search path, by file name.
///
/// When 1 or 2 is given, nothing else is tried. The libraries come from PyPI wheels (``pythonPackage``):
/// `libLiteRt.so` from `ai-edge-litert`, `libtensorflow_cc.so.2` (with `libtensorflow_framework.so.2` beside
/// it) from `tensorflow-cpu`.
///
/// Runtimes load on Linux only: the wheels' libraries are Linux shared libraries, and Linux is the platform
/// TensorIO is built and tested on (docs/packages.md). Elsewhere loading one throws ``TensorIOError``
/// (``TensorIOError/Code/unsupported``).
///
/// ```swift
/// try RuntimeLibrary.liteRT.use(URL(fileURLWithPath: "/opt/litert/libLiteRt.so"))
/// ```
public enum RuntimeLibrary: String, Sendable, CaseIterable, CustomStringConvertible {
    /// LiteRT (formerly TensorFlow Lite), for the `tflite` backend.
    case liteRT = "LiteRT"
    /// TensorFlow's C API, for the `tensorflow` backend.
    case tensorFlow = "TensorFlow"

    /// The runtime's name.
    public var description: String { rawValue }

    /// The version TensorIO was checked against.
    public var version: String {
        switch self {
        case .liteRT: "2.3.0"
        case .tensorFlow: "2.21.0"
        }
    }

    /// The library's file name.
    public var fileName: String {
        switch self {
        case .liteRT: "libLiteRt.so"
        case .tensorFlow: "libtensorflow_cc.so.2"
        }
    }

    /// The PyPI wheel that ships the library, with its version (`pip download` it and unpack it, or
    /// `pip install` it and point at the file inside the installed package).
    public var pythonPackage: String {
        switch self {
        case .liteRT: "ai-edge-litert==\(version)"
        case .tensorFlow: "tensorflow-cpu==\(version)"
        }
    }

    /// Where the library lies inside the wheel.
    var pathInWheel: String {
        switch self {
        case .liteRT: "ai_edge_litert/\(fileName)"
        case .tensorFlow: "tensorflow/\(fileName)"
        }
    }

    /// The environment variable that names the library's file when no file was given in code.
    public var environmentVariable: String {
        switch self {
        case .liteRT: "TENSORIO_LITERT_LIBRARY"
        case .tensorFlow: "TENSORIO_TENSORFLOW_LIBRARY"
        }
    }

    /// The per-user location looked at when neither code nor the environment names a file:
    /// `$XDG_DATA_HOME/tensorio/<runtime>-<version>/<file>`, by default under `~/.local/share`.
    public var defaultURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return dataHome.appendingPathComponent("tensorio/\(installFolder)/\(fileName)")
    }

    var installFolder: String {
        switch self {
        case .liteRT: "litert-\(version)"
        case .tensorFlow: "tensorflow-\(version)"
        }
    }

    /// The file given with ``use(_:)``, if any.
    public var configuredURL: URL? {
        RuntimeLibraryState.shared.withLock { $0.configured[self] }
    }

    /// The file the runtime was loaded from in this process; `nil` until a model of its backend loads.
    public var loadedURL: URL? {
        RuntimeLibraryState.shared.withLock { $0.loaded[self] }
    }

    /// Loads the runtime from `url` rather than from the environment variable's file or the default
    /// location, when it loads (the first time a model of its backend loads); `nil` goes back to those.
    ///
    /// A runtime loads once per process and stays. Call this before the first model of the backend loads;
    /// afterwards the same file (or `nil`) is accepted and any other is refused.
    ///
    /// - Parameter url: The library file, such as `…/site-packages/ai_edge_litert/libLiteRt.so`.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) when the runtime is already loaded
    ///   from another file. A file that is missing or not the runtime is reported when loading, as
    ///   ``TensorIOError/Code/runtimeUnavailable`` naming it.
    public func use(_ url: URL?) throws {
        let wanted = url?.standardizedFileURL
        try RuntimeLibraryState.shared.withLock { state in
            // Forgetting the file (nil) is always fine: the loaded runtime stays either way.
            if let loaded = state.loaded[self], let wanted {
                guard wanted.resolvingSymlinksInPath() == loaded.resolvingSymlinksInPath() else {
                    throw TensorIOError(
                        .unsupported,
                        "the \(self) runtime is already loaded from \(loaded.path), and a runtime loads once per "
                            + "process: call RuntimeLibrary.\(caseName).use(_:) before the first \(self) model loads"
                    )
                }
            }
            state.configured[self] = wanted
        }
    }

    var caseName: String {
        switch self {
        case .liteRT: "liteRT"
        case .tensorFlow: "tensorFlow"
        }
    }

    /// The files to try, in order, and where each choice came from.
    func candidates(
        configured: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (paths: [String], source: String) {
        if let configured { return ([configured.path], "RuntimeLibrary.\(caseName).use(_:)") }
        if let path = environment[environmentVariable], !path.isEmpty { return ([path], environmentVariable) }
        return ([defaultURL.path, fileName], "the default location and the system's library path")
    }

    /// Tries each candidate with `open`, which fills a message buffer and returns `nil` on failure.
    ///
    /// - Parameters:
    ///   - configured: The file given in code, if any.
    ///   - open: Opens one path.
    /// - Returns: What `open` returned for the first path that worked, and that path.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeUnavailable``) saying what is missing, where
    ///   it looked and how to provide it; (``TensorIOError/Code/unsupported``) on a platform other than Linux.
    func open<Loaded>(
        configured: URL?, _ open: (String, UnsafeMutablePointer<CChar>, Int) -> Loaded?
    ) throws -> (loaded: Loaded, path: String) {
        #if !os(Linux)
        throw TensorIOError(
            .unsupported,
            "the \(self) runtime (\(fileName)) loads on Linux only: TensorIO is built and tested there, and "
                + "other platforms are planned")
        #else
        let (paths, source) = candidates(configured: configured)
        var failures: [String] = []
        for path in paths {
            // A bare name goes through the system's search path; a path we check first for a clearer message.
            if path.contains("/"), !FileManager.default.fileExists(atPath: path) {
                failures.append("\(path): no such file")
                continue
            }
            var message = [CChar](repeating: 0, count: 1024)
            if let loaded = open(path, &message, message.count) { return (loaded, path) }
            failures.append(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        throw TensorIOError(
            .runtimeUnavailable,
            "the \(self) runtime (\(fileName) from the PyPI wheel \(pythonPackage)) could not be loaded from "
                + "\(paths.joined(separator: " or ")) (given by \(source)); get \(pathInWheel) from that wheel and "
                + "name it with RuntimeLibrary.\(caseName).use(_:) or \(environmentVariable), or put it at "
                + defaultURL.path,
            runtimeMessage: failures.joined(separator: "; ")
        )
        #endif
    }
}

/// The files given in code and the files loaded, per runtime: process-wide because a runtime is.
enum RuntimeLibraryState {
    struct Values {
        var configured: [RuntimeLibrary: URL] = [:]
        var loaded: [RuntimeLibrary: URL] = [:]
    }

    static let shared = LockedValue(Values())
}
