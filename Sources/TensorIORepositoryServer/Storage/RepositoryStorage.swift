#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation
public import Logging
@_spi(Tools) import TensorIO
import TensorIODelivery

/// The server's files under its root folder, and the rules that keep them consistent with the index.
///
/// ```
/// index.sqlite (+ -wal, -shm)      the GRDB index
/// archives/<model>/<version>.zip   acknowledged versions, never changed once written
/// incoming/                        uploads in progress; emptied at start-up
/// ```
/// An upload is streamed to `incoming/`, synced, checked, then linked into `archives/` (never replacing a
/// file), and only then indexed, in one transaction; the server acknowledges after the commit. So a crash
/// at any point leaves either nothing visible, or an archive without a row, which start-up deletes; an
/// indexed version always has its archive.
public final class RepositoryStorage: Sendable {
    /// The root folder.
    public let root: URL
    /// The index.
    public let index: RepositoryIndex
    /// What start-up found and repaired.
    public let recovery: RecoveryReport
    private let logger: Logger

    /// What ``RepositoryStorage/init(root:logger:)`` found on disk.
    public struct RecoveryReport: Sendable, Hashable {
        /// Files removed from `incoming/`: uploads a previous run never finished.
        public var removedIncoming: [String]
        /// Archives removed because no index row names them: never acknowledged.
        public var removedOrphans: [String]
        /// Indexed versions whose archive is missing or has the wrong size. Should always be empty.
        public var problems: [String]
    }

