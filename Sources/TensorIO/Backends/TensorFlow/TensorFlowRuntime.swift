internal import CTensorFlow
import Foundation
import Logging
internal import TensorIOSupport

/// Finds and loads the TensorFlow runtime (the C API in `libtensorflow_cc.so.2` from PyPI
/// `tensorflow-cpu==2.21.0`) the first time a TensorFlow model loads. Where it looks: ``RuntimeLibrary``.
/// TensorFlow Lite users never load it.
enum TensorFlowRuntime {
    /// A loaded runtime: its function table, alive for the whole process.
    struct Handle: @unchecked Sendable {
        let api: TIOTensorFlowAPI
        let path: String
    }

    private static let loaded = LockedValue<Handle?>(nil)

    /// The loaded runtime, loading it on first use.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/runtimeUnavailable``) saying where it looked and
    ///   how to install the runtime.
    static func handle(logger: Logger) throws -> Handle {
        if let cached = loaded.withLock({ $0 }) { return cached }
        // Loading prints (TensorFlow's start-up lines; nothing yet from LiteRT, but its environment may).
        return try RuntimeOutput.capturing(.tensorFlow, logger: logger) { try handle() }
    }

    /// The loaded runtime, loading it on first use, without capturing what it prints.
    static func handle() throws -> Handle {
        try loaded.withLock { cached in
            if let cached { return cached }
            let handle = try RuntimeLibraryState.shared.withLock { state in
                let handle = try load(configured: state.configured[.tensorFlow])
                state.loaded[.tensorFlow] = URL(fileURLWithPath: handle.path)
                return handle
            }
            cached = handle
            return handle
        }
    }

    /// Loads the library from the file given in code, else as ``RuntimeLibrary`` describes.
    static func load(configured: URL?) throws -> Handle {
        // TensorFlow's C++ logging prints informational lines (CPU features, graph passes) to stderr
        // unless told otherwise before it loads; warnings and errors still print. A user's own setting wins.
        setenv("TF_CPP_MIN_LOG_LEVEL", "1", 0)
        let (table, path) = try RuntimeLibrary.tensorFlow.open(configured: configured) { tio_tensorflow_load($0, $1, $2) }
        return Handle(api: table.pointee, path: path)
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
