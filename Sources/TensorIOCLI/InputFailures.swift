@_spi(Tools) import TensorIO

/// The inputs of a command over many (images, files) that failed, reported together once the others are
/// done: each as its own `error: ` line, then exit status 1. The results of the inputs that worked have
/// been printed already.
struct InputFailures: Error {
    /// One sentence per failed input, naming it.
    var messages: [String] = []

    var isEmpty: Bool { messages.isEmpty }

    /// Records why `path` failed: the library's message names the file already; anything else gets the
    /// path in front.
    mutating func record(_ error: any Error, path: String) {
        switch error {
        case let error as TensorIOError where error.location != nil:
            messages.append(error.description)
        case let error as TensorIOError:
            messages.append("\(path): \(error.description)")
        case let error as CLIError:
            messages.append(error.description)
        default:
            messages.append("\(path): \(SystemErrorText.reason(of: error))")
        }
    }
}
