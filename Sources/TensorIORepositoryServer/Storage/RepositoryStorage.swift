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
/// index.sqlite (+ -wal, -shm)      the GRDB index (when the database is SQLite)
/// archives/<model>/<version>.zip   acknowledged versions, never changed once written
/// incoming/                        uploads in progress; emptied at start-up
/// ```
/// An upload is streamed to `incoming/`, synced, checked, then linked into `archives/` (never replacing a
/// file), and only then indexed, in one transaction; the server acknowledges after the commit. So a crash
/// at any point leaves either nothing visible, or an archive without a row, which start-up deletes; an
/// indexed version always has its archive.
///
/// With a PostgreSQL index several instances share the root folder. Start-up then removes only what no
/// instance can still be working on: files in `incoming/` and archives without a row that were not
/// modified for ``sharedGracePeriod`` (an instance links an archive, written when its upload ended, a
/// moment before its row commits).
public final class RepositoryStorage: Sendable {
    /// The root folder.
    public let root: URL
    /// The index.
    let index: any RepositoryIndexing
    private let recoveryReport = RecoveryBox()
    private let logger: Logger

    /// How old an unindexed file in a shared root must be before start-up removes it: far longer than
    /// the moment between linking an archive and committing its row, and than an upload's check.
    public static let sharedGracePeriod: TimeInterval = 3600

    /// What start-up found on disk and repaired.
    public struct RecoveryReport: Sendable, Hashable {
        /// Files removed from `incoming/`: uploads a previous run never finished.
        public var removedIncoming: [String]
        /// Archives removed because no index row names them: never acknowledged.
        public var removedOrphans: [String]
        /// Indexed versions whose archive is missing or has the wrong size. Should always be empty.
        public var problems: [String]
    }

    /// What ``recover()`` found; empty until the server has started.
    public var recovery: RecoveryReport { recoveryReport.value }

    /// Opens the storage in `root`, creating what is missing. The database is not reached yet: the
    /// server does that, and the start-up check, when it runs.
    ///
    /// - Parameters:
    ///   - root: The server's root folder.
    ///   - database: Where the index lives.
    ///   - logger: Where start-up reports go; swift-log's task-local `Logger.current` by default.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the folders or the SQLite index cannot be
    ///   opened; `TensorIOError.Code.invalidConfiguration` for an unusable PostgreSQL URL.
    public init(root: URL, database: RepositoryDatabase = .sqlite, logger: Logger = Logger.current) throws {
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
        switch database {
        case .sqlite:
            do {
                index = try RepositoryIndex(url: self.root.appendingPathComponent("index.sqlite"))
            } catch let error as TensorIOError {
                throw error
            } catch {
                throw TensorIOError(.io, "cannot open the repository in \(root.relativePath): \(SystemErrorText.reason(of: error))")
            }
        case .postgres(let url):
            index = try PostgresIndex(url: url, logger: logger)
        }
    }

