internal import CCrashReport
import Foundation

/// What TensorIO tells stderr if the runtime crashes the process while it loads or runs a model.
///
/// A crash inside LiteRT or TensorFlow cannot be caught; what can be done is leaving evidence. While a
/// thread is inside the runtime on TensorIO's behalf, it carries a sentence such as "loading
/// Examples/x.tiobundle/model.tflite"; the crash handler (installed once, chaining to any handler the app
/// had) prints it with the signal's name before the process dies. The sentence is made once per model, so
/// marking a run costs two thread-local stores.
final class CrashActivity: @unchecked Sendable {
    // Immutable after init; freed in deinit. Read by the signal handler through the thread-local pointer.
    // `nil` only if strdup failed: then there is simply no sentence.
    private let loadingText: UnsafeMutablePointer<CChar>?
    private let runningText: UnsafeMutablePointer<CChar>?

    /// - Parameter modelFile: The model file or folder, as it should appear in the message.
    init(modelFile: String) {
        tio_crash_report_install()
        loadingText = strdup("loading \(modelFile)")
        runningText = strdup("running \(modelFile)")
    }

    deinit {
        free(loadingText)
        free(runningText)
    }

    /// Runs `body` marked as loading the model.
    func loading<Result>(_ body: () throws -> Result) rethrows -> Result {
        try during(loadingText, body)
    }

    /// Runs `body` marked as running the model.
    func running<Result>(_ body: () throws -> Result) rethrows -> Result {
        try during(runningText, body)
    }

    /// The running mark, for a caller that keeps this activity alive for as long as it uses the mark
    /// (a signature runner, through the instance that owns both): marking a run with it then costs no
    /// retain and release of the activity, two atomic operations on runs of about a microsecond.
    var runningMark: Mark { Mark(text: runningText) }

    /// A sentence to mark a thread with, borrowed from the activity that made it.
    struct Mark {
        fileprivate let text: UnsafeMutablePointer<CChar>?

        /// Runs `body` with the calling thread marked.
        func during<Result>(_ body: () throws -> Result) rethrows -> Result {
            let previous = tio_crash_report_set_activity(text)
            defer { tio_crash_report_set_activity(previous) }
            return try body()
        }
    }

    private func during<Result>(_ text: UnsafeMutablePointer<CChar>?, _ body: () throws -> Result) rethrows -> Result {
        defer { withExtendedLifetime(self) {} }
        return try Mark(text: text).during(body)
    }
}
