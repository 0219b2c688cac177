internal import CTensorFlow
import Foundation

/// Finds and loads the TensorFlow runtime (the C API in `libtensorflow_cc.so.2` from PyPI
/// `tensorflow-cpu==2.21.0`) the first time a TensorFlow model loads.
///
/// Where it looks, in order: the file named by `TENSORIO_TENSORFLOW_LIBRARY` (and nowhere else when that
/// is set); the per-user install `scripts/install-tensorflow.sh` makes,
/// `$XDG_DATA_HOME/tensorio/tensorflow-2.21.0/libtensorflow_cc.so.2` (by default under `~/.local/share`);
/// then the system's library search path. TensorFlow Lite users never load it.
enum TensorFlowRuntime {
    /// The environment variable that overrides where the runtime is found.
    static let libraryVariable = "TENSORIO_TENSORFLOW_LIBRARY"
    /// The runtime version the set-up script installs and this code was checked against.
    static let version = "2.21.0"
    static let libraryName = "libtensorflow_cc.so.2"

    /// A loaded runtime: its function table, alive for the whole process.
    struct Handle: @unchecked Sendable {
        let api: TIOTensorFlowAPI
        let path: String
    }

    private static let loaded = LockedValue<Handle?>(nil)

    /// Where the library is looked for.
    static let locator = RuntimeLibraryLocator(
        variable: libraryVariable, installFolder: "tensorflow-\(version)", fileName: libraryName
    )

    /// The loaded runtime, loading it on first use.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeUnavailable``) saying where it looked and
    ///   how to install the runtime.
    static func handle() throws -> Handle {
        try loaded.withLock { cached in
            if let cached { return cached }
            let handle = try load()
            cached = handle
            return handle
        }
    }

    private static func load() throws -> Handle {
        // TensorFlow's C++ logging prints informational lines (CPU features, graph passes) to stderr
        // unless told otherwise before it loads; warnings and errors still print. A user's own setting wins.
        setenv("TF_CPP_MIN_LOG_LEVEL", "1", 0)
        var failures: [String] = []
        if let (table, path) = locator.open(collectingFailuresInto: &failures, { tio_tensorflow_load($0, $1, $2) }) {
            return Handle(api: table.pointee, path: path)
        }
        throw TensorIOError(
            .runtimeUnavailable,
            "the TensorFlow runtime (\(libraryName) from tensorflow-cpu \(version)) could not be loaded; "
                + "install it with `scripts/install-tensorflow.sh` (a 274 MB download; `make setup-tensorflow` runs it), "
                + "or set \(libraryVariable) to the library's path",
            runtimeMessage: failures.joined(separator: "; ")
        )
    }
}

extension TensorFlowRuntime.Handle {
    /// Runs `body` with a fresh status and throws a runtime error naming `action` unless it ends OK.
    func checked<T>(
        _ action: @autoclosure () -> String, code: TensorIOError.Code = .runtimeFailure, location: String? = nil,
        _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        let status = api.NewStatus()
        defer { api.DeleteStatus(status) }
        let result = try body(status)
        guard api.GetCode(status) == TF_OK else {
            throw TensorIOError(
                code, "\(action()) failed", location: location,
                runtimeMessage: String(cString: api.Message(status))
            )
        }
        return result
    }
}
