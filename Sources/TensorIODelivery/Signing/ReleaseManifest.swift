#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import TensorIO
import TensorIOSupport

/// What a release signature covers: the version's identity and every file of its bundle, with its size
/// and SHA-256 (as OpenSSF model signing signs a manifest of a model's files).
///
/// The bytes signed are ``canonicalBytes``, a fixed UTF-8 text (never a JSON encoder's output):
/// ```
/// tensorio-release-signature-v1\n
/// model <model id>\n
/// version <version>\n
/// file <sha256> <size> <path>\n      one line per file, sorted by the path's UTF-8 bytes
/// ```
/// Identifiers follow ``RepositoryIdentifier``'s rules and paths ``ReleaseManifest/validatePath(_:)``'s (no
/// control characters), so no field can contain a separator of the line it is in except the last
/// field, the path, which runs to the end of its line.
public struct ReleaseManifest: Sendable, Hashable {
    /// The name of the signature format, first line of ``canonicalBytes`` and `format` of the file.
    public static let format = "tensorio-release-signature-v1"
    /// The most files a manifest may list: 10,000, as many as a bundle archive may hold entries
    /// (`BundleArchive.Limits.maximumEntries`' default).
    public static let maximumFiles = 10_000
    /// The most UTF-8 bytes of one path: 1,024.
    public static let maximumPathBytes = 1024

    /// One file of the bundle.
    public struct File: Sendable, Hashable, Codable {
        /// The path inside the bundle folder, components separated by `/`.
        public var path: String
        /// The size in bytes.
        public var size: UInt64
        /// The SHA-256 of the contents, 64 lowercase hex digits.
        public var sha256: String

        /// Creates an entry.
        public init(path: String, size: UInt64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }

        /// Reads an entry, naming `size` when it is not a whole number from 0 to 2^64 − 1 (Foundation's
        /// decoder reports such numbers as invalid JSON without saying where).
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            do {
                size = try container.decode(UInt64.self, forKey: .size)
            } catch let error as DecodingError {
                guard case .dataCorrupted = error else { throw error }
                throw DecodingError.dataCorruptedError(
                    forKey: .size, in: container, debugDescription: "not a whole number of bytes")
            } catch {
                // swift-foundation throws its own internal error for a number out of range.
                throw DecodingError.dataCorruptedError(
                    forKey: .size, in: container, debugDescription: "not a whole number of bytes")
            }
            sha256 = try container.decode(String.self, forKey: .sha256)
        }
    }

    /// The model id signed for.
    public var modelId: String
    /// The version signed for.
    public var version: String
    /// Every file of the bundle but the signature file, sorted by path.
    public var files: [File]

    /// Creates a manifest, sorting `files` by path.
    ///
    /// - Parameters:
    ///   - modelId: The model id.
    ///   - version: The version.
    ///   - files: The bundle's files.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidSignature`) naming the field at fault: an
    ///   identifier breaking ``RepositoryIdentifier``'s rules, a bad path, a duplicate, a digest that is
    ///   not SHA-256 hex, more than ``maximumFiles`` files.
    public init(modelId: String, version: String, files: [File]) throws {
        guard RepositoryIdentifier.isValid(modelId) else {
            throw TensorIOError(.invalidSignature, "field \"model_id\" is not a valid model id")
        }
        guard RepositoryIdentifier.isValid(version) else {
            throw TensorIOError(.invalidSignature, "field \"version\" is not a valid version")
        }
        guard files.count <= Self.maximumFiles else {
            throw TensorIOError(
                .invalidSignature, "field \"files\" lists \(files.count) files, more than the limit of \(Self.maximumFiles)")
        }
        var seen = Set<String>()
        for (index, file) in files.enumerated() {
            do {
                try Self.validatePath(file.path)
            } catch let error as TensorIOError {
                throw TensorIOError(.invalidSignature, "field \"files[\(index)].path\": \(error.message)")
            }
            guard seen.insert(file.path).inserted else {
                throw TensorIOError(.invalidSignature, "field \"files[\(index)].path\": \"\(file.path)\" is listed twice")
            }
            guard FileDigest.isSHA256(file.sha256) else {
                throw TensorIOError(.invalidSignature, "field \"files[\(index)].sha256\" is not 64 lowercase hex digits")
            }
        }
        self.modelId = modelId
        self.version = version
        self.files = files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }

    /// The manifest of the bundle folder at `bundleURL` for `modelId` and `version`: every regular file but
    /// the signature file, hashed.
    ///
    /// - Parameters:
    ///   - bundleURL: A bundle folder.
    ///   - modelId: The model id to sign for.
    ///   - version: The version to sign for.
    /// - Returns: The manifest.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.invalidSignature` (see ``init(modelId:version:files:)``),
    ///   `TensorIOError.Code.unsafeArchive` (a symbolic link or special file),
    ///   `TensorIOError.Code.limitExceeded` (more than ``maximumFiles`` files) or `TensorIOError.Code.io`.
    public static func make(bundleAt bundleURL: URL, modelId: String, version: String) throws -> ReleaseManifest {
        let listed = try BundleFiles.list(bundleURL)
        var files: [File] = []
        for (path, size) in listed {
            files.append(File(path: path, size: size, sha256: try FileDigest.sha256(of: bundleURL.appendingPathComponent(path))))
        }
        return try ReleaseManifest(modelId: modelId, version: version, files: files)
    }

    /// The bytes a signature signs (see the type's description).
    public var canonicalBytes: Data {
        var text = "\(Self.format)\nmodel \(modelId)\nversion \(version)\n"
        for file in files { text += "file \(file.sha256) \(file.size) \(file.path)\n" }
        return Data(text.utf8)
    }

    /// Checks a manifest path: not empty, at most ``maximumPathBytes`` UTF-8 bytes, relative, no empty,
    /// `.` or `..` component, no backslash, colon or control character, and not the signature file.
    ///
    /// - Parameter path: A path inside a bundle.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidSignature`) saying what is wrong.
    public static func validatePath(_ path: String) throws {
        guard !path.isEmpty else { throw TensorIOError(.invalidSignature, "the path is empty") }
        guard path.utf8.count <= maximumPathBytes else {
            throw TensorIOError(.invalidSignature, "the path has more than \(maximumPathBytes) bytes")
        }
        guard !path.hasPrefix("/"), !path.hasPrefix("~") else {
            throw TensorIOError(.invalidSignature, "\"\(path)\" is an absolute path")
        }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || $0 == "\\" || $0 == ":" }) else {
            throw TensorIOError(.invalidSignature, "the path has a control character, backslash or colon")
        }
        for component in path.split(separator: "/", omittingEmptySubsequences: false)
        where component.isEmpty || component == "." || component == ".." {
            throw TensorIOError(.invalidSignature, "\"\(path)\" has an empty, \".\" or \"..\" component")
        }
        guard path != ReleaseSignature.fileName else {
            throw TensorIOError(.invalidSignature, "the signature file cannot sign itself")
        }
    }
}

