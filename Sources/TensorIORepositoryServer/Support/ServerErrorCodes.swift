#if Server  // built with the Server trait only (Package.swift)
public import TensorIO

extension TensorIOError.Code {
    /// The server's configuration is unusable: a database URL that cannot be parsed, for example.
    public static let invalidConfiguration = TensorIOError.Code("invalid-configuration")
}
#endif
