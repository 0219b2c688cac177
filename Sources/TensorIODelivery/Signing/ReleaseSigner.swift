#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation

/// Signs a bundle folder for a model id and version: writes its ``ReleaseSignature`` file at its root.
public enum ReleaseSigner {
    /// Signs the bundle folder at `bundleURL` as version `version` of `modelId`, writing
    /// `tensorio-signature.json` into it (replacing an older one). Sign a copy when the bundle should stay
    /// as it is: `tensorio push --sign` does.
    ///
    /// - Parameters:
    ///   - bundleURL: A bundle folder.
    ///   - modelId: The model id the version is published under.
    ///   - version: The version.
    ///   - key: The publisher's private key.
    /// - Returns: The signature written.
    /// - Throws: `TensorIOError` as ``ReleaseManifest/make(bundleAt:modelId:version:)``, and
    ///   `TensorIOError.Code.io` when the file cannot be written.
    @discardableResult
    public static func sign(
        bundleAt bundleURL: URL, modelId: String, version: String, with key: PublisherSigningKey
    ) throws -> ReleaseSignature {
        let manifest = try ReleaseManifest.make(bundleAt: bundleURL, modelId: modelId, version: version)
        let signature = try ReleaseSignature(signing: manifest, with: key)
        try signature.write(intoBundleAt: bundleURL)
        return signature
    }
}
#endif
