internal import CCrashReport
import Foundation
import TensorIO

/// Keeps anything a runtime prints on stderr off the tool's stderr, so that an error is exactly one line.
/// The library already captures the runtime's lines while it loads a runtime or a model (they reach the
/// tool's logger, see `TENSORIO_LOG_LEVEL`); this also covers runs and training steps. What was printed
/// joins the error message when the command fails.
///
/// It swaps file descriptor 2 for a temporary file while `body` runs: fine for a single-threaded tool,
/// which is why this lives in the tool and not in the library. If the runtime crashes the process
/// meanwhile, TensorIO's crash handler restores stderr and copies the capture's last 8 KB there, after
/// which it names the model being loaded or run.
enum RuntimeLog {
    static func capturing<Result>(_ body: () throws -> Result) throws -> Result {
        let (result, printed) = redirectingStandardError(body)
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

    /// Runs `body` with file descriptor 2 sent to an unlinked temporary file; returns its result and what
    /// was printed there.
    private static func redirectingStandardError<Value>(
        _ body: () throws -> Value
    ) -> (result: Swift.Result<Value, any Error>, printed: String) {
        let saved = dup(STDERR_FILENO)
        var template = Array((NSTemporaryDirectory() + "/tensorio-runtime-XXXXXX").utf8CString)
        // The file is unlinked at once: only our descriptor keeps it, and it vanishes when closed.
        let capture = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let path = buffer.baseAddress else { return -1 }
            let descriptor = mkstemp(path)
            if descriptor >= 0 { unlink(path) }
            return descriptor
        }
        guard saved >= 0, capture >= 0 else {
            if saved >= 0 { close(saved) }
            if capture >= 0 { close(capture) }
            return (Swift.Result { try body() }, "")
        }
        fflush(nil)
        dup2(capture, STDERR_FILENO)
        // Should the runtime crash meanwhile, the crash handler puts stderr back and shows what it printed.
        tio_crash_report_set_captured_stderr(capture, saved)
        let result = Swift.Result { try body() }
        tio_crash_report_set_captured_stderr(-1, -1)
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        let size = lseek(capture, 0, SEEK_END)
        var bytes = [UInt8](repeating: 0, count: max(0, Int(size)))
        _ = pread(capture, &bytes, bytes.count, 0)
        close(capture)
        return (result, String(decoding: bytes, as: UTF8.self))
    }
}