    /// Repairs what a crash left behind, with the index open: removes unfinished uploads and archives no
    /// row names, and reports indexed versions whose archive is missing or of the wrong size.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the index cannot be read.
    func recover() async throws {
        let fileManager = FileManager.default
        let archives = root.appendingPathComponent("archives")
        // In a shared root another instance may be writing an upload or linking an archive right now.
        let cutoff = index.isShared ? Date().addingTimeInterval(-Self.sharedGracePeriod) : nil
        var report = RecoveryReport(removedIncoming: [], removedOrphans: [], problems: [])
        for item in (try? fileManager.contentsOfDirectory(atPath: incoming.path)) ?? [] {
            let url = incoming.appendingPathComponent(item)
            if let cutoff, !Self.isOlder(url, than: cutoff) { continue }
            try? fileManager.removeItem(at: url)
            report.removedIncoming.append(item)
        }
        let indexed: [(modelId: String, version: String, size: Int64)]
        do {
            indexed = try await index.allVersions()
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot read the index in \(root.relativePath): \(SystemErrorText.reason(of: error))")
        }
        let known = Set(indexed.map { "\($0.modelId)/\($0.version).zip" })
        for model in (try? fileManager.contentsOfDirectory(atPath: archives.path)) ?? [] {
            let folder = archives.appendingPathComponent(model)
            for file in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where !known.contains("\(model)/\(file)") {
                let url = folder.appendingPathComponent(file)
                // An archive is linked from its upload file, whose last write was at most one load check
                // before: within the grace period another instance may be about to commit its row.
                if let cutoff, !Self.isOlder(url, than: cutoff) { continue }
                try? fileManager.removeItem(at: url)
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
        recoveryReport.value = report
        if !report.removedIncoming.isEmpty {
            logger.notice("removed \(report.removedIncoming.count) unfinished upload(s) from incoming/")
        }
        if !report.removedOrphans.isEmpty {
            logger.notice("removed \(report.removedOrphans.count) unacknowledged archive(s): \(report.removedOrphans.joined(separator: ", "))")
        }
        for problem in report.problems { logger.error("index and archives disagree: \(problem)") }
    }

    /// Whether the file was last modified before `cutoff`; false when that cannot be read.
    private static func isOlder(_ url: URL, than cutoff: Date) -> Bool {
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date else {
            return false
        }
        return modified < cutoff
    }

    /// The folder for uploads in progress.
    var incoming: URL { root.appendingPathComponent("incoming") }

    /// The archive of a version.
    func archiveURL(modelId: String, version: String) -> URL {
        root.appendingPathComponent("archives").appendingPathComponent(modelId).appendingPathComponent("\(version).zip")
    }

    /// A fresh path in `incoming/`.
    func newIncomingURL() -> URL { incoming.appendingPathComponent(UUID().uuidString) }

    /// An upload that passed every check, ready to be indexed.
    struct CheckedUpload: Sendable {
        var url: URL
        var sha256: String
        var size: Int64
        var bundleName: String
    }

    /// Checks an uploaded archive (already written and synced at `uploadURL`): unpacks it, validates the
    /// bundle and loads its model as `loadCheck` says. Blocks for up to the load check's time limit.
    ///
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsafeArchive`, `TensorIOError.Code.invalidArchive`,
    ///   `TensorIOError.Code.limitExceeded`, `TensorIOError.Code.invalidSignature` (a signature file that is
    ///   malformed, names another model or version, or lists other files), `TensorIOError.Code.invalidBundle`,
    ///   what loading threw (`TensorIOError.Code.layerMismatch`, `TensorIOError.Code.runtimeCrashed`…), `TensorIOError.Code.io`.
    func check(
        uploadAt uploadURL: URL, modelId: String, version: String, limits: BundleArchive.Limits, loadCheck: LoadCheck
    ) throws -> CheckedUpload {
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
        return CheckedUpload(url: uploadURL, sha256: sha256, size: size, bundleName: bundleURL.lastPathComponent)
    }

    /// Stores a checked upload as a version: links it into `archives/` and indexes it, atomically.
    ///
    /// - Returns: The stored version; `nil` when the version exists already.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`).
    func store(
        _ upload: CheckedUpload, modelId: String, version: String, canonical: Bool, notes: String?, upgradeTo: String?
    ) async throws -> VersionDetails? {
        let destination = archiveURL(modelId: modelId, version: version)
        let new = NewVersion(
            modelId: modelId, version: version, sha256: upload.sha256, size: upload.size, notes: notes,
            upgradeTo: upgradeTo, bundleName: upload.bundleName, canonical: canonical)
        do {
            return try await index.insert(new, place: {
                try Self.place(upload.url, at: destination)
            }, undo: {
                unlink(destination.path)
            })
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot index \(modelId) version \(version): \(SystemErrorText.reason(of: error))")
        }
    }

    /// Links the upload into place. Runs inside the index's insert, where no other writer can be placing
    /// the same version and its row does not exist yet: a file already there is an archive a crash left
    /// without its row, so it is replaced rather than refused (refusing would answer 409 for a version
    /// that does not exist, until the next start-up).
    private static func place(_ upload: URL, at destination: URL) throws -> Bool {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if link(upload.path, destination.path) != 0 {
            guard errno == EEXIST, unlink(destination.path) == 0 || errno == ENOENT, link(upload.path, destination.path) == 0 else {
                throw TensorIOError(.io, "cannot store \(destination.path): \(SystemErrorText.reason(errno: errno))")
            }
        }
        syncFolder(destination.deletingLastPathComponent())
        return true
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

/// The start-up report, written once by ``RepositoryStorage/recover()`` and read by health checks.
private final class RecoveryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var report = RepositoryStorage.RecoveryReport(removedIncoming: [], removedOrphans: [], problems: [])

    var value: RepositoryStorage.RecoveryReport {
        get { lock.withLock { report } }
        set { lock.withLock { report = newValue } }
    }
}
