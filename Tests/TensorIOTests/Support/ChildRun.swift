import Foundation

/// One run of a helper executable (a probe built next to the tests, `tensorio-load-check`): what it
/// printed and how it ended.
struct ChildRun {
    var standardOutput: Data
    var standardError: String
    var status: Int32
    var reason: Process.TerminationReason

    /// Runs `executable` to the end, reading stdout and stderr.
    ///
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: Its arguments.
    ///   - environment: Changes to this process's environment (`nil` removes a variable).
    init(_ executable: URL, _ arguments: [String], environment changes: [String: String?] = [:]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // stderr is read on another thread so that neither pipe fills while the other is drained.
        let errorText = LockedText()
        let read = DispatchSemaphore(value: 0)
        Thread {
            errorText.set(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            read.signal()
        }.start()
        standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        read.wait()
        standardError = errorText.value
        status = process.terminationStatus
        reason = process.terminationReason
    }

    /// Built next to the test bundle by `swift test` (a dependency of the test target).
    static func sibling(_ name: String) throws -> URL {
        guard let folder = Bundle.main.executableURL?.deletingLastPathComponent() else {
            throw CocoaError(.fileNoSuchFile)
        }
        return folder.appendingPathComponent(name)
    }
}

private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    func set(_ value: String) { lock.withLock { text = value } }
    var value: String { lock.withLock { text ?? "" } }
}