/// The regular files of a bundle folder, bounded, without the signature file.
enum BundleFiles {
    /// Every regular file under `bundleURL` (relative path with `/`, size), but the top-level signature
    /// file; folders are walked, not listed.
    ///
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsafeArchive` (a symbolic link or special file),
    ///   `TensorIOError.Code.limitExceeded` (more than ``ReleaseManifest/maximumFiles`` files),
    ///   `TensorIOError.Code.io`.
    static func list(_ bundleURL: URL) throws -> [(path: String, size: UInt64)] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: bundleURL.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TensorIOError(.io, "\(bundleURL.path) is not a bundle folder")
        }
        guard let enumerator = fileManager.enumerator(atPath: bundleURL.path) else {
            throw TensorIOError(.io, "cannot list \(bundleURL.path)")
        }
        var files: [(path: String, size: UInt64)] = []
        // Folders count too, so that a tree of empty folders cannot make the walk endless either.
        var visited = 0
        while let relative = enumerator.nextObject() as? String {
            visited += 1
            guard visited <= 2 * ReleaseManifest.maximumFiles else {
                throw TensorIOError(
                    .limitExceeded, "\(bundleURL.path) holds more than \(2 * ReleaseManifest.maximumFiles) files and folders")
            }
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try fileManager.attributesOfItem(atPath: bundleURL.appendingPathComponent(relative).path)
            } catch {
                throw TensorIOError(.io, "cannot read \(relative) in \(bundleURL.path): \(SystemErrorText.reason(of: error))")
            }
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?:
                continue
            case .typeRegular?:
                if relative == ReleaseSignature.fileName { continue }
                files.append((relative, (attributes[.size] as? NSNumber)?.uint64Value ?? 0))
                guard files.count <= ReleaseManifest.maximumFiles else {
                    throw TensorIOError(
                        .limitExceeded, "\(bundleURL.path) holds more than \(ReleaseManifest.maximumFiles) files (ReleaseManifest.maximumFiles)")
                }
            default:
                throw TensorIOError(.unsafeArchive, "\(relative) in \(bundleURL.path) is not a plain file or folder; bundles must hold plain files")
            }
        }
        return files
    }
}
#endif
