package import TensorIOSupport

/// Why a child process could not be started (no pipe, no process, not on this platform). TensorIO reports
/// it as the `TensorIOError` of the code its kind names, with its message (`TensorIOError.init(_:)`).
package typealias IsolationError = ModuleError<IsolationErrorKind>

/// What kind of failure an ``IsolationError`` is; each is a `TensorIOError.Code` of the same name.
package enum IsolationErrorKind: Sendable, Hashable {
    /// The system refused a pipe or a process.
    case io
    /// This platform starts no child process (TensorIO does so on Linux only).
    case unsupported
}
