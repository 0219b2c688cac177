import Foundation

/// Writes `warning: MESSAGE` on stderr: something the user asked for has no effect, but the command goes on.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}
