/// One problem found in a bundle: where it is and what is wrong.
///
/// The path is a JSON path into `model.json` (`inputs[1].quantize.standard`) or, for problems with the
/// folder itself, a file name (`model.json`). Its description reads like
/// `inputs[1].quantize.standard: "[-10,10]" is not one of "[0,1]", "[-1,1]"`.
public struct BundleIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is: a JSON path or a file name; empty when it concerns the bundle as a whole.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates an issue.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
