#if Delivery  // built with the Delivery trait only (Package.swift)
import Crypto
public import Foundation
import TensorIO

/// SHA-256 of files, read in chunks so archives of any size hash in constant memory.
public enum FileDigest {
    /// The SHA-256 of the file at `url`, lowercase hex.
    ///
    /// - Parameter url: A regular file.
    /// - Returns: 64 hex digits.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the file cannot be read.
    public static func sha256(of url: URL) throws -> String {
        try FileReading.withHandle(reading: url) { handle in
            var hasher = SHA256()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
            }
            return hex(hasher.finalize())
        }
    }

    /// The SHA-256 of `data`, lowercase hex.
    ///
    /// - Parameter data: Bytes in memory.
    /// - Returns: 64 hex digits.
    public static func sha256(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// Lowercase hex of a digest.
    public static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `text` looks like a SHA-256 in hex (64 lowercase hex digits).
    public static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
#endif
