/// A failure of the test's own making (a server that did not start, a tool that is missing), thrown with
/// a message that says what happened.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
