#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The tool's own stderr: file descriptor 2 as it was when the program started, kept as a duplicate.
///
/// TensorIO sends descriptor 2 to a capture file while a runtime loads a model (`StandardErrorCapture`,
/// process-wide). A line the tool writes meanwhile from another task — the error that ends a `similar`
/// whose query failed while the other photos' model instances were loading — went into that capture and
/// was lost: the process exited 1 with nothing on stderr. Writing to the duplicate puts the tool's lines
/// where the user sees them whatever the runtimes' capture is doing.
package enum ToolStandardError {
    /// The duplicate of descriptor 2 (2 itself when it cannot be duplicated), closed on exec so that the
    /// programs the tool starts (load checks, the repository program) do not inherit a second stderr.
    /// ``ToolMain`` takes it first, before any model loads.
    static let handle: FileHandle = {
        let duplicate = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
        return FileHandle(fileDescriptor: duplicate >= 0 ? duplicate : STDERR_FILENO, closeOnDealloc: false)
    }()

    /// Whether it is a terminal (checked on the duplicate: descriptor 2 may be a runtime's capture file
    /// just now, `tensorio train-classifier` capturing its whole training).
    package static var isTerminal: Bool { isatty(handle.fileDescriptor) == 1 }

    /// Writes `text` as it is.
    package static func write(_ text: String) {
        handle.write(Data(text.utf8))
    }
}
