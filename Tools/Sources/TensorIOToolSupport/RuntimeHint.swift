package import TensorIO

/// The tool's own hint when a runtime is missing. The library's message says what is missing, where it
/// looked and how any app provides it; users of this tool are in a TensorIO checkout, where the set-up
/// scripts install the runtimes into the default location.
package enum RuntimeHint {
    /// `error` with the hint added when it says a runtime is missing.
    package static func adding(to error: TensorIOError) -> TensorIOError {
        guard error.code == .runtimeUnavailable else { return error }
        var error = error
        if error.message.contains("the \(RuntimeLibrary.tensorFlow) runtime") {
            error.message += "; in a TensorIO checkout, `make setup-tensorflow` does that "
                + "(scripts/install-tensorflow.sh, a 274 MB download)"
        } else if error.message.contains("the \(RuntimeLibrary.liteRT) runtime") {
            error.message += "; in a TensorIO checkout, `make setup` does that (scripts/install-litert.sh)"
        }
        return error
    }

    /// One line for any error, with the hint when it applies.
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? TensorIOError else { return "\(error)" }
        return adding(to: error).description
    }
}
