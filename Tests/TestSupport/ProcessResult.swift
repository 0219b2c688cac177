public import Foundation

/// What one run of a child process did: how it ended and what it wrote.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The program's file name, for messages.
    public var program: String
    public var arguments: [String]
    /// The exit status, or the signal number when ``terminationReason`` is `.uncaughtSignal`.
    public var status: Int32
    public var terminationReason: Process.TerminationReason
    /// Everything written on stdout (empty when stdout went to a handle of the test's choosing).
    public var stdoutData: Data
    /// What was written on stderr (on a pseudo-terminal: with the terminal's line endings).
    public var stderr: String

    /// stdout as UTF-8 text.
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    /// The lines on stderr, without their newlines (an unterminated last line counts too).
    public var stderrLines: [String] { Self.lines(stderr) }

    /// The lines on stdout, without their newlines.
    public var stdoutLines: [String] { Self.lines(stdout) }

    /// True when the process called exit (rather than dying on a signal).
    public var exited: Bool { terminationReason == .exit }

    public var description: String {
        let reason = exited ? "exit \(status)" : "SIGNAL \(status)"
        return "\(program) \(arguments.joined(separator: " ")) → \(reason)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---"
    }

    private static func lines(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
    }
}