    /// Opens the storage in `root`, creating what is missing, and repairs what a crash left behind.
    ///
    /// - Parameters:
    ///   - root: The server's root folder.
    ///   - logger: Where start-up reports go; swift-log's task-local `Logger.current` by default.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the folders or the index cannot be opened.
    public init(root: URL, logger: Logger = Logger.current) throws {
        self.root = root.standardizedFileURL
        self.logger = logger
        let fileManager = FileManager.default
        let archives = self.root.appendingPathComponent("archives")
        let incoming = self.root.appendingPathComponent("incoming")
        do {
            try fileManager.createDirectory(at: archives, withIntermediateDirectories: true)
            try fileManager.createDirectory(at: incoming, withIntermediateDirectories: true)
        } catch {
            throw TensorIOError(.io, "cannot open the repository in \(root.relativePath): \(SystemErrorText.reason(creatingFolder: archives, error: error))")
        }
        do {
            index = try RepositoryIndex(url: self.root.appendingPathComponent("index.sqlite"))
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot open the repository in \(root.relativePath): \(SystemErrorText.reason(of: error))")
        }

        var report = RecoveryReport(removedIncoming: [], removedOrphans: [], problems: [])
        for item in (try? fileManager.contentsOfDirectory(atPath: incoming.path)) ?? [] {
            try? fileManager.removeItem(at: incoming.appendingPathComponent(item))
            report.removedIncoming.append(item)
        }
        let indexed: [(modelId: String, version: String, size: Int64)]
        do {
            indexed = try index.allVersions()
        } catch {
            throw TensorIOError(.io, "cannot read the index in \(root.relativePath): \(SystemErrorText.reason(of: error))")
        }
        let known = Set(indexed.map { "\($0.modelId)/\($0.version).zip" })
        for model in (try? fileManager.contentsOfDirectory(atPath: archives.path)) ?? [] {
            let folder = archives.appendingPathComponent(model)
            for file in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where !known.contains("\(model)/\(file)") {
                try? fileManager.removeItem(at: folder.appendingPathComponent(file))
                report.removedOrphans.append("\(model)/\(file)")
            }
        }
        for entry in indexed {
            let url = archives.appendingPathComponent(entry.modelId).appendingPathComponent("\(entry.version).zip")
            let size = (try? fileManager.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
            if size == nil {
                report.problems.append("\(entry.modelId) version \(entry.version): archive \(url.path) is missing")
            } else if size?.int64Value != entry.size {
                report.problems.append("\(entry.modelId) version \(entry.version): archive has \(size?.int64Value ?? 0) bytes, the index says \(entry.size)")
            }
        }
        recovery = report
        if !report.removedIncoming.isEmpty {
            logger.notice("removed \(report.removedIncoming.count) unfinished upload(s) from incoming/")
        }
        if !report.removedOrphans.isEmpty {
            logger.notice("removed \(report.removedOrphans.count) unacknowledged archive(s): \(report.removedOrphans.joined(separator: ", "))")
        }
        for problem in report.problems { logger.error("index and archives disagree: \(problem)") }
    }

    /// The folder for uploads in progress.
    var incoming: URL { root.appendingPathComponent("incoming") }

    /// The archive of a version.
    func archiveURL(modelId: String, version: String) -> URL {
        root.appendingPathComponent("archives").appendingPathComponent(modelId).appendingPathComponent("\(version).zip")
    }

    /// A fresh path in `incoming/`.
    func newIncomingURL() -> URL { incoming.appendingPathComponent(UUID().uuidString) }

    /// Checks an uploaded archive (already written and synced at `uploadURL`) — unpacks it, validates the
    /// bundle, loads its model as `loadCheck` says — and stores it as a version.
    ///
    /// - Returns: The stored version; `nil` when the version exists already.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsafeArchive`, `TensorIOError.Code.invalidArchive`,
    ///   `TensorIOError.Code.limitExceeded`, `TensorIOError.Code.invalidSignature` (a signature file that is
    ///   malformed, names another model or version, or lists other files), `TensorIOError.Code.invalidBundle`,
    ///   what loading threw (`TensorIOError.Code.layerMismatch`, `TensorIOError.Code.runtimeCrashed`…), `TensorIOError.Code.io`.
    func store(
        uploadAt uploadURL: URL, modelId: String, version: String, canonical: Bool, notes: String?, upgradeTo: String?,
        limits: BundleArchive.Limits, loadCheck: LoadCheck
    ) throws -> VersionDetails? {
        let fileManager = FileManager.default
        let unpacked = uploadURL.appendingPathExtension("d")
        defer { try? fileManager.removeItem(at: unpacked) }
        let bundleURL = try BundleArchive.extract(uploadURL, into: unpacked, limits: limits, name: "the uploaded archive")
        // A signature file must be well-formed and sign this very version and files; the server holds no
        // publisher key, so whether the signer is trusted is for clients to decide.
        try ReleaseVerifier.checkWithoutKey(bundleAt: bundleURL, modelId: modelId, version: version)
        try ModelBundleValidator(bundleAt: bundleURL, logger: logger).validate()
        try ModelBundle(at: bundleURL, logger: logger)
            .verify(loading: loadCheck, configuration: ModelConfiguration(logger: logger))
        let sha256 = try FileDigest.sha256(of: uploadURL)
        let size = ((try? fileManager.attributesOfItem(atPath: uploadURL.path))?[.size] as? NSNumber)?.int64Value ?? 0

        let destination = archiveURL(modelId: modelId, version: version)
        let new = RepositoryIndex.NewVersion(
            modelId: modelId, version: version, sha256: sha256, size: size, notes: notes, upgradeTo: upgradeTo,
            bundleName: bundleURL.lastPathComponent, canonical: canonical)
        do {
            return try index.insert(new, place: {
                try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard link(uploadURL.path, destination.path) == 0 else {
                    if errno == EEXIST { return false }
                    throw TensorIOError(.io, "cannot store \(destination.path): \(SystemErrorText.reason(errno: errno))")
                }
                Self.syncFolder(destination.deletingLastPathComponent())
                return true
            }, undo: {
                unlink(destination.path)
            })
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot index \(modelId) version \(version): \(SystemErrorText.reason(of: error))")
        }
    }

    /// Writes `chunks` to a new file in `incoming/`, refusing more than `maximumBytes`, and syncs it.
    ///
    /// - Returns: The file and its size.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.tooLarge`, `TensorIOError.Code.io`); the file is
    ///   removed on failure.
    func receive<S: AsyncSequence>(_ chunks: S, maximumBytes: Int64) async throws -> (URL, Int64)
    where S.Element == [UInt8] {
        let url = newIncomingURL()
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw TensorIOError(.io, "cannot create \(url.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var total: Int64 = 0
            for try await chunk in chunks {
                total += Int64(chunk.count)
                if total > maximumBytes {
                    throw TensorIOError(.tooLarge, "the upload is larger than the server's limit of \(maximumBytes) bytes")
                }
                try handle.write(contentsOf: chunk)
            }
            try handle.synchronize()
            return (url, total)
        } catch {
            try? FileManager.default.removeItem(at: url)
            if let error = error as? TensorIOError { throw error }
            throw TensorIOError(.io, "the upload failed: \(SystemErrorText.reason(of: error))")
        }
    }

    private static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
