#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// A program the tests run — `tensorio`, `tensorio-load-check`, Python, `psql` — started
/// before ``start(_:_:environment:currentDirectory:standardOutput:standardInput:standardErrorOnTerminal:timeLimit:)``
/// returns, and waited for with ``result()`` (or ``waitForResult()`` outside async code).
///
/// Its stdout and stderr go to files rather than pipes: nothing has to drain them while it runs, so there
/// is no deadlock whatever it writes. A run that outlives its time limit is killed, so a hung program
/// fails its test (it shows as a signal) instead of hanging the suite.
public final class ChildProcess: @unchecked Sendable {
    /// Where stdout goes.
    public enum Output {
        /// Read back into ``ProcessResult/stdout``.
        case captured
        /// A file handle of the test's choosing (a closed pipe, /dev/full); ``ProcessResult/stdout`` is empty.
        case handle(FileHandle)
    }

    /// What a run may take before it is killed, unless the caller says otherwise.
    public static let defaultTimeLimit: Duration = .seconds(120)

    public let arguments: [String]
    /// The running process (its identifier, for signals).
    public let process: Process
    // Everything below is set before `process.run()` and only read afterwards.
    private let terminations: AsyncStream<Void>
    private let ended = DispatchSemaphore(value: 0)
    private let scratch: URL
    private let stdoutURL: URL
    private let stderrURL: URL
    private let files: [FileHandle]
    private let terminal: PseudoTerminal?

    /// Starts `executable` with `arguments` and returns once it runs.
    ///
    /// - Parameters:
    ///   - environment: Changes to the test process's environment: a value sets a variable, `nil`
    ///     removes it.
    ///   - currentDirectory: Its working directory; by default the repository root.
    ///   - standardOutput: Where stdout goes.
    ///   - standardInput: What it reads on stdin (nothing by default: `/dev/null`).
    ///   - standardErrorOnTerminal: Gives it a pseudo-terminal as stderr (what it writes there is
    ///     ``ProcessResult/stderr``, with the terminal's line endings).
    ///   - timeLimit: When to kill it (SIGKILL).
    public static func start(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String?] = [:],
        currentDirectory: URL? = nil,
        standardOutput: Output = .captured,
        standardInput: Data? = nil,
        standardErrorOnTerminal: Bool = false,
        timeLimit: Duration = defaultTimeLimit
    ) throws -> ChildProcess {
        let child = try ChildProcess(
            executable, arguments, environment: environment, currentDirectory: currentDirectory,
            standardOutput: standardOutput, standardInput: standardInput,
            standardErrorOnTerminal: standardErrorOnTerminal)
        try child.process.run()
        child.terminal?.releaseTerminal()
        // A Dispatch timer, not a Task: the limit must hold however busy the cooperative pool is.
        let pid = child.process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(timeLimit.components.seconds))) { [weak child] in
            if child?.process.isRunning == true { kill(pid, SIGKILL) }
        }
        return child
    }

    /// Runs `executable` to its end, blocking the calling thread: for synchronous tests.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String?] = [:], currentDirectory: URL? = nil,
        timeLimit: Duration = defaultTimeLimit
    ) throws -> ProcessResult {
        try start(executable, arguments, environment: environment, currentDirectory: currentDirectory, timeLimit: timeLimit)
            .waitForResult()
    }

    private init(
        _ executable: URL, _ arguments: [String], environment: [String: String?], currentDirectory: URL?,
        standardOutput: Output, standardInput: Data?, standardErrorOnTerminal: Bool
    ) throws {
        self.arguments = arguments
        scratch = try makeTemporaryDirectory()
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)
        let stdoutFile = try FileHandle(forWritingTo: stdoutURL)
        let stderrFile = try FileHandle(forWritingTo: stderrURL)

        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }

        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = variables
        process.currentDirectoryURL = currentDirectory ?? Fixtures.repositoryRoot
        var files = [stdoutFile, stderrFile]
        if let standardInput {
            let stdinURL = scratch.appendingPathComponent("stdin")
            try standardInput.write(to: stdinURL)
            let stdinFile = try FileHandle(forReadingFrom: stdinURL)
            files.append(stdinFile)
            process.standardInput = stdinFile
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        switch standardOutput {
        case .captured: process.standardOutput = stdoutFile
        case .handle(let handle): process.standardOutput = handle
        }
        terminal = standardErrorOnTerminal ? try PseudoTerminal() : nil
        process.standardError = terminal?.terminal ?? stderrFile
        self.files = files

        let (terminations, continuation) = AsyncStream<Void>.makeStream()
        self.terminations = terminations
        let ended = self.ended
        process.terminationHandler = { _ in
            continuation.yield()
            continuation.finish()
            ended.signal()
        }
    }

    deinit {
        for file in files { try? file.close() }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// What it has written on stdout so far (while it runs: a server's "listening on" line).
    public var stdoutSoFar: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }

    /// What it has written on stderr so far (unless stderr is a terminal).
    public var stderrSoFar: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for the process to end, without holding a thread, and reads what it wrote.
    public func result() async throws -> ProcessResult {
        for await _ in terminations {}
        return try collect()
    }

    /// Waits for the process to end, blocking the calling thread, and reads what it wrote.
    public func waitForResult() throws -> ProcessResult {
        ended.wait()
        ended.signal()  // for a second caller
        return try collect()
    }

    private func collect() throws -> ProcessResult {
        // The termination handler has run: the status is there (waitUntilExit returns at once).
        process.waitUntilExit()
        return ProcessResult(
            program: process.executableURL?.lastPathComponent ?? "?",
            arguments: arguments,
            status: process.terminationStatus,
            terminationReason: process.terminationReason,
            stdoutData: try Data(contentsOf: stdoutURL),
            stderr: try terminal?.output() ?? String(decoding: Data(contentsOf: stderrURL), as: UTF8.self)
        )
    }

    /// Waits for `process` to end, blocking (not on the cooperative pool's terms), and kills it when
    /// `limit` passes. Never `waitUntilExit()` alone, which on Linux spins its run loop without end if the
    /// termination is never observed.
    public static func waitForExit(_ process: Process, within limit: Duration = .seconds(10)) {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let last = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < last { usleep(10_000) }
    }
}
