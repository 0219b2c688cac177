#if Server  // built with the Server trait only (Package.swift)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation
public import Logging
import TensorIO
public import TensorIODelivery
import TensorIOSupport

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
/// indexed version always has its archive. Deleting a version goes the other way round — the row, then
/// the archive — so that it too can only leave an archive without a row, which
/// ``collectGarbage(olderThan:)`` (or the next start-up) removes.
///
/// With a PostgreSQL index several instances share the root folder: start-up then removes only unindexed
/// files older than ``defaultGracePeriod`` (another instance may be placing them), and a garbage
/// collection never removes another instance's upload in `incoming/` younger than that.
public final class RepositoryStorage: Sendable {
    /// The root folder.
    public let root: URL
    /// The index.
    let index: any RepositoryIndexing
    private let recoveryReport = RecoveryBox()
    private let recoveryGracePeriod: TimeInterval
    private let logger: Logger
    /// Names in `incoming/` that uploads of this process are using: never collected, whatever their age.
    private let activeUploads: ActiveUploads

    /// What start-up found on disk and repaired.
    public struct RecoveryReport: Sendable, Hashable {
        /// Files removed from `incoming/`: uploads a previous run never finished.
        public var removedIncoming: [String]
        /// Archives removed because no index row names them: never acknowledged.
        public var removedOrphans: [String]
        /// Indexed versions whose archive is missing or has the wrong size. Should always be empty.
        public var problems: [String]
    }

    /// How long a file under `archives/` or `incoming/` that no index row names is left alone by
    /// ``collectGarbage(olderThan:)`` unless told otherwise: one hour, longer than any upload takes from
    /// its last written byte to its commit (unpacking is bounded to 10 minutes, the load check to its time
    /// limit). Another instance sharing the archive folder may be placing such a file right now.
    public static let defaultGracePeriod: TimeInterval = 3600

    /// What start-up found and repaired (``RepositoryServer`` runs the check once the index is open);
    /// empty before.
    public var recovery: RecoveryReport { recoveryReport.value }

    /// Opens the storage in `root`, creating what is missing. The database is not reached yet: the server
    /// does that, and the start-up check, when it runs.
    ///
    /// - Parameters:
    ///   - root: The server's root folder.
    ///   - database: Where the index lives.
    ///   - logger: Where start-up reports go; swift-log's task-local `Logger.current` by default.
    ///   - recoveryGracePeriod: At start-up, unindexed archives and unfinished uploads older than this many
    ///     seconds are removed. `nil` (the default) means 0 with the SQLite index, where this process is
    ///     the only one using the folder, and ``defaultGracePeriod`` with PostgreSQL, where instances share
    ///     the folder and a starting one must not remove an archive another one is committing.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the folders or the SQLite index cannot be
    ///   opened; `TensorIOError.Code.invalidConfiguration` for an unusable PostgreSQL URL.
    public init(
        root: URL, database: RepositoryDatabase = .sqlite, logger: Logger = Logger.current,
        recoveryGracePeriod: TimeInterval? = nil
    ) throws {
        self.root = root.standardizedFileURL
        self.logger = logger
        activeUploads = ActiveUploads()
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
        self.recoveryGracePeriod = recoveryGracePeriod ?? (index.isShared ? Self.defaultGracePeriod : 0)
    }

