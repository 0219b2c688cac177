#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Every `print` in the tool goes through here (this function shadows the standard library's inside this
/// module): each result reaches a pipe as soon as it is printed rather than when a buffer fills, and when
/// the reader has gone (`tensorio classify … | head -1`), the command ends at once, quietly, with the status
/// a shell reports for a process ended by SIGPIPE (141), as Unix tools do (after ``ExitCleanup``'s actions).
package func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(items.map { "\($0)" }.joined(separator: separator), terminator: terminator)
    StandardOutput.flush()
}

package enum StandardOutput {
    /// The status for a closed output pipe: 128 + SIGPIPE.
    package static let brokenPipeStatus: Int32 = 128 + SIGPIPE

    /// Flushes stdout; ends the process quietly when its reader has gone.
    ///
    /// - Returns: Whether the output was written (`false` for another write error, which the caller reports).
    @discardableResult
    package static func flush() -> Bool {
        guard fflush(stdout) != 0 || ferror(stdout) != 0 else { return true }
        if errno == EPIPE {
            ExitCleanup.shared.runAll()
            exit(brokenPipeStatus)
        }
        return false
    }
}
