internal import CTensorFlow
import Foundation
import Logging
internal import TensorIOSupport

/// Finds and loads the TensorFlow runtime (the C API in `libtensorflow_cc.so.2` from PyPI
/// `tensorflow-cpu==2.21.0`) the first time a TensorFlow model loads. Where it looks: ``RuntimeLibrary``.
/// TensorFlow Lite users never load it.
enum TensorFlowRuntime: LoadableRuntime {
    /// A loaded runtime: its function table, alive for the whole process.
    struct Handle: LoadedRuntimeHandle, @unchecked Sendable {
        let api: TIOTensorFlowAPI
        let path: String
    }

    static let library = RuntimeLibrary.tensorFlow
    static let loaded = LockedValue<Handle?>(nil)

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
