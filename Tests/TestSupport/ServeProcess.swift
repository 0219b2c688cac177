#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// `tensorio serve` running as a child process, for the end-to-end delivery tests.
public final class ServeProcess {
    private let child: ChildProcess
    /// Where it listens.
    public let url: URL

    /// The running process (its identifier, its termination).
    public var process: Process { child.process }

    private init(child: ChildProcess, url: URL) {
        self.child = child
        self.url = url
    }

    /// Starts `tensorio serve --root ROOT --port 0 ARGS…` and waits for its "listening on" line.
    public static func start(
        root: URL, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServeProcess {
        // No time limit of a run: the test stops it, and `deinit` kills what a failed test left running.
        let child = try ChildProcess.start(
            try CLI.executableURL(), ["serve", "--root", root.path, "--port", "0"] + arguments, environment: environment,
            timeLimit: .seconds(3600))
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let line = child.stdoutSoFar.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
               let url = URL(string: String(line.dropFirst("listening on ".count))) {
                return ServeProcess(child: child, url: url)
            }
            guard child.process.isRunning else { break }
            // A blocking pause, not Task.sleep: while synchronous suites (training) hold every thread of
            // the cooperative pool, a sleeping task would wake long after the deadline and see a server
            // that started long ago as one that never did.
            usleep(50_000)
        }
        if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
        ChildProcess.waitForExit(child.process)
        throw TestFailure("tensorio serve did not start: \(child.stderrSoFar)")
    }

    /// What the server printed on stderr so far.
    public var stderr: String { child.stderrSoFar }

    /// Sends `signal` and waits for the process to end: 30 s at most, then SIGKILL (a server that
    /// ignores the signal fails its test on its status rather than hanging the suite).
    public func stop(_ signal: Int32 = SIGTERM) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        ChildProcess.waitForExit(process, within: .seconds(30))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            ChildProcess.waitForExit(process)
        }
    }

    // MARK: A server with a write token

    /// The write token of the servers ``start(withWriteTokenIn:environment:)`` starts.
    public static let writeToken = "cli-test-token"

    /// Writes ``writeToken`` to `folder/token` and returns the file's path, for `--token-file`.
    public static func writeTokenFile(in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("token")
        try Data("\(writeToken)\n".utf8).write(to: url)
        return url.path
    }

    /// `tensorio serve` on `folder/root` with ``writeToken`` in `folder/token` (its path is returned too,
    /// for the commands that push).
    public static func start(
        withWriteTokenIn folder: URL, environment: [String: String] = [:]
    ) async throws -> (ServeProcess, tokenFile: String) {
        let tokenFile = try writeTokenFile(in: folder)
        let server = try await start(
            root: folder.appendingPathComponent("root"), arguments: ["--token-file", tokenFile], environment: environment)
        return (server, tokenFile)
    }
}
