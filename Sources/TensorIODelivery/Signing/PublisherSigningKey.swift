#if Delivery  // built with the Delivery trait only (Package.swift)
import Crypto
public import Foundation
import TensorIO

/// A publisher's Ed25519 private key, which signs releases. Keep its file secret (`tensorio keygen` writes
/// it with mode 0600); publish its ``publicKey`` to the clients that should trust the releases.
///
/// Its file (`NAME.private`) is one JSON object, like ``PublisherKey``'s:
/// ```json
/// {"format": "tensorio-ed25519-private-key-v1", "key_id": "3f2a9c0e51b7d864", "private_key": "<base64>"}
/// ```
/// `private_key` is the raw 32-byte Ed25519 seed in standard base64; `key_id` is the public key's id.
public struct PublisherSigningKey: Sendable {
    /// The file format's name, in the `format` field.
    public static let format = "tensorio-ed25519-private-key-v1"

    /// The raw 32-byte seed (swift-crypto's key type is not `Sendable`; this is, and remakes it cheaply).
    private let seed: Data
    /// The public half, to give to clients.
    public let publicKey: PublisherKey

    /// A new random key.
    public init() {
        let key = Curve25519.Signing.PrivateKey()
        seed = key.rawRepresentation
        // 32 bytes from swift-crypto itself: cannot fail.
        publicKey = try! PublisherKey(rawRepresentation: key.publicKey.rawRepresentation)
    }

    /// Reads a private key file.
    ///
    /// - Parameter url: A file written by `tensorio keygen` (`NAME.private`).
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidKey`) naming the file and the field at fault.
    public init(contentsOf url: URL) throws {
        try self.init(fileContents: try KeyFile.read(url, what: "private key file"), name: url.path)
    }

    /// Parses the contents of a private key file.
    ///
    /// - Parameters:
    ///   - fileContents: The file's bytes.
    ///   - name: How messages call the file.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidKey`) naming the field at fault.
    public init(fileContents: Data, name: String = "the private key file") throws {
        let fields = try KeyFile.decode(fileContents, name: name, format: Self.format, keyField: "private_key")
        guard fields.key.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: fields.key) else {
            throw TensorIOError(.invalidKey, "\(name): field \"private_key\" must hold 32 bytes, not \(fields.key.count)")
        }
        seed = key.rawRepresentation
        publicKey = try PublisherKey(rawRepresentation: key.publicKey.rawRepresentation)
        guard fields.keyId == publicKey.id else {
            throw TensorIOError(.invalidKey, "\(name): field \"key_id\" is \(fields.keyId) but the key's id is \(publicKey.id)")
        }
    }

    /// The contents of this key's file (secret), as ``init(fileContents:name:)`` reads them.
    public var fileContents: Data {
        KeyFile.encode(format: Self.format, keyId: publicKey.id, keyField: "private_key", key: seed)
    }

    /// The Ed25519 signature of `message`.
    func signature(for message: Data) throws -> Data {
        do {
            return try Curve25519.Signing.PrivateKey(rawRepresentation: seed).signature(for: message)
        } catch {
            throw TensorIOError(.io, "cannot sign: \(error)")
        }
    }
}

/// Reading and writing the JSON key files of ``PublisherKey`` and ``PublisherSigningKey``.
enum KeyFile {
    /// The file's bytes, refusing more than ``PublisherKey/maximumFileBytes``.
    static func read(_ url: URL, what: String) throws -> Data {
        do {
            return try BoundedFile.read(url, maximumBytes: PublisherKey.maximumFileBytes, what: what)
        } catch let error as TensorIOError {
            throw TensorIOError(.invalidKey, error.message)
        }
    }

    /// The `key_id` and the decoded key of a key file, after checking `format`.
    static func decode(_ data: Data, name: String, format: String, keyField: String) throws -> (keyId: String, key: Data) {
        guard data.count <= PublisherKey.maximumFileBytes else {
            throw TensorIOError(.invalidKey, "\(name) has \(data.count) bytes, more than the limit of \(PublisherKey.maximumFileBytes)")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw TensorIOError(.invalidKey, "\(name) is not a JSON object")
        }
        guard let found = object["format"] as? String else {
            throw TensorIOError(.invalidKey, "\(name): field \"format\" is missing or not a string")
        }
        guard found == format else {
            throw TensorIOError(.invalidKey, "\(name): field \"format\" is \"\(found.prefix(80))\", expected \"\(format)\"")
        }
        guard let keyId = object["key_id"] as? String else {
            throw TensorIOError(.invalidKey, "\(name): field \"key_id\" is missing or not a string")
        }
        guard let text = object[keyField] as? String else {
            throw TensorIOError(.invalidKey, "\(name): field \"\(keyField)\" is missing or not a string")
        }
        guard text.utf8.count <= 64, let key = Data(base64Encoded: text) else {
            throw TensorIOError(.invalidKey, "\(name): field \"\(keyField)\" is not the base64 of 32 bytes")
        }
        return (String(keyId.prefix(64)), key)
    }

    static func encode(format: String, keyId: String, keyField: String, key: Data) -> Data {
        Data("{\"format\":\"\(format)\",\"key_id\":\"\(keyId)\",\"\(keyField)\":\"\(key.base64EncodedString())\"}\n".utf8)
    }
}

/// Reading small untrusted files whole, with a bound.
enum BoundedFile {
    /// The bytes of the regular file at `url`, refusing more than `maximumBytes`.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`, `TensorIOError.Code.limitExceeded`).
    static func read(_ url: URL, maximumBytes: Int, what: String) throws -> Data {
        let data = try FileReading.withHandle(reading: url, what: what) { handle in
            try handle.read(upToCount: maximumBytes + 1) ?? Data()
        }
        guard data.count <= maximumBytes else {
            throw TensorIOError(.limitExceeded, "the \(what) \(url.path) is larger than the limit of \(maximumBytes) bytes")
        }
        return data
    }
}
#endif
