import TensorIO
import TensorIOSupport

/// The inputs of a command over many (images, files) that failed, reported together once the others are
/// done: each as its own `error: ` line, then exit status 1. The results of the inputs that worked have
/// been printed already.
package struct InputFailures: Error {
    /// One sentence per failed input, naming it.
    package var messages: [String] = []

    package var isEmpty: Bool { messages.isEmpty }

    /// No failures yet.
    package init() {}

    /// Records why `path` failed: the library's message names the file already; anything else gets the
    /// path in front.
    package mutating func record(_ error: any Error, path: String) {
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

    /// Records why the input given as `label` (`--input @a.npy`, `--image a.jpg`) failed, the label first
    /// unless the message names the argument or its file first already.
    package mutating func record(_ error: any Error, label: String) {
        let message = (error as? CLIError)?.description ?? (error as? TensorIOError)?.description
            ?? SystemErrorText.reason(of: error)
        let value = label.split(separator: " ", maxSplits: 1).last.map(String.init) ?? label
        let named = message.hasPrefix(label) || message.hasPrefix(value + ":")
        messages.append(named ? message : "\(label): \(message)")
    }
}
