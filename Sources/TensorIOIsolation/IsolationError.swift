internal import TensorIOSupport

/// Why a child process could not be started (no pipe, no process). TensorIO reports it as a
/// `TensorIOError` of code `io` with this message (`TensorIOError.init(_:)`).
package struct IsolationError: SelfDescribingError, Hashable {
    /// A sentence naming what could not be done and the system's reason.
    package var message: String

    /// Creates an error.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
