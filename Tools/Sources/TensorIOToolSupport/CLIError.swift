import ArgumentParser

/// A failure of the command line itself, printed as one line: `error: ` and ``description``.
package struct CLIError: Error, CustomStringConvertible {
    /// One sentence naming the file, port or layer and what to do.
    package var description: String
    /// The exit status: 1 for a failure, 64 (`EX_USAGE`, as for argument-parser's own errors) for a
    /// command line that cannot work as given.
    package var status: Int32

    package init(_ description: String) {
        self.description = description
        status = 1
    }

    /// An error in how the command was called (a missing or contradictory argument), exit status 64.
    package static func usage(_ description: String) -> CLIError {
        var error = CLIError(description)
        error.status = ExitCode.validationFailure.rawValue
        return error
    }
}
