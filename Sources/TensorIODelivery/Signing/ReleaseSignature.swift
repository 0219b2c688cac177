#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import TensorIO
import TensorIOSupport

/// A release signature: the file `tensorio-signature.json` at the root of a signed bundle, which travels
/// inside its archive, so the server stores it with the version and serves it with it.
///
/// The file is one JSON object:
/// ```json
/// {
///   "format": "tensorio-release-signature-v1",
///   "model_id": "mobilenet", "version": "2",
///   "files": [{"path": "model.json", "size": 812, "sha256": "…"}, …],
///   "key_id": "3f2a9c0e51b7d864",
///   "signature": "<base64 of the 64-byte Ed25519 signature of the manifest's canonical bytes>"
/// }
/// ```
/// The signature covers ``ReleaseManifest/canonicalBytes`` (format, model id, version, files), not the
/// JSON text, so the file's layout may change without invalidating it. It is read with a limit of
/// ``maximumFileBytes`` and its manifest with ``ReleaseManifest``'s limits.
public struct ReleaseSignature: Sendable, Hashable {
    /// The signature file's name, at the root of the bundle folder.
    public static let fileName = "tensorio-signature.json"
    /// The most bytes a signature file may have: 4 MiB (10,000 files of long paths fit).
    public static let maximumFileBytes = 4 << 20

    /// What is signed.
    public var manifest: ReleaseManifest
    /// The ``PublisherKey/id`` of the key that signed.
    public var keyId: String
    /// The 64-byte Ed25519 signature of the manifest's ``ReleaseManifest/canonicalBytes``.
    public var signature: Data

    /// Creates a signature from its parts (no check of the signature itself: see ``ReleaseVerifier``).
    public init(manifest: ReleaseManifest, keyId: String, signature: Data) {
        self.manifest = manifest
        self.keyId = keyId
        self.signature = signature
    }

    /// Signs `manifest` with `key`.
    ///
    /// - Parameters:
    ///   - manifest: What to sign.
    ///   - key: The publisher's private key.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) if signing fails.
    public init(signing manifest: ReleaseManifest, with key: PublisherSigningKey) throws {
        self.init(manifest: manifest, keyId: key.publicKey.id, signature: try key.signature(for: manifest.canonicalBytes))
    }

    /// Parses a signature file's contents, checking every field.
    ///
    /// - Parameter data: The file's bytes.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidSignature`) naming the field at fault, or
    ///   (`TensorIOError.Code.limitExceeded`) past ``maximumFileBytes``.
    public init(fileContents data: Data) throws {
        guard data.count <= Self.maximumFileBytes else {
            throw TensorIOError(
                .limitExceeded, "\(Self.fileName) has \(data.count) bytes, more than the limit of \(Self.maximumFileBytes) (ReleaseSignature.maximumFileBytes)")
        }
        let file: SignatureFile
        do {
            file = try JSONDecoder().decode(SignatureFile.self, from: data)
        } catch let error as DecodingError {
            throw TensorIOError(.invalidSignature, "\(Self.fileName): \(Self.describe(error))")
        } catch {
            throw TensorIOError(.invalidSignature, "\(Self.fileName) is not valid JSON")
        }
        guard file.format == ReleaseManifest.format else {
            throw TensorIOError(
                .invalidSignature, "\(Self.fileName): field \"format\" is \"\(file.format.prefix(80))\", expected \"\(ReleaseManifest.format)\"")
        }
        guard file.keyId.utf8.count == 16, file.keyId.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw TensorIOError(.invalidSignature, "\(Self.fileName): field \"key_id\" is not 16 lowercase hex digits")
        }
        // 64 bytes are 88 base64 characters.
        guard file.signature.utf8.count <= 100, let signature = Data(base64Encoded: file.signature), signature.count == 64 else {
            throw TensorIOError(.invalidSignature, "\(Self.fileName): field \"signature\" is not the base64 of a 64-byte Ed25519 signature")
        }
        do {
            manifest = try ReleaseManifest(modelId: file.modelId, version: file.version, files: file.files)
        } catch let error as TensorIOError {
            throw TensorIOError(error.code, "\(Self.fileName): \(error.message)")
        }
        keyId = file.keyId
        self.signature = signature
    }

    /// Reads the signature file of the bundle folder at `bundleURL`; `nil` when it has none.
    ///
    /// - Parameter bundleURL: A bundle folder.
    /// - Returns: The parsed signature, or `nil` when the bundle is unsigned.
    /// - Throws: `TensorIOError` as ``init(fileContents:)``, or `TensorIOError.Code.invalidSignature` when
    ///   the signature file is not a plain file.
    public static func read(bundleAt bundleURL: URL) throws -> ReleaseSignature? {
        let url = bundleURL.appendingPathComponent(fileName)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw TensorIOError(.invalidSignature, "\(fileName) in \(bundleURL.lastPathComponent) is not a plain file")
        }
        return try ReleaseSignature(fileContents: BoundedFile.read(url, maximumBytes: maximumFileBytes, what: "signature file"))
    }

    /// The file's contents: JSON with sorted keys, files sorted by path.
    public var fileContents: Data {
        let file = SignatureFile(
            format: ReleaseManifest.format, modelId: manifest.modelId, version: manifest.version, files: manifest.files,
            keyId: keyId, signature: signature.base64EncodedString())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Strings and integers only: encoding cannot fail.
        return (try? encoder.encode(file)) ?? Data()
    }

    /// Writes the signature file into the bundle folder at `bundleURL`, replacing one that is there.
    ///
    /// - Parameter bundleURL: A bundle folder.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`).
    public func write(intoBundleAt bundleURL: URL) throws {
        let url = bundleURL.appendingPathComponent(Self.fileName)
        do {
            try fileContents.write(to: url, options: .atomic)
        } catch {
            throw TensorIOError(.io, "cannot write \(url.path): \(SystemErrorText.reason(of: error))")
        }
    }

    /// One short sentence for a decoding failure, naming the field.
    private static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "field \"\(field(context.codingPath + [key]))\" is missing"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "it is not a JSON object"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "field \"\(field(context.codingPath))\" has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "field \"\(field(context.codingPath))\" is invalid"
        @unknown default:
            return "it is not a valid signature file"
        }
    }
}

/// The JSON layout of the signature file.
private struct SignatureFile: Codable {
    var format: String
    var modelId: String
    var version: String
    var files: [ReleaseManifest.File]
    var keyId: String
    var signature: String

    // In the order of the properties: a missing field is reported in the file's documented order.
    enum CodingKeys: String, CodingKey {
        case format
        case modelId = "model_id"
        case version, files
        case keyId = "key_id"
        case signature
    }
}
#endif
