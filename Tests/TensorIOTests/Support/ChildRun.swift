import Foundation
import TensorIOTestSupport

/// One run of a helper executable, run to its end: the synchronous spelling that `AsyncRunTests` and
/// `CrashEvidenceTests` use while they are converted in another change. New tests call
/// ``ChildProcess/run(_:_:environment:currentDirectory:timeLimit:)``, which this wraps.
struct ChildRun {
    var standardOutput: Data
    var standardError: String
    var status: Int32
    var reason: Process.TerminationReason

    /// Runs `executable` to the end; `environment` changes this process's environment (`nil` removes a
    /// variable).
    init(_ executable: URL, _ arguments: [String], environment: [String: String?] = [:]) throws {
        let result = try ChildProcess.run(executable, arguments, environment: environment)
        standardOutput = result.stdoutData
        standardError = result.stderr
        status = result.status
        reason = result.terminationReason
    }

    /// Built next to the test bundle by `swift test` (a dependency of the test target).
    static func sibling(_ name: String) throws -> URL {
        try BuiltProducts.executable(name)
    }
}
