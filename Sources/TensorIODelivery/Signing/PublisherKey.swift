#if Delivery  // built with the Delivery trait only (Package.swift)
import Crypto
public import Foundation
import TensorIO

/// A publisher's Ed25519 public key: what a client trusts, and what checks a release signature.
///
/// Its file (written by `tensorio keygen` as `NAME.public`) is one JSON object:
/// ```json
/// {"format": "tensorio-ed25519-public-key-v1", "key_id": "3f2a9c0e51b7d864", "public_key": "<base64>"}
/// ```
/// `public_key` is the raw 32-byte key in standard base64; `key_id` is ``id``, checked against the key
/// when the file is read. A key file is read with a limit of ``maximumFileBytes``.
public struct PublisherKey: Sendable, Hashable, CustomStringConvertible {
    /// The file format's name, in the `format` field.
    public static let format = "tensorio-ed25519-public-key-v1"
    /// The most bytes a key file (public or private) may have: 64 KiB.
    public static let maximumFileBytes = 64 << 10

    /// The raw 32-byte Ed25519 public key.
    public let rawRepresentation: Data
    /// The key's identifier: the first 8 bytes of the SHA-256 of ``rawRepresentation``, in lowercase hex
    /// (16 digits). Signatures name the key that made them by this identifier.
    public let id: String

    /// A key from its raw 32 bytes.
    ///
    /// - Parameter rawRepresentation: The raw Ed25519 public key.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidKey`) when it is not 32 bytes.
    public init(rawRepresentation: Data) throws {
        guard rawRepresentation.count == 32,
              (try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)) != nil
        else {
            throw TensorIOError(.invalidKey, "an Ed25519 public key has 32 bytes, not \(rawRepresentation.count)")
        }
        self.rawRepresentation = rawRepresentation
        self.id = Self.identifier(of: rawRepresentation)
    }

    /// Reads a public key file.
    ///
    /// - Parameter url: A file written by `tensorio keygen` (`NAME.public`).
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidKey`) naming the file and the field at fault.
    public init(contentsOf url: URL) throws {
        let data = try KeyFile.read(url, what: "public key file")
        try self.init(fileContents: data, name: url.path)
    }

    /// Parses the contents of a public key file.
    ///
    /// - Parameters:
    ///   - fileContents: The file's bytes.
    ///   - name: How messages call the file.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidKey`) naming the field at fault.
    public init(fileContents: Data, name: String = "the public key file") throws {
        let fields = try KeyFile.decode(fileContents, name: name, format: Self.format, keyField: "public_key")
        guard fields.key.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: fields.key)) != nil else {
            throw TensorIOError(.invalidKey, "\(name): field \"public_key\" must hold 32 bytes, not \(fields.key.count)")
        }
        rawRepresentation = fields.key
        id = Self.identifier(of: fields.key)
        guard fields.keyId == id else {
            throw TensorIOError(.invalidKey, "\(name): field \"key_id\" is \(fields.keyId) but the key's id is \(id)")
        }
    }

    /// The contents of this key's file, as ``init(fileContents:name:)`` reads them.
    public var fileContents: Data {
        KeyFile.encode(format: Self.format, keyId: id, keyField: "public_key", key: rawRepresentation)
    }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    /// The identifier of a raw public key.
    static func identifier(of raw: Data) -> String {
        FileDigest.hex(SHA256.hash(data: raw).prefix(8))
    }

    /// The key's id.
    public var description: String { id }
}
#endif
