#if canImport(Glibc)
@preconcurrency import Glibc  // for `stdout`, a C global that Swift 6 otherwise refuses
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import ArgumentParser
import Foundation
import Logging
import TensorIO

/// Runs the tool with one promise: any failure is one line on stderr and exit status 1, never a crash
/// or a signal. Help and version requests still print as usual.
@main
enum Main {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is seen as EPIPE and handled by StandardOutput, not a signal
        LoggingSystem.bootstrap(DeferredLogHandler.init)
        do {
            var command = try TensorIOCommand.parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            // Swift's print ignores write errors; a full disk or a failing stdout must not pass for success
            // (a reader that has gone ends the command quietly: see StandardOutput).
            if !StandardOutput.flush() {
                fail("cannot write the output: \(String(cString: strerror(errno)))")
            }
            DeferredLogHandler.flush()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let error as TensorIOError {
            fail(error.description)
        } catch let error as CLIError {
            fail(error.description)
        } catch {
            if TensorIOCommand.exitCode(for: error) == .success {
                TensorIOCommand.exit(withError: error)  // --help, --version
            }
            let message = TensorIOCommand.message(for: error)
            let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
            fail(firstLine)
        }
    }

    private static func fail(_ message: String) -> Never {
        let line = message.replacingOccurrences(of: "\n", with: " ")
        FileHandle.standardError.write(Data("error: \(line)\n".utf8))
        Foundation.exit(1)
    }
}