    /// Repairs what a crash left behind, with the index open: removes unfinished uploads and archives no
    /// row names (older than the recovery grace period), and reports indexed versions whose archive is
    /// missing or of the wrong size.
    ///
    /// ``RepositoryServer`` runs it when it starts, before it listens; call it yourself only on storage
    /// that no server is using, with its index open (a SQLite index always is).
    ///
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the index cannot be read.
    public func recover() async throws {
        let fileManager = FileManager.default
        let archives = root.appendingPathComponent("archives")
        let collected: GarbageReport
        do {
            collected = try await Self.collectGarbage(
                root: root, index: index, olderThan: recoveryGracePeriod, activeUploads: activeUploads)
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot read the index in \(root.relativePath): \(SystemErrorText.reason(of: error))")
        }
        var report = RecoveryReport(
            removedIncoming: collected.removedIncoming, removedOrphans: collected.removedArchives, problems: [])
        let indexed: [(modelId: String, version: String, size: Int64)]
        do {
            indexed = try await index.allVersions()
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot read the index in \(root.relativePath): \(SystemErrorText.reason(of: error))")
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
    func validate(
        uploadAt uploadURL: URL, modelId: String, version: String, limits: BundleArchive.Limits, loadCheck: LoadCheck
    ) throws -> CheckedUpload {
        let fileManager = FileManager.default
        let unpacked = uploadURL.appendingPathExtension("d")
        defer { try? fileManager.removeItem(at: unpacked) }
        let bundleURL = try BundleArchive.extract(uploadURL, into: unpacked, limits: limits, name: "the uploaded archive")
        // A signature file must be well-formed and sign this very version and files; the server holds no
        // publisher key, so whether the signer is trusted is for clients to decide.
        try ReleaseVerifier.verifyWithoutKey(bundleAt: bundleURL, modelId: modelId, version: version)
        try ModelBundleValidator(bundleAt: bundleURL, logger: logger).validate()
        try ModelBundle(at: bundleURL, logger: logger)
            .checkLoading(loadCheck, configuration: ModelConfiguration(logger: logger))
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
    /// that does not exist, until the next garbage collection).
    private static func place(_ upload: URL, at destination: URL) throws -> Bool {
        // The modification time says when the archive was placed: garbage collection leaves unindexed
        // archives younger than its grace period alone (another instance may be committing them).
        _ = utimes(upload.path, nil)
        let folder = destination.deletingLastPathComponent()
        for _ in 0..<3 {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if link(upload.path, destination.path) == 0 {
                syncFolder(folder)
                return true
            }
            switch errno {
            case EEXIST: unlink(destination.path)  // the crash's leftover; link again
            case ENOENT: continue  // a garbage collection removed the emptied folder; make it again
            default: throw TensorIOError(.io, "cannot store \(destination.path): \(SystemErrorText.reason(errno: errno))")
            }
        }
        throw TensorIOError(.io, "cannot store \(destination.path): it keeps appearing or its folder disappearing")
    }

    /// Writes `chunks` to a new file in `incoming/`, refusing more than `maximumBytes`, and syncs it.
    ///
    /// - Returns: The file and its size.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.tooLarge`, `TensorIOError.Code.io`); the file is
    ///   removed on failure.
    func receive<S: AsyncSequence>(_ chunks: S, maximumBytes: Int64) async throws -> (URL, Int64)
    where S.Element == [UInt8] {
        let url = newIncomingURL()
        activeUploads.insert(url.lastPathComponent)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            activeUploads.remove(url.lastPathComponent)
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
            finishUpload(url)
            if let error = error as? TensorIOError { throw error }
            throw TensorIOError(.io, "the upload failed: \(SystemErrorText.reason(of: error))")
        }
    }

    /// Removes an upload's file in `incoming/` once its request is over, and forgets it.
    func finishUpload(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
        activeUploads.remove(url.lastPathComponent)
    }

    // MARK: Lifecycle

    /// Deletes a version: its index row first, then its archive (see
    /// `RepositoryIndex.deleteVersion(_:of:force:removeArchive:)` for why in that order). Inside the index's
    /// write the archive is only moved aside into `incoming/` (one rename); it is removed once the
    /// deletion has committed, and moved back if the commit fails, so a failed commit never leaves a row
    /// without its archive.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the index cannot be written.
    func deleteVersion(_ version: String, of modelId: String, force: Bool) async throws -> RepositoryIndex.DeletionOutcome {
        let url = archiveURL(modelId: modelId, version: version)
        let aside = newIncomingURL().appendingPathExtension("deleted")
        let logger = self.logger
        let outcome: RepositoryIndex.DeletionOutcome
        do {
            outcome = try await index.deleteVersion(version, of: modelId, force: force) {
                if rename(url.path, aside.path) != 0, errno != ENOENT {
                    // The row goes anyway: the file is garbage that the next collection removes.
                    logger.warning("deleting \(modelId) version \(version): cannot move \(url.path) aside: \(SystemErrorText.reason(errno: errno))")
                }
            }
        } catch {
            if FileManager.default.fileExists(atPath: aside.path) { rename(aside.path, url.path) }
            if let error = error as? TensorIOError { throw error }
            throw TensorIOError(.io, "cannot delete \(modelId) version \(version) from the index: \(SystemErrorText.reason(of: error))")
        }
        if unlink(aside.path) == 0 { Self.syncFolder(incoming) }
        Self.syncFolder(url.deletingLastPathComponent())
        return outcome
    }

    /// Removes what no index row names: archives under `archives/` and unfinished uploads in `incoming/`,
    /// when older than `olderThan` seconds and not in use by an upload of this process.
    ///
    /// Symbolic links are never followed nor removed (they are reported in `GarbageReport.skipped`),
    /// nothing outside `archives/` and `incoming/` is touched, and one run reads at most
    /// `GarbageReport.maximumEntries` directory entries. The archives are examined while the index's
    /// writer is held, so no upload of this process can place one meanwhile.
    ///
    /// - Parameter olderThan: The grace period in seconds; see ``defaultGracePeriod``.
    /// - Returns: What was removed and what was left alone.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the index cannot be read.
    public func collectGarbage(olderThan: TimeInterval = RepositoryStorage.defaultGracePeriod) async throws -> GarbageReport {
        let report: GarbageReport
        do {
            report = try await Self.collectGarbage(root: root, index: index, olderThan: olderThan, activeUploads: activeUploads)
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.io, "cannot read the index to collect garbage: \(SystemErrorText.reason(of: error))")
        }
        if !report.removedArchives.isEmpty || !report.removedIncoming.isEmpty {
            logger.notice("collected garbage: \(report.removedArchives.count) unindexed archive(s), \(report.removedIncoming.count) unfinished upload(s)")
        }
        return report
    }

    private static func collectGarbage(
        root: URL, index: any RepositoryIndexing, olderThan grace: TimeInterval, activeUploads: ActiveUploads
    ) async throws -> GarbageReport {
        var report = GarbageReport(olderThan: Int(max(0, grace).rounded()))
        var budget = GarbageReport.maximumEntries
        let cutoff = Date().timeIntervalSince1970 - max(0, grace)
        // Uploads of other instances sharing the folder are not in `activeUploads`: their files in
        // `incoming/` (written, then checked for up to a load check's time) keep the default grace.
        let incomingCutoff = index.isShared ? min(cutoff, Date().timeIntervalSince1970 - defaultGracePeriod) : cutoff
        let fileManager = FileManager.default

        let incoming = root.appendingPathComponent("incoming")
        let uploads = DirectoryListing.names(in: incoming, budget: &budget)
        report.complete = report.complete && uploads.complete
        for name in uploads.names {
            guard let entry = DirectoryListing.entry(incoming.appendingPathComponent(name)) else { continue }
            guard entry.kind == .file || entry.kind == .folder else {
                report.skipped.append("incoming/\(name)")
                continue
            }
            // `<uuid>` is an upload's body, `<uuid>.d` its unpacked copy.
            let upload = name.hasSuffix(".d") ? String(name.dropLast(2)) : name
            if activeUploads.contains(upload) || entry.modified > incomingCutoff {
                report.keptRecent += 1
            } else if (try? fileManager.removeItem(at: incoming.appendingPathComponent(name))) != nil {
                report.removedIncoming.append(name)
            }
        }

        let archives = root.appendingPathComponent("archives")
        try await index.withIndexedArchives { known in
            let models = DirectoryListing.names(in: archives, budget: &budget)
            report.complete = report.complete && models.complete
            for model in models.names {
                let folder = archives.appendingPathComponent(model)
                guard let entry = DirectoryListing.entry(folder) else { continue }
                switch entry.kind {
                case .folder: break
                case .file:
                    // A stray file where model folders belong: no row names it.
                    if entry.modified > cutoff {
                        report.keptRecent += 1
                    } else if unlink(folder.path) == 0 {
                        report.removedArchives.append(model)
                    }
                    continue
                case .symbolicLink, .other:
                    report.skipped.append("archives/\(model)")
                    continue
                }
                let files = DirectoryListing.names(in: folder, budget: &budget)
                report.complete = report.complete && files.complete
                var remaining = 0
                for file in files.names {
                    let url = folder.appendingPathComponent(file)
                    let name = "\(model)/\(file)"
                    guard let entry = DirectoryListing.entry(url) else { continue }
                    guard entry.kind == .file else {
                        report.skipped.append("archives/\(name)")
                        remaining += 1
                        continue
                    }
                    if known.contains(name) {
                        remaining += 1
                    } else if entry.modified > cutoff {
                        report.keptRecent += 1
                        remaining += 1
                    } else if unlink(url.path) == 0 {
                        report.removedArchives.append(name)
                    } else {
                        remaining += 1
                    }
                }
                // An emptied model folder goes too (rmdir refuses a folder that is not empty). An upload
                // of another instance that loses its folder this way creates it again.
                if remaining == 0, files.complete { rmdir(folder.path) }
            }
        }
        return report
    }

    private static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// The names in `incoming/` that uploads of this process are using.
private final class ActiveUploads: @unchecked Sendable {
    private let lock = NSLock()
    private var names: Set<String> = []

    func insert(_ name: String) { lock.withLock { _ = names.insert(name) } }
    func remove(_ name: String) { lock.withLock { _ = names.remove(name) } }
    func contains(_ name: String) -> Bool { lock.withLock { names.contains(name) } }
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
#endif
