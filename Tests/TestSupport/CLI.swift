public import Foundation

/// Runs the `tensorio` executable that `swift test` builds next to the test bundle, in the repository
/// root (so that fixture paths such as ``Fixtures/path(_:)`` work as arguments).
public enum CLI {
    /// The `tensorio` executable.
    public static func executableURL() throws -> URL {
        try BuiltProducts.executable("tensorio")
    }

    /// Runs `tensorio arguments...` and waits for it.
    ///
    /// - Parameters:
    ///   - environment: Changes to the test process's environment: a value sets a variable, `nil`
    ///     removes it.
    ///   - currentDirectory: Where it runs; by default the repository root.
    ///   - standardOutput: Where stdout goes.
    ///   - standardInput: What the tool reads on stdin (nothing by default: `/dev/null`).
    ///   - standardErrorOnTerminal: Gives the tool a pseudo-terminal as stderr.
    ///   - executable: Another copy of the tool to run; by default ``executableURL()``.
    public static func run(
        _ arguments: [String],
        environment: [String: String?] = [:],
        currentDirectory: URL? = nil,
        standardOutput: ChildProcess.Output = .captured,
        standardInput: Data? = nil,
        standardErrorOnTerminal: Bool = false,
        executable: URL? = nil
    ) async throws -> ProcessResult {
        try await ChildProcess.start(
            try executable ?? executableURL(), arguments, environment: environment, currentDirectory: currentDirectory,
            standardOutput: standardOutput, standardInput: standardInput, standardErrorOnTerminal: standardErrorOnTerminal
        ).result()
    }

    /// `run` with the arguments as a variadic list.
    public static func run(_ arguments: String..., environment: [String: String?] = [:]) async throws -> ProcessResult {
        try await run(arguments, environment: environment)
    }

    /// Launches `tensorio arguments...` before returning, without waiting for it: for tests that must
    /// know the tool is running before they act (a `Task` calling ``run(_:environment:currentDirectory:standardOutput:standardInput:standardErrorOnTerminal:executable:)``
    /// may not even start while synchronous suites hold the cooperative pool's threads).
    public static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.start(try executableURL(), arguments)
    }
}
