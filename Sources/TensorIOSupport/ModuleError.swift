/// A problem one of TensorIO's internal modules found: which kind, among those the module names (each a
/// `TensorIOError.Code` of the same name), and a sentence saying what is wrong. TensorIO turns it into
/// that `TensorIOError` at its boundary, so callers of its public API see the same error as ever.
package struct ModuleError<Kind: Hashable & Sendable>: SelfDescribingError, Hashable {
    /// What kind of failure this is.
    package var kind: Kind
    /// A sentence naming what failed and why.
    package var message: String

    /// Creates an error.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
