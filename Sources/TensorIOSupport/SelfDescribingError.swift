/// An error whose `description` already says what went wrong in plain words, location first: TensorIO's
/// `TensorIOError` and the errors of its internal modules. ``SystemErrorText/reason(of:)`` gives it as it
/// is rather than digging for a system reason inside.
package protocol SelfDescribingError: Error, CustomStringConvertible {}
