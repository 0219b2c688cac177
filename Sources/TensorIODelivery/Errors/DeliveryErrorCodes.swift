#if Delivery  // built with the Delivery trait only (Package.swift)
public import TensorIO

/// The error codes of model delivery. Delivery throws the library's one error type, `TensorIOError`,
/// with these codes, so an app switches on one type whatever failed.
extension TensorIOError.Code {
    /// A model or version identifier breaks the rules of ``RepositoryIdentifier``.
    public static let invalidIdentifier = TensorIOError.Code("invalid-identifier")
    /// The repository server could not be reached (connection refused, timeout, DNS).
    public static let unreachable = TensorIOError.Code("unreachable")
    /// The server refused the request's token, or the request had none where one is needed (HTTP 401).
    public static let unauthorized = TensorIOError.Code("unauthorized")
    /// The model or version does not exist (HTTP 404), or is not installed locally.
    public static let notFound = TensorIOError.Code("not-found")
    /// The version exists already (HTTP 409): versions are immutable.
    public static let conflict = TensorIOError.Code("conflict")
    /// The archive is larger than allowed (HTTP 413, or the client's download conditions).
    public static let tooLarge = TensorIOError.Code("too-large")
    /// The downloaded archive's SHA-256 or size differs from what the server announced.
    public static let checksumMismatch = TensorIOError.Code("checksum-mismatch")
    /// The archive has an entry that would escape the destination: `..`, an absolute path, a symlink.
    public static let unsafeArchive = TensorIOError.Code("unsafe-archive")
    /// The server answered something this client does not understand, or an unexpected status.
    public static let server = TensorIOError.Code("server")
    /// Rollout rules the server refused (HTTP 400 `invalid-rollout`, naming the JSON path of the bad value),
    /// or that name a version the model does not have (HTTP 422 `unknown-version`).
    public static let invalidRollout = TensorIOError.Code("invalid-rollout")
}

extension TensorIOError.Code {
    /// A release signature file (`tensorio-signature.json`) is malformed, or names another model or
    /// version, or lists files that differ from the bundle's: the upload or the file is at fault.
    public static let invalidSignature = TensorIOError.Code("invalid-signature")
    /// A client given trusted publisher keys refused a version: it is unsigned, signed by a key it does
    /// not trust, wrongly signed, signed for another model or version, or its files differ from the
    /// signed manifest. Nothing was installed; the current version is kept.
    public static let untrustedRelease = TensorIOError.Code("untrusted-release")
    /// A publisher key file cannot be read or is malformed.
    public static let invalidKey = TensorIOError.Code("invalid-key")
}
#endif
