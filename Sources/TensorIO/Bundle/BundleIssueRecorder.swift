/// What records a bundle's problems at JSON paths: the `model.json` reader, and the task assets read when
/// the bundle opens.
package protocol BundleIssueRecorder {
    /// Records a problem at a JSON path.
    mutating func issue(_ path: String, _ message: String)
}

extension BundleIssueRecorder {
    /// What `body` returns; `nil` when it throws, with the error recorded as a problem: at the
    /// ``TensorIOError``'s location when it has one, else at `path`.
    package mutating func recordingErrors<Result>(at path: String, _ body: () throws -> Result) -> Result? {
        do {
            return try body()
        } catch let error as TensorIOError {
            issue(error.location ?? path, error.message)
        } catch {
            issue(path, "\(error)")
        }
        return nil
    }
}

extension ModelJSONReader: BundleIssueRecorder {}
extension TaskAssets: BundleIssueRecorder {}
