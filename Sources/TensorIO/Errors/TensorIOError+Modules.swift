package import TensorIOArchive
package import TensorIOIsolation
package import TensorIOModelFile
internal import TensorIOSupport

// What TensorIO's internal modules throw, as the TensorIOError it stands for: each module's error type is
// converted here, once, so that every public error keeps its code, message and location.

extension TensorIOError {
    /// An archive the zip reader could not read.
    package init(_ error: ArchiveError) {
        let code: Code = switch error.kind {
        case .io: .io
        case .invalidArchive: .invalidArchive
        case .limitExceeded: .limitExceeded
        }
        self.init(code, error.message)
    }

    /// A model file, or the metadata or attachments in it, that was refused: at `model.file`, the
    /// `model.json` field naming the file.
    package init(_ error: ModelFileError) {
        let code: Code = switch error.kind {
        case .invalidModelFile: .invalidModelFile
        case .limitExceeded: .limitExceeded
        }
        self.init(code, error.message, location: "model.file")
    }

    /// A child process that could not be started.
    package init(_ error: IsolationError) {
        let code: Code = switch error.kind {
        case .io: .io
        case .unsupported: .unsupported
        }
        self.init(code, error.message)
    }

    /// `error` when it is a TensorIOError, the TensorIOError it stands for when an internal module threw
    /// it, else `nil`.
    package init?(reporting error: any Error) {
        switch error {
        case let error as TensorIOError: self = error
        case let error as ArchiveError: self.init(error)
        case let error as ModelFileError: self.init(error)
        case let error as IsolationError: self.init(error)
        default: return nil
        }
    }

    /// Runs `body`; what an internal module throws there is thrown as the TensorIOError it stands for.
    package static func reporting<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw TensorIOError(reporting: error) ?? error
        }
    }
}
