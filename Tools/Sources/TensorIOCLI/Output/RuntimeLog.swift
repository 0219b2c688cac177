import Foundation
@_spi(Internal) import TensorIO

/// Keeps anything a runtime prints on stderr off the tool's stderr, so that an error is exactly one line.
/// The library already captures the runtime's lines while it loads a runtime or a model (they reach the
/// tool's logger, see `TENSORIO_LOG_LEVEL`); this also covers runs and training steps. What was printed
/// joins the error message when the command fails.
///
/// It swaps file descriptor 2 for a temporary file while `body` runs (the library's `StandardErrorCapture`):
/// fine for a tool that runs one thing at a time, which is why runs are captured here and not in the
/// library. If the runtime crashes the process meanwhile, TensorIO's crash handler restores stderr and
/// copies the capture's last 8 KB there, after which it names the model being loaded or run.
enum RuntimeLog {
    static func capturing<Result>(_ body: () throws -> Result) throws -> Result {
        let (result, printed) = StandardErrorCapture.redirecting(body)
        return try joining(result, printed)
    }

    /// The same around asynchronous work: `tensorio train` captures its whole loop of steps this way
    /// when no progress bar is drawn, rather than swapping stderr around every step (several system
    /// calls, a good part of a small model's step).
    static func capturing<Result>(_ body: () async throws -> Result) async throws -> Result {
        let (result, printed) = await StandardErrorCapture.redirecting(body)
        return try joining(result, printed)
    }

    private static func joining<Result>(_ result: Swift.Result<Result, any Error>, _ printed: String) throws -> Result {
        switch result {
        case .success(let value):
            return value
        case .failure(var error as TensorIOError):
            let printed = printed.split(separator: "\n")
                .filter { !$0.contains("Created TensorFlow Lite XNNPACK delegate") }
                .joined(separator: " ")
            // A value the caller gave wrong is said in TensorIO's words; the runtime's chatter adds nothing.
            if !printed.isEmpty, error.code != .invalidInput {
                error.runtimeMessage = [error.runtimeMessage, printed].compactMap { $0 }.joined(separator: "; ")
            }
            throw error
        case .failure(let error):
            throw error
        }
    }
}
