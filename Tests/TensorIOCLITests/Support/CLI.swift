import Foundation
import Testing

/// What one run of the `tensorio` executable did.
struct CLIResult: CustomStringConvertible {
    var arguments: [String]
    /// The exit status, or the signal number when ``terminationReason`` is `.uncaughtSignal`.
    var status: Int32
    var terminationReason: Process.TerminationReason
    var stdout: String
    var stderr: String

    /// The lines on stderr, without their newlines (an unterminated last line counts too).
    var stderrLines: [String] { Self.lines(stderr) }

    /// The lines on stdout, without their newlines.
    var stdoutLines: [String] { Self.lines(stdout) }

    private static func lines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
    }

    /// True when the process called exit (rather than dying on a signal).
    var exited: Bool { terminationReason == .exit }

    var description: String {
        let reason = exited ? "exit \(status)" : "SIGNAL \(status)"
        return "tensorio \(arguments.joined(separator: " ")) → \(reason)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---"
    }
}

/// Runs the `tensorio` executable that `swift test` builds next to the test bundle.
enum CLI {
    /// The repository root, from this file's path (Tests/TensorIOCLITests/Support/CLI.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TensorIOCLITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Tests/Fixtures/Bundles`, relative to ``repositoryRoot`` (the working directory of every run), so
    /// that paths in the tool's output are short and predictable.
    static let bundlesPath = "Tests/Fixtures/Bundles"

    /// The path, relative to the repository root, of the fixture bundle called `name`.
    static func bundle(_ name: String) -> String { "\(bundlesPath)/\(name)" }

    /// The absolute URL of the fixture bundle called `name`.
    static func bundleURL(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent(bundlesPath).appendingPathComponent(name)
    }

    /// A run that takes longer than this is killed (and the test fails, seeing a signal).
    static let timeLimit: Duration = .seconds(120)

    struct ExecutableNotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the tensorio executable was not found; `swift test` builds it next to the test bundle "
                + "(looked in: \(searched.joined(separator: ", "))). Run `swift build --product tensorio` first."
        }
    }

    /// The `tensorio` executable: next to the test binary (`.xctest`), which is where `swift test` puts it
    /// whatever the scratch path and configuration; else `.build/debug/tensorio` under the repository root.
    static func executableURL() throws -> URL {
        var folders: [URL] = []
        // On Linux the .xctest is the test process's own executable; on macOS it is a loaded bundle.
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first, first.hasSuffix(".xctest") || first.contains(".xctest/") {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(repositoryRoot.appendingPathComponent(".build/debug"))
        let candidates = folders.map { $0.appendingPathComponent("tensorio").standardizedFileURL }
        var isDirectory: ObjCBool = false
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw ExecutableNotFound(searched: candidates.map(\.path))
    }

    /// Where stdout goes.
    enum Output {
        /// Read back into ``CLIResult/stdout``.
        case captured
        /// A file handle of the test's choosing (a closed pipe, /dev/full); ``CLIResult/stdout`` is empty.
        case handle(FileHandle)
    }

    /// Runs `tensorio arguments...` in the repository root and waits for it.
    ///
    /// - Parameters:
    ///   - environment: Changes to the test process's environment: a value sets a variable, `nil`
    ///     removes it.
    ///   - standardOutput: Where stdout goes.
    ///   - standardInput: What the tool reads on stdin (nothing by default: `/dev/null`).
    ///   - standardErrorOnTerminal: Gives the tool a pseudo-terminal as stderr (what it writes there is
    ///     ``CLIResult/stderr``, with the terminal's line endings).
    ///   - executable: Another copy of the tool to run; by default ``executableURL()``.
    static func run(
        _ arguments: [String],
        environment: [String: String?] = [:],
        currentDirectory: URL? = nil,
        standardOutput: Output = .captured,
        standardInput: Data? = nil,
        standardErrorOnTerminal: Bool = false,
        executable: URL? = nil
    ) async throws -> CLIResult {
        try await start(arguments, environment: environment, currentDirectory: currentDirectory,
                        standardOutput: standardOutput, standardInput: standardInput,
                        standardErrorOnTerminal: standardErrorOnTerminal, executable: executable).result()
    }

    /// Launches `tensorio arguments...` before returning, without waiting for it: for tests that must
    /// know the tool is running before they act (a `Task` calling ``run(_:environment:currentDirectory:standardOutput:)``
    /// may not even start while synchronous suites hold the cooperative pool's threads).
    static func start(
        _ arguments: [String],
        environment: [String: String?] = [:],
        currentDirectory: URL? = nil,
        standardOutput: Output = .captured,
        standardInput: Data? = nil,
        standardErrorOnTerminal: Bool = false,
        executable: URL? = nil
    ) throws -> RunningCLI {
        let executable = try executable ?? executableURL()
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("tensorio-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // Files rather than pipes: nothing to drain concurrently, and no deadlock whatever the output size.
        let stdoutURL = scratch.appendingPathComponent("stdout")
        let stderrURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)
        let stdoutFile = try FileHandle(forWritingTo: stdoutURL)
        let stderrFile = try FileHandle(forWritingTo: stderrURL)

        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = variables
        process.currentDirectoryURL = currentDirectory ?? repositoryRoot
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
        let terminal = standardErrorOnTerminal ? try PseudoTerminal() : nil
        process.standardError = terminal?.terminal ?? stderrFile

        let (terminated, terminations) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            terminations.yield()
            terminations.finish()
        }
        let running = RunningCLI(
            arguments: arguments, process: process, terminated: terminated, scratch: scratch,
            stdoutURL: stdoutURL, stderrURL: stderrURL, files: files, terminal: terminal)
        try process.run()
        terminal?.releaseTerminal()
        // A hung tool must fail its test (it shows as a signal), not hang the suite. A Dispatch timer, not a
        // Task: the limit must hold however busy the cooperative pool is.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(timeLimit.components.seconds))) { [weak process] in
            if process?.isRunning == true { kill(pid, SIGKILL) }
        }
        return running
    }

    /// `run` with the arguments as a variadic list.
    static func run(_ arguments: String..., environment: [String: String?] = [:]) async throws -> CLIResult {
        try await run(arguments, environment: environment)
    }
}

