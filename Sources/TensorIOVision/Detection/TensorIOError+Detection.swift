import TensorIO

extension TensorIOError {
    /// A detection option in `model.json` that cannot be used; `path` is the option's JSON path.
    static func invalidDetectionOption(_ message: String, at path: String) -> TensorIOError {
        TensorIOError(.invalidBundle, message, location: path, issues: [BundleIssue(path: path, message: message)])
    }

    /// A count the detection options imply that overflows or passes a limit; `path` names the options.
    static func detectionLimitExceeded(_ message: String, at path: String) -> TensorIOError {
        TensorIOError(.limitExceeded, message, location: path)
    }
}
