import Foundation
import Logging

/// Keeps what the runtimes print off the app's stderr and hands it to the configured `Logger`.
///
/// Neither runtime, as shipped, lets a caller silence or redirect all of its messages: `libLiteRt.so`
/// exports none of LiteRT's logger functions (its environment's minimum severity, which TensorIO sets to
/// silent, covers LiteRT's own logger but not the TensorFlow Lite interpreter's, which prints "INFO: Created
/// TensorFlow Lite XNNPACK delegate for CPU."), and TensorFlow's only C hook (`TF_RegisterLogListener`)
/// receives `tf.print` output, not its C++ log. So while TensorIO is inside a runtime call that prints —
/// loading the library, creating LiteRT's environment, reading and compiling a model, loading a
/// SavedModel — file descriptor 2 points at an unlinked temporary file, and afterwards each line goes to
/// the logger at a level from its severity:
///
/// | runtime says | logged at |
/// |---|---|
/// | `VERBOSE`, `DEBUG` | `trace` |
/// | `INFO`, TensorFlow's `I…` | `debug` |
/// | `WARNING`, `W…` | `info` |
/// | `ERROR`, `E…`, `FATAL`, `F…` | `warning` (the failure itself is thrown) |
///
/// with metadata `runtime` (`LiteRT` or `TensorFlow`). Warnings and errors printed while a call fails are
/// also added to the thrown ``TensorIOError/runtimeMessage``. Lines that do not look like the runtime's
/// (another thread of the app writing to stderr meanwhile) are written back to stderr, late but whole.
///
/// Redirecting a file descriptor is process-wide, so captures are serialised: runtime loads and model
/// compilations run one at a time; runs, which print nothing, are not captured. If the runtime crashes
/// inside a capture, the crash handler restores stderr and copies the capture's last bytes there.
enum RuntimeOutput {
    /// One message the runtime printed.
    struct Message: Equatable {
        var level: Logger.Level
        var text: String
    }

    private static let lock = NSLock()

    /// Runs `body` with stderr captured; forwards what the runtime printed to `logger`.
    static func capturing<Result>(
        _ runtime: RuntimeLibrary, logger: Logger, _ body: () throws -> Result
    ) throws -> Result {
        var printedAnything = false
        return try capturing(runtime, logger: logger, printedAnything: &printedAnything, body)
    }

    /// ``capturing(_:logger:_:)``, saying whether anything was printed: a caller that repeats a call which
    /// printed nothing the first time (``SignatureRunner``'s preparing after a resize to shapes seen
    /// before) may then make it again without the capture's system calls.
    static func capturing<Result>(
        _ runtime: RuntimeLibrary, logger: Logger, printedAnything: inout Bool, _ body: () throws -> Result
    ) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        let (result, printed) = StandardErrorCapture.redirecting(body)
        printedAnything = !printed.isEmpty
        let (messages, foreign) = parse(printed)
        if !foreign.isEmpty {
            FileHandle.standardError.write(Data(foreign.map { $0 + "\n" }.joined().utf8))
        }
        for message in messages {
            logger.log(level: message.level, "\(message.text)", metadata: ["runtime": "\(runtime)"])
        }
        switch result {
        case .success(let value):
            return value
        case .failure(var error as TensorIOError):
            // What the runtime said about the failure; its informational lines add nothing.
            let said = messages.filter { $0.level >= .info }.map(\.text)
            if !said.isEmpty, error.code != .invalidInput {
                error.runtimeMessage = ([error.runtimeMessage].compactMap { $0 } + said).joined(separator: "; ")
            }
            throw error
        case .failure(let error):
            throw error
        }
    }

    /// Splits captured text into the runtime's messages and lines that are not the runtime's.
    static func parse(_ text: String) -> (messages: [Message], foreign: [String]) {
        var messages: [Message] = []
        var foreign: [String] = []
        // A TensorFlow message may run over several lines; the ones after the first have no prefix.
        var continues = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if let message = liteRTMessage(line) {
                messages.append(message)
                continues = false
            } else if let message = abslMessage(line) {
                messages.append(message)
                continues = true
            } else if continues, !messages.isEmpty {
                messages[messages.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                foreign.append(line)
            }
        }
        return (messages, foreign)
    }

    /// LiteRT's and TensorFlow Lite's form: `INFO: text`.
    private static func liteRTMessage(_ line: String) -> Message? {
        let levels: [(String, Logger.Level)] = [
            ("VERBOSE: ", .trace), ("DEBUG: ", .trace), ("INFO: ", .debug), ("WARNING: ", .info),
            ("ERROR: ", .warning), ("FATAL: ", .warning),
        ]
        for (prefix, level) in levels where line.hasPrefix(prefix) {
            let text = String(line.dropFirst(prefix.count))
            // Abseil's notice, printed as a warning when TensorFlow loads, says only where its log goes.
            let notice = text.hasPrefix("All log messages before absl::InitializeLog() is called")
            return Message(level: notice ? .debug : level, text: text)
        }
        return nil
    }

    /// TensorFlow's (Abseil's) form: `I0000 00:00:1795450343.257899     977 port.cc:153] text`.
    private static func abslMessage(_ line: String) -> Message? {
        guard let first = line.first, let level = ["I": Logger.Level.debug, "W": .info, "E": .warning, "F": .warning][first],
              line.dropFirst().prefix(4).allSatisfy(\.isNumber), line.dropFirst(5).first == " ",
              let end = line.range(of: "] ")
        else { return nil }
        return Message(level: level, text: String(line[end.upperBound...]))
    }
}
