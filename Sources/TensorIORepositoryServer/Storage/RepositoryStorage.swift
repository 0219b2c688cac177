#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation
public import Logging
@_spi(Tools) import TensorIO
public import TensorIODelivery

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
/// indexed version always has its archive. Deleting a version goes the other way round — the row, then
/// the archive — so that it too can only leave an archive without a row, which
/// ``collectGarbage(olderThan:)`` (or the next start-up) removes.
public final class RepositoryStorage: Sendable {
    /// The root folder.
    public let root: URL
    /// The index.
    public let index: RepositoryIndex
    /// What start-up found and repaired.
    public let recovery: RecoveryReport
    private let logger: Logger
    /// Names in `incoming/` that uploads of this process are using: never collected, whatever their age.
    private let activeUploads: ActiveUploads

    /// What ``RepositoryStorage/init(root:logger:recoveryGracePeriod:)`` found on disk.
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

    /// Opens the storage in `root`, creating what is missing, and repairs what a crash left behind.
    ///
    /// - Parameters:
    ///   - root: The server's root folder.
    ///   - logger: Where start-up reports go; swift-log's task-local `Logger.current` by default.
    ///   - recoveryGracePeriod: At start-up, unindexed archives and unfinished uploads older than this many
    ///     seconds are removed. 0 (the default) removes them all: right when this process is the only one
    ///     using the folder, as with the SQLite index. Instances sharing one archive folder must give at
    ///     least ``defaultGracePeriod``, or a starting instance could remove an archive that another one is
    ///     committing.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the folders or the index cannot be opened.
    public init(root: URL, logger: Logger = Logger.current, recoveryGracePeriod: TimeInterval = 0) throws {
        self.root = root.standardizedFileURL
        self.logger = logger
        let activeUploads = ActiveUploads()
        self.activeUploads = activeUploads
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

        let collected: GarbageReport
        do {
            collected = try Self.collectGarbage(
                root: self.root, index: index, olderThan: recoveryGracePeriod, activeUploads: activeUploads)
        } catch {
            throw TensorIOError(.io, "cannot read the index in \(root.relativePath): \(SystemErrorText.reason(of: error))")
        }
        var report = RecoveryReport(
            removedIncoming: collected.removedIncoming, removedOrphans: collected.removedArchives, problems: [])
        let indexed: [(modelId: String, version: String, size: Int64)]
        do {
            indexed = try index.allVersions()
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
    ///   `TensorIOError.Code.limitExceeded`, `TensorIOError.Code.invalidBundle`, what loading threw
    ///   (`TensorIOError.Code.layerMismatch`, `TensorIOError.Code.runtimeCrashed`…), `TensorIOError.Code.io`.
    func store(
        uploadAt uploadURL: URL, modelId: String, version: String, canonical: Bool, notes: String?, upgradeTo: String?,
        limits: BundleArchive.Limits, loadCheck: LoadCheck
    ) throws -> VersionDetails? {
        let fileManager = FileManager.default
        let unpacked = uploadURL.appendingPathExtension("d")
        defer { try? fileManager.removeItem(at: unpacked) }
        let bundleURL = try BundleArchive.extract(uploadURL, into: unpacked, limits: limits, name: "the uploaded archive")
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
                // The modification time says when the archive was placed: garbage collection leaves
                // unindexed archives younger than its grace period alone (another instance may be
                // committing them).
                _ = utimes(uploadURL.path, nil)
                var linked = false
                for _ in 0..<2 where !linked {
                    try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                    if link(uploadURL.path, destination.path) == 0 {
                        linked = true
                    } else if errno == EEXIST {
                        return false
                    } else if errno != ENOENT {  // ENOENT: another instance removed the empty folder; again
                        throw TensorIOError(.io, "cannot store \(destination.path): \(SystemErrorText.reason(errno: errno))")
                    }
                }
                guard linked else {
                    throw TensorIOError(.io, "cannot store \(destination.path): its folder keeps disappearing")
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
    /// `RepositoryIndex.deleteVersion(_:of:force:removeArchive:)` for why in that order).
    ///
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the index cannot be written.
    func deleteVersion(_ version: String, of modelId: String, force: Bool) throws -> RepositoryIndex.DeletionOutcome {
        let url = archiveURL(modelId: modelId, version: version)
        let logger = self.logger
        do {
            return try index.deleteVersion(version, of: modelId, force: force) {
                if unlink(url.path) == 0 {
                    Self.syncFolder(url.deletingLastPathComponent())
                } else if errno != ENOENT {
                    // The row is gone: the file is now garbage that the next collection removes.
                    logger.warning("deleted \(modelId) version \(version) but could not remove \(url.path): \(SystemErrorText.reason(errno: errno))")
                }
            }
        } catch {
            throw TensorIOError(.io, "cannot delete \(modelId) version \(version) from the index: \(SystemErrorText.reason(of: error))")
        }
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
    public func collectGarbage(olderThan: TimeInterval = RepositoryStorage.defaultGracePeriod) throws -> GarbageReport {
        let report: GarbageReport
        do {
            report = try Self.collectGarbage(root: root, index: index, olderThan: olderThan, activeUploads: activeUploads)
        } catch {
            throw TensorIOError(.io, "cannot read the index to collect garbage: \(SystemErrorText.reason(of: error))")
        }
        if !report.removedArchives.isEmpty || !report.removedIncoming.isEmpty {
            logger.notice("collected garbage: \(report.removedArchives.count) unindexed archive(s), \(report.removedIncoming.count) unfinished upload(s)")
        }
        return report
    }

    private static func collectGarbage(
        root: URL, index: RepositoryIndex, olderThan grace: TimeInterval, activeUploads: ActiveUploads
    ) throws -> GarbageReport {
        var report = GarbageReport(olderThan: Int(max(0, grace).rounded()))
        var budget = GarbageReport.maximumEntries
        let cutoff = Date().timeIntervalSince1970 - max(0, grace)
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
            if activeUploads.contains(upload) || entry.modified > cutoff {
                report.keptRecent += 1
            } else if (try? fileManager.removeItem(at: incoming.appendingPathComponent(name))) != nil {
                report.removedIncoming.append(name)
            }
        }

        let archives = root.appendingPathComponent("archives")
        try index.withIndexedArchives { known in
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