/// A `tensorio` process launched by ``CLI/start(_:environment:currentDirectory:standardOutput:)``.
final class RunningCLI {
    let arguments: [String]
    let process: Process
    private let terminated: AsyncStream<Void>
    private let scratch: URL
    private let stdoutURL: URL
    private let stderrURL: URL
    private let files: [FileHandle]
    private let terminal: PseudoTerminal?

    fileprivate init(
        arguments: [String], process: Process, terminated: AsyncStream<Void>, scratch: URL,
        stdoutURL: URL, stderrURL: URL, files: [FileHandle], terminal: PseudoTerminal?
    ) {
        self.terminal = terminal
        self.arguments = arguments
        self.process = process
        self.terminated = terminated
        self.scratch = scratch
        self.stdoutURL = stdoutURL
        self.stderrURL = stderrURL
        self.files = files
    }

    deinit {
        for file in files { try? file.close() }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Waits for the process to end and reads what it wrote.
    func result() async throws -> CLIResult {
        for await _ in terminated {}
        process.waitUntilExit()
        return CLIResult(
            arguments: arguments,
            status: process.terminationStatus,
            terminationReason: process.terminationReason,
            stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
            stderr: try terminal?.output() ?? String(decoding: Data(contentsOf: stderrURL), as: UTF8.self)
        )
    }
}

// MARK: - Expectations

/// The run succeeded (exit 0, no signal) and printed exactly `stdout` (plus a final newline).
func expectSuccess(
    _ result: CLIResult, stdout expected: String, quietStderr: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.exited, "\(result)", sourceLocation: sourceLocation)
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout == expected + "\n", "\(result)", sourceLocation: sourceLocation)
    if quietStderr {
        #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
    }
}

/// The run failed as the tool promises: exit status 1 (no signal), nothing on stdout, and exactly one line
/// on stderr, which starts with "error: " and contains each of `fragments`.
func expectOneLineError(
    _ result: CLIResult, containing fragments: [String] = [], status: Int32 = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.exited, "died on a signal: \(result)", sourceLocation: sourceLocation)
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasSuffix("\n"), "\(result)", sourceLocation: sourceLocation)
    let lines = result.stderrLines
    #expect(lines.count == 1, "expected exactly one stderr line: \(result)", sourceLocation: sourceLocation)
    guard let line = lines.first else { return }
    #expect(line.hasPrefix("error: "), "\(result)", sourceLocation: sourceLocation)
    #expect(line.count > "error: ".count + 5, "the message says nothing: \(result)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(line.contains(fragment), "missing \"\(fragment)\": \(result)", sourceLocation: sourceLocation)
    }
}

/// A usage error (a command line that cannot work as given): like ``expectOneLineError(_:containing:status:sourceLocation:)``
/// with exit status 64, as argument-parser reports its own.
func expectUsageError(
    _ result: CLIResult, containing fragments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
) {
    expectOneLineError(result, containing: fragments, status: 64, sourceLocation: sourceLocation)
}

/// Parses the run's stdout as one JSON object.
func jsonObject(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    return try #require(parsed as? [String: Any], "stdout is not a JSON object: \(result)", sourceLocation: sourceLocation)
}

/// The numbers of a JSON array (as parsed by JSONSerialization).
func numbers(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Double] {
    let array = try #require(value as? [Any], "not an array: \(String(describing: value))", sourceLocation: sourceLocation)
    return try array.map {
        try #require(($0 as? NSNumber)?.doubleValue, "not a number: \($0)", sourceLocation: sourceLocation)
    }
}

/// The keys of the top-level JSON object in `text`, in the order written. JSONSerialization forgets the
/// order, and the tool promises model.json order.
func topLevelKeys(_ text: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    var expectingKey = false
    for character in text {
        if inString {
            if escaped {
                escaped = false
                current.append(character)
            } else if character == "\\" {
                escaped = true
                current.append(character)
            } else if character == "\"" {
                inString = false
                if expectingKey {
                    keys.append(current)
                    expectingKey = false
                }
            } else {
                current.append(character)
            }
            continue
        }
        switch character {
        case "\"":
            inString = true
            current = ""
        case "{", "[":
            depth += 1
            if character == "{", depth == 1 { expectingKey = true }
        case "}", "]":
            depth -= 1
        case ",":
            if depth == 1 { expectingKey = true }
        default:
            break
        }
    }
    return keys
}

/// A temporary folder removed by `body`'s end.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tensorio-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
