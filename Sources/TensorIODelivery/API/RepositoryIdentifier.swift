#if Delivery  // built with the Delivery trait only (Package.swift)
import TensorIO

/// The rules for model and version identifiers, shared by the server and the client.
///
/// An identifier is 1 to 128 characters from `A-Z a-z 0-9 . _ -`, starts with a letter or digit and
/// never contains `..`: it is used as a file name on both sides, so it can never be a path trick.
public enum RepositoryIdentifier {
    /// The longest identifier accepted.
    public static let maximumLength = 128

    /// Whether `identifier` follows the rules.
    ///
    /// - Parameter identifier: A model or version identifier.
    /// - Returns: `true` when it may be used.
    public static func isValid(_ identifier: String) -> Bool {
        let scalars = Array(identifier.unicodeScalars)
        guard let first = scalars.first, scalars.count <= maximumLength, isAlphanumeric(first) else { return false }
        guard !identifier.contains("..") else { return false }
        return scalars.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }

    /// Checks `identifier` and throws when it breaks the rules.
    ///
    /// - Parameters:
    ///   - identifier: The identifier to check.
    ///   - kind: What it names, for the message: `model` or `version`.
    /// - Throws: `TensorIOError` with code `TensorIOError.Code.invalidIdentifier`.
    public static func validate(_ identifier: String, kind: String) throws {
        guard isValid(identifier) else {
            throw TensorIOError(.invalidIdentifier, describeInvalid(identifier, kind: kind))
        }
    }

    /// The message for an identifier that breaks the rules.
    public static func describeInvalid(_ identifier: String, kind: String) -> String {
        let shown = identifier.count > 60 ? String(identifier.prefix(60)) + "…" : identifier
        return "\(kind) id \"\(shown)\" is not valid: use 1 to \(maximumLength) characters from A-Z a-z 0-9 . _ -, "
            + "starting with a letter or digit, without \"..\""
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
#endif
