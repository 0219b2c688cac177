#if canImport(Glibc)
@preconcurrency import Glibc  // for `stdout`, a C global that Swift 6 otherwise refuses
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
package import ArgumentParser
import Foundation
import Logging
import TensorIO
import TensorIOSupport

/// Runs a program of the tool (`tensorio`, `tensorio-repository`) with one promise: any failure is one
/// line on stderr and exit status 1 (64 for a usage error, as argument-parser reports them), never a crash
/// or a signal. Help and version requests still print as usual.
package enum ToolMain {
    /// Parses the command line with `Root` and runs the command; a failure ends the process.
    ///
    /// - Parameter root: The program's root command.
    /// - Returns: Only after a success; every failure ends the process with its status.
    package static func run<Root: ParsableCommand>(_ root: Root.Type) async {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is seen as EPIPE and handled by StandardOutput, not a signal
        _ = ToolStandardError.handle  // stderr as it is now, before any model load captures descriptor 2
        LoggingSystem.bootstrap(DeferredLogHandler.init)
        do {
            var command = try Root.parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            // Swift's print ignores write errors; a full disk or a failing stdout must not pass for success
            // (a reader that has gone ends the command quietly: see StandardOutput).
            if !StandardOutput.flush() {
                fail("cannot write the output: \(SystemErrorText.reason(errno: errno))")
            }
            DeferredLogHandler.flush()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let error as TensorIOError {
            fail(RuntimeHint.adding(to: error).description)
        } catch let error as CLIError {
            fail(error.description, status: error.status)
        } catch let failures as InputFailures {
            for message in failures.messages.dropLast() { report(message) }
            fail(failures.messages.last ?? "an input failed")
        } catch {
            let code = Root.exitCode(for: error)
            if code == .success {
                Root.exit(withError: error)  // --help, --version
            }
            let text = Root.message(for: error)
            var message = text.split(separator: "\n").first.map(String.init) ?? text
            // Parse and validation errors are usage errors (64), pointed at the help; anything else is a
            // failure (1).
            let help = Root.fullMessage(for: error).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("See '") }
            if code == .validationFailure, let help, let open = help.firstIndex(of: "'"),
               let close = help.lastIndex(of: "'"), open < close {
                message += " (see \(help[open...close]))"  // "See 'tensorio run --help' for more information."
            }
            fail(message, status: code == .validationFailure ? code.rawValue : 1)
        }
    }

    /// Writes `error: MESSAGE` as one line.
    package static func report(_ message: String) {
        ToolStandardError.write("error: \(OneLine.text(message))\n")
    }

    /// Writes `error: MESSAGE` as one line and ends the process with `status`.
    package static func fail(_ message: String, status: Int32 = 1) -> Never {
        report(message)
        Foundation.exit(status)
    }
}
