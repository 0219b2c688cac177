#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import TensorIO

/// Checks a bundle folder's release signature: the signature is by a trusted key, it names the expected
/// model id and version, and the folder's files are exactly those of the signed manifest (none changed,
/// missing or added).
public enum ReleaseVerifier {
    /// What a valid signature says.
    public struct VerifiedRelease: Sendable, Hashable {
        /// The trusted key that signed.
        public var key: PublisherKey
        /// The model id signed for.
        public var modelId: String
        /// The version signed for.
        public var version: String
        /// How many files the manifest lists.
        public var fileCount: Int
    }

    /// Verifies the bundle folder at `bundleURL` against `trustedKeys`.
    ///
    /// In order: the signature file exists and is well-formed; its key is trusted; the Ed25519 signature of
    /// the manifest is valid; the manifest names `modelId` and `version` (when given), so a signature of
    /// one version cannot be replayed for another; the folder holds exactly the manifest's files, with
    /// their sizes and SHA-256 digests.
    ///
    /// - Parameters:
    ///   - bundleURL: An unpacked bundle folder.
    ///   - modelId: The model id it is being installed as; `nil` accepts the one signed.
    ///   - version: The version it is being installed as; `nil` accepts the one signed.
    ///   - trustedKeys: The keys that may sign.
    /// - Returns: The key, identity and file count of the valid signature.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.untrustedRelease` and one message saying why.
    @discardableResult
    public static func verify(
        bundleAt bundleURL: URL, modelId: String? = nil, version: String? = nil, trustedKeys: TrustedKeys
    ) throws -> VerifiedRelease {
        do {
            return try verifySignature(bundleAt: bundleURL, modelId: modelId, version: version, trustedKeys: trustedKeys)
        } catch let error as TensorIOError {
            throw TensorIOError(.untrustedRelease, error.message)
        }
    }

    /// Checks, without any key, what a server can check at upload: when the bundle holds a signature file,
    /// it is well-formed, names `modelId` and `version`, and lists exactly the folder's files.
    ///
    /// - Parameters:
    ///   - bundleURL: An unpacked bundle folder.
    ///   - modelId: The model id it is uploaded as.
    ///   - version: The version it is uploaded as.
    /// - Returns: The signature, or `nil` when the bundle is unsigned.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidSignature` and one message saying why.
    @discardableResult
    public static func verifyWithoutKey(bundleAt bundleURL: URL, modelId: String, version: String) throws -> ReleaseSignature? {
        do {
            guard let signature = try ReleaseSignature.read(bundleAt: bundleURL) else { return nil }
            try checkIdentity(signature.manifest, modelId: modelId, version: version)
            try checkFiles(bundleURL, against: signature.manifest)
            return signature
        } catch let error as TensorIOError {
            throw TensorIOError(.invalidSignature, error.message)
        }
    }

    private static func verifySignature(
        bundleAt bundleURL: URL, modelId: String?, version: String?, trustedKeys: TrustedKeys
    ) throws -> VerifiedRelease {
        guard let signature = try ReleaseSignature.read(bundleAt: bundleURL) else {
            throw TensorIOError(.untrustedRelease, "it is not signed (no \(ReleaseSignature.fileName)) and signed releases are required")
        }
        guard let key = trustedKeys.key(id: signature.keyId) else {
            let trusted = trustedKeys.ids.isEmpty ? "none" : trustedKeys.ids.joined(separator: ", ")
            throw TensorIOError(.untrustedRelease, "it is signed by key \(signature.keyId), which is not trusted (trusted: \(trusted))")
        }
        guard key.isValidSignature(signature.signature, for: signature.manifest.canonicalBytes) else {
            throw TensorIOError(.untrustedRelease, "its signature by key \(key.id) is not valid: the signed manifest was changed or the signature is forged")
        }
        try checkIdentity(signature.manifest, modelId: modelId, version: version)
        try checkFiles(bundleURL, against: signature.manifest)
        return VerifiedRelease(
            key: key, modelId: signature.manifest.modelId, version: signature.manifest.version,
            fileCount: signature.manifest.files.count)
    }

    /// The manifest must name the model id and version being installed or uploaded.
    private static func checkIdentity(_ manifest: ReleaseManifest, modelId: String?, version: String?) throws {
        if let modelId, manifest.modelId != modelId {
            throw TensorIOError(.invalidSignature, "it is signed for model \(manifest.modelId), not \(modelId)")
        }
        if let version, manifest.version != version {
            throw TensorIOError(.invalidSignature, "it is signed for version \(manifest.version), not \(version)")
        }
    }

    /// The folder must hold exactly the manifest's files: sizes first (cheap), then digests.
    private static func checkFiles(_ bundleURL: URL, against manifest: ReleaseManifest) throws {
        let present = try BundleFiles.list(bundleURL)
        var sizes: [String: UInt64] = [:]
        for file in present { sizes[file.path] = file.size }
        let listed = Set(manifest.files.map(\.path))
        if let extra = present.map(\.path).sorted().first(where: { !listed.contains($0) }) {
            throw TensorIOError(.invalidSignature, "its file \(extra) is not in the signed manifest")
        }
        for file in manifest.files {
            guard let size = sizes[file.path] else {
                throw TensorIOError(.invalidSignature, "the signed file \(file.path) is missing")
            }
            guard size == file.size else {
                throw TensorIOError(.invalidSignature, "its file \(file.path) has \(size) bytes, the signed manifest says \(file.size)")
            }
        }
        for file in manifest.files {
            let sha256 = try FileDigest.sha256(of: bundleURL.appendingPathComponent(file.path))
            guard sha256 == file.sha256 else {
                throw TensorIOError(.invalidSignature, "its file \(file.path) differs from the signed one (SHA-256 \(sha256), signed \(file.sha256))")
            }
        }
    }
}
#endif
