#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
public import Logging
public import TensorIO
import TensorIOSupport

/// Installed model versions on the device, with an atomic "current" pointer per model and the previous
/// version kept for rollback.
///
/// Layout under ``directory``:
/// ```
/// <model>/versions/<version>/<name>.tiobundle   the unpacked, validated bundle
/// <model>/versions/<version>/install.json       where it came from (SHA-256, dates)
/// <model>/current.json                          {"current": "2", "previous": "1"}, replaced with rename
/// .partial/<model>/<version>.zip                interrupted downloads, resumed later
/// .partial/<model>/<version>.zip.etag           the archive's entity tag, so a resume never mixes archives
/// .partial/<model>/<version>.lock               flock held by the one downloader of that version
/// .tmp/                                         unpacking in progress; swept when a store opens
/// .lock                                         flock held while the store changes
/// ```
/// A download of a version holds that version's lock from before it touches the partial file until the
/// version is installed: a second downloader of the same version — another process, or another task —
/// waits, then finds it installed and downloads nothing. A partial file that no downloader holds and that
/// is older than ``partialLifetime`` is removed when a store opens (``removeStalePartialDownloads(olderThan:)``).
/// Installing unpacks into `.tmp`, validates the bundle, loads its model (by default in a separate process,
/// see `LoadCheck`), renames the folder into `versions/`, and only then replaces `current.json`: whatever
/// fails — a bundle that disagrees with its model or crashes the runtime included — and wherever a process
/// dies, the current version stays whole and usable. Other versions than the current and the previous are removed after a successful install.
public struct ModelStore: Sendable {
    /// The store's folder.
    public let directory: URL
    /// How many versions to keep per model: the current one and `keep - 1` before it (at least 2). The
    /// oldest installed others are removed after each install; the current and the previous version never.
    public let keep: Int
    /// How long, in seconds, an interrupted download that no downloader holds is kept for resuming.
    public let partialLifetime: TimeInterval

    /// The default ``partialLifetime``: 7 days.
    public static let defaultPartialLifetime: TimeInterval = 7 * 24 * 3600
    /// How an installed bundle's model is loaded before the version becomes current.
    public let loadCheck: LoadCheck
    /// Where notes on bundles and their models' load checks go (the runtime's messages included).
    public let logger: Logger
    /// The publisher keys a new version must be signed by (docs/security.md), or `nil` to install
    /// unsigned versions too. With keys, every install — from an archive or as a copy under another
    /// version — is refused with `TensorIOError.Code.untrustedRelease` unless ``ReleaseVerifier`` accepts
    /// the unpacked bundle for that model id and version; the current version is then kept.
    public let trustedKeys: TrustedKeys?
    /// The backends and tasks a new version's bundle is validated with: give the registry your app builds
    /// its models with (`ModelRegistry.vision`…) so that a version whose task entry is wrong is refused
    /// before it becomes current, not at its first `detect`.
    public let registry: ModelRegistry

    /// Opens (and creates) the store in `directory`, removing leftovers of unpacking that a dead process
    /// left behind, and interrupted downloads older than `partialLifetime` that no downloader holds.
    ///
    /// - Parameters:
    ///   - directory: The store's folder.
    ///   - keep: Versions kept per model, current included; at least 2 so that rollback works.
    ///   - partialLifetime: Seconds an interrupted download is kept for resuming (default 7 days).
    ///   - loadCheck: How a new version's model is loaded before it becomes current: in a child process
    ///     (the default: a model from a server is untrusted), or `LoadCheck.inProcess` where processes
    ///     cannot be started.
    ///   - logger: Where notes on bundles and load checks go; swift-log's task-local `Logger.current` by
    ///     default.
    ///   - trustedKeys: The publisher keys new versions must be signed by; `nil` (the default) installs
    ///     unsigned versions too.
    ///   - registry: The backends and tasks new versions are validated with (``registry``).
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the folder cannot be created.
    public init(
        directory: URL, keep: Int = 2, partialLifetime: TimeInterval = ModelStore.defaultPartialLifetime,
        loadCheck: LoadCheck = .isolated, logger: Logger = Logger.current, trustedKeys: TrustedKeys? = nil,
        registry: ModelRegistry = .builtIn
    ) throws {
        self.directory = directory.standardizedFileURL
        self.keep = max(2, keep)
        self.partialLifetime = max(0, partialLifetime)
        self.loadCheck = loadCheck
        self.logger = logger
        self.trustedKeys = trustedKeys
        self.registry = registry
        do {
            try FileManager.default.createDirectory(at: self.temporaryRoot, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: self.partialRoot, withIntermediateDirectories: true)
        } catch {
            throw TensorIOError(.io, "cannot create the model store in \(directory.relativePath): \(SystemErrorText.reason(creatingFolder: self.temporaryRoot, error: error))")
        }
        let temporaryRoot = self.temporaryRoot
        try lock.withLock {
            for item in (try? FileManager.default.contentsOfDirectory(atPath: temporaryRoot.path)) ?? [] {
                try? FileManager.default.removeItem(at: temporaryRoot.appendingPathComponent(item))
            }
        }
        removeStalePartialDownloads(olderThan: self.partialLifetime)
    }

    var temporaryRoot: URL { directory.appendingPathComponent(".tmp") }
    var partialRoot: URL { directory.appendingPathComponent(".partial") }
    private var lock: StoreLock { StoreLock(url: directory.appendingPathComponent(".lock")) }

    private func modelFolder(_ modelId: String) -> URL { directory.appendingPathComponent(modelId) }
    private func versionsFolder(_ modelId: String) -> URL { modelFolder(modelId).appendingPathComponent("versions") }
    private func pointerURL(_ modelId: String) -> URL { modelFolder(modelId).appendingPathComponent("current.json") }

    /// Where an interrupted download of `version` is kept.
    func partialURL(modelId: String, version: String) -> URL {
        partialRoot.appendingPathComponent(modelId).appendingPathComponent("\(version).zip")
    }

    /// The lock file whose holder owns the partial download of `version` (see ``DownloadLock``).
    func downloadLockURL(modelId: String, version: String) -> URL {
        partialRoot.appendingPathComponent(modelId).appendingPathComponent("\(version).lock")
    }

    // MARK: Partial downloads

    /// Removes interrupted downloads that no downloader holds and that were last written more than `age`
    /// seconds ago (with their `.etag` files), leftover lock files, and emptied model folders in `.partial/`.
    ///
    /// A partial file being downloaded — by this process or another — is never removed: its version's
    /// lock is tried first. Symbolic links are neither followed nor removed, and at most 100,000 entries
    /// are examined.
    ///
    /// - Parameter age: Seconds; `nil` for ``partialLifetime``.
    /// - Returns: The removed files, relative to `.partial/`.
    @discardableResult
    public func removeStalePartialDownloads(olderThan age: TimeInterval? = nil) -> [String] {
        let cutoff = Date().timeIntervalSince1970 - max(0, age ?? partialLifetime)
        var budget = 100_000
        var removed: [String] = []
        for model in DirectoryListing.names(in: partialRoot, budget: &budget).names {
            let folder = partialRoot.appendingPathComponent(model)
            guard DirectoryListing.entry(folder)?.kind == .folder else { continue }
            let names = DirectoryListing.names(in: folder, budget: &budget)
            var versions = Set<String>()
            for name in names.names {
                for suffix in [".zip.etag", ".zip", ".lock"] where name.hasSuffix(suffix) {
                    let version = String(name.dropLast(suffix.count))
                    if RepositoryIdentifier.isValid(version) { versions.insert(version) }
                    break
                }
            }
            for version in versions {
                let lockURL = folder.appendingPathComponent("\(version).lock")
                // Held: a download of this version is running; its files are not ours to judge.
                guard DirectoryListing.entry(lockURL).map({ $0.kind == .file }) ?? true,
                      let lock = try? DownloadLock.acquireIfFree(lockURL)
                else { continue }
                let archive = folder.appendingPathComponent("\(version).zip")
                let tag = folder.appendingPathComponent("\(version).zip.etag")
                let archiveEntry = DirectoryListing.entry(archive)
                let stale = archiveEntry.map { $0.kind == .file && $0.modified <= cutoff } ?? true
                if stale {
                    for file in [archive, tag] where DirectoryListing.entry(file)?.kind == .file && unlink(file.path) == 0 {
                        removed.append("\(model)/\(file.lastPathComponent)")
                    }
                }
                lock.release()
            }
            // Leftovers of atomic writes and anything else unknown, once old enough.
            let known = Set(versions.flatMap { ["\($0).zip", "\($0).zip.etag", "\($0).lock"] })
            for name in names.names where !known.contains(name) {
                let url = folder.appendingPathComponent(name)
                if let entry = DirectoryListing.entry(url), entry.kind == .file, entry.modified <= cutoff, unlink(url.path) == 0 {
                    removed.append("\(model)/\(name)")
                }
            }
            if names.complete { rmdir(folder.path) }  // only when empty
        }
        return removed
    }

    // MARK: Reading

    /// The current version of `modelId`, or `nil` when none is installed.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The installed current version.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidIdentifier`, or
    ///   `TensorIOError.Code.io` when the store's files are unreadable.
    public func current(_ modelId: String) throws -> InstalledModel? {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        guard let pointer = try readPointer(modelId) else { return nil }
        return try installed(modelId, version: pointer.current)
    }

    /// The version kept for rollback, or `nil`.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The previous version, if one is kept.
    /// - Throws: `TensorIOError` as ``current(_:)``.
    public func previous(_ modelId: String) throws -> InstalledModel? {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        guard let previous = try readPointer(modelId)?.previous else { return nil }
        return try installed(modelId, version: previous)
    }

    /// Every version of `modelId` on disk, sorted by install date.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The installed versions, oldest first.
    /// - Throws: `TensorIOError` as ``current(_:)``.
    public func versions(_ modelId: String) throws -> [InstalledModel] {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: versionsFolder(modelId).path)) ?? []
        return names.filter { RepositoryIdentifier.isValid($0) }
            .compactMap { try? installed(modelId, version: $0) }
            .sorted { ($0.installedAt, $0.version) < ($1.installedAt, $1.version) }
    }

    /// The installed version `version` of `modelId`.
    ///
    /// - Returns: Its description.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.notFound`) when it is not installed.
    public func installed(_ modelId: String, version: String) throws -> InstalledModel {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        let folder = versionsFolder(modelId).appendingPathComponent(version)
        let recordURL = folder.appendingPathComponent("install.json")
        guard let data = try? Data(contentsOf: recordURL) else {
            throw TensorIOError(.notFound, "version \(version) of model \(modelId) is not installed in \(directory.path)")
        }
        do {
            let record = try RepositoryAPI.makeDecoder().decode(InstallRecord.self, from: data)
            return InstalledModel(
                modelId: record.modelId, version: record.version, sha256: record.sha256, createdAt: record.createdAt,
                sequence: record.sequence,
                installedAt: record.installedAtPrecise.map(Date.init(timeIntervalSince1970:)) ?? record.installedAt, bundleURL: folder.appendingPathComponent(record.bundleName))
        } catch {
            throw TensorIOError(.io, "\(recordURL.path) is unreadable: \(SystemErrorText.reason(of: error))")
        }
    }

    private func readPointer(_ modelId: String) throws -> CurrentPointer? {
        let url = pointerURL(modelId)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(CurrentPointer.self, from: Data(contentsOf: url))
        } catch {
            throw TensorIOError(.io, "\(url.path) is unreadable: \(SystemErrorText.reason(of: error))")
        }
    }

    // MARK: Changing

    /// Installs a bundle archive as the current version of `modelId`.
    ///
    /// Checks the archive's SHA-256 against `expectedSHA256`, unpacks it with ``BundleArchive``'s checks
    /// into a temporary folder, verifies its release signature when the store has ``trustedKeys``,
    /// validates the bundle with `ModelBundleValidator`, loads its model as ``loadCheck`` says, moves it
    /// into place and only then swaps the current pointer. On any failure the current version is untouched.
    ///
    /// - Parameters:
    ///   - archiveURL: A zip holding one bundle folder. It is left where it is.
    ///   - modelId: The model's identifier.
    ///   - version: The version's identifier.
    ///   - expectedSHA256: The archive's SHA-256 as the server announced it; `nil` skips the check.
    ///   - createdAt: The upload date the server gave.
    ///   - sequence: The server's upload order, recorded for "only if newer".
    ///   - limits: Bounds on the unpacked archive.
    /// - Returns: The installed version, now current.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.checksumMismatch`,
    ///   `TensorIOError.Code.invalidArchive`, `TensorIOError.Code.unsafeArchive`,
    ///   `TensorIOError.Code.limitExceeded` (the archive is past one of `limits`),
    ///   `TensorIOError.Code.untrustedRelease` (the store has ``trustedKeys`` and the unpacked bundle is not
    ///   signed by one of them for `modelId` and `version`), `TensorIOError.Code.invalidBundle`, what
    ///   loading the model threw (such as `TensorIOError.Code.layerMismatch` or
    ///   `TensorIOError.Code.runtimeCrashed`, the message saying which version did not load),
    ///   `TensorIOError.Code.conflict` (the same version is installed from a different archive),
    ///   `TensorIOError.Code.invalidIdentifier` or `TensorIOError.Code.io`.
    @discardableResult
    public func install(
        archiveAt archiveURL: URL, modelId: String, version: String, expectedSHA256: String? = nil,
        createdAt: Date? = nil, sequence: Int64? = nil, limits: BundleArchive.Limits = BundleArchive.Limits()
    ) throws -> InstalledModel {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        let sha256 = try FileDigest.sha256(of: archiveURL)
        if let expectedSHA256, expectedSHA256.lowercased() != sha256 {
            throw TensorIOError(
                .checksumMismatch,
                "the archive of \(modelId) version \(version) has SHA-256 \(sha256), expected \(expectedSHA256)")
        }
        let fileManager = FileManager.default
        // The whole install holds the store's lock: a store opened meanwhile (which sweeps .tmp) never
        // removes a folder being unpacked, and two installs never interleave.
        return try lock.withLock {
            let staging = temporaryRoot.appendingPathComponent(UUID().uuidString)
            defer { try? fileManager.removeItem(at: staging) }
            let bundleURL = try BundleArchive.extract(archiveURL, into: staging, limits: limits)
            try checkSignature(bundleURL, modelId: modelId, version: version)
            try ModelBundleValidator(bundleAt: bundleURL, registry: registry, logger: logger).validate()
            try Self.checkLoading(bundleURL, modelId: modelId, version: version, check: loadCheck, logger: logger)
            let now = Date()
            let record = InstallRecord(
                modelId: modelId, version: version, sha256: sha256, createdAt: createdAt, sequence: sequence,
                installedAt: now, bundleName: bundleURL.lastPathComponent,
                installedAtPrecise: now.timeIntervalSince1970)
            try DurableFile.write(
                try RepositoryAPI.makeEncoder().encode(record), to: staging.appendingPathComponent("install.json"))

            return try makeCurrent(staging, modelId: modelId, version: version, sha256: sha256)
        }
    }

    /// Moves a staged version folder into place and points the store at it (the caller holds the lock).
    private func makeCurrent(_ staging: URL, modelId: String, version: String, sha256: String) throws -> InstalledModel {
        let fileManager = FileManager.default
        let versions = versionsFolder(modelId)
        try createFolder(versions)
        let destination = versions.appendingPathComponent(version)
        let pointer = try readPointer(modelId)
        if fileManager.fileExists(atPath: destination.path) {
            let existing = try? installed(modelId, version: version)
            if existing?.sha256 == sha256 {
                // The same archive is installed already: just point at it.
            } else if pointer?.current == version {
                throw TensorIOError(
                    .conflict,
                    "version \(version) of \(modelId) is installed from a different archive (SHA-256 \(existing?.sha256 ?? "unknown")); versions are immutable")
            } else {
                try removeItem(destination)
                try DurableFile.rename(staging, to: destination)
            }
        } else {
            try DurableFile.rename(staging, to: destination)
        }
        DurableFile.syncFolder(versions)
        let previous = pointer.map { $0.current == version ? $0.previous : $0.current } ?? nil
        try DurableFile.write(
            try JSONEncoder().encode(CurrentPointer(current: version, previous: previous)), to: pointerURL(modelId))
        prune(modelId, keeping: [version, previous].compactMap { $0 })
        return try installed(modelId, version: version)
    }

    /// Makes `version` of `modelId` current when the server's archive for it is byte for byte the one
    /// `source` was installed from (the same SHA-256): its files are copied locally rather than
    /// downloaded again, and the store then points at `version`, as after ``install(archiveAt:modelId:version:expectedSHA256:createdAt:sequence:limits:)``.
    ///
    /// The copy is not loaded again: the same archive passed the checks when `source` was installed. Its
    /// signature is checked again when the store has ``trustedKeys``: it must name `version`, so a
    /// signature of one version is never accepted for another.
    ///
    /// - Parameters:
    ///   - version: The version to make current.
    ///   - source: An installed version of the same model with the same archive.
    ///   - createdAt: The upload date the server gave for `version`.
    ///   - sequence: The server's upload order for `version`.
    /// - Returns: The installed version, now current.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidIdentifier`, `TensorIOError.Code.conflict`
    ///   (`version` is installed from a different archive and current),
    ///   `TensorIOError.Code.untrustedRelease` or `TensorIOError.Code.io`.
    @discardableResult
    public func installCopy(
        version: String, of source: InstalledModel, createdAt: Date? = nil, sequence: Int64? = nil
    ) throws -> InstalledModel {
        let modelId = source.modelId
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        let fileManager = FileManager.default
        return try lock.withLock {
            let staging = temporaryRoot.appendingPathComponent(UUID().uuidString)
            defer { try? fileManager.removeItem(at: staging) }
            let sourceFolder = source.bundleURL.deletingLastPathComponent()
            do {
                try fileManager.copyItem(at: sourceFolder, to: staging)
            } catch {
                throw TensorIOError(.io, "cannot copy version \(source.version) of \(modelId): \(SystemErrorText.reason(of: error))")
            }
            try checkSignature(
                staging.appendingPathComponent(source.bundleURL.lastPathComponent), modelId: modelId, version: version)
            let now = Date()
            let record = InstallRecord(
                modelId: modelId, version: version, sha256: source.sha256, createdAt: createdAt, sequence: sequence,
                installedAt: now, bundleName: source.bundleURL.lastPathComponent,
                installedAtPrecise: now.timeIntervalSince1970)
            try DurableFile.write(
                try RepositoryAPI.makeEncoder().encode(record), to: staging.appendingPathComponent("install.json"))
            return try makeCurrent(staging, modelId: modelId, version: version, sha256: source.sha256)
        }
    }

    /// With ``trustedKeys``, refuses an unpacked bundle that ``ReleaseVerifier`` does not accept for
    /// `modelId` and `version`, before anything else is done with it.
    private func checkSignature(_ bundleURL: URL, modelId: String, version: String) throws {
        guard let trustedKeys else { return }
        do {
            try ReleaseVerifier.verify(bundleAt: bundleURL, modelId: modelId, version: version, trustedKeys: trustedKeys)
        } catch let error as TensorIOError {
            throw TensorIOError(
                error.code, "version \(version) of \(modelId) was not installed (the current version is kept): \(error.message)")
        }
    }

    /// Loads the unpacked bundle's model before it may become current.
    static func checkLoading(
        _ bundleURL: URL, modelId: String, version: String, check: LoadCheck, logger: Logger
    ) throws {
        do {
            try ModelBundle(at: bundleURL, logger: logger)
                .checkLoading(check, configuration: ModelConfiguration(logger: logger))
        } catch var error as TensorIOError {
            // One sentence that starts with what happened to the install; the layer or field goes inside it.
            let detail = error.location.map { "\($0): \(error.message)" } ?? error.message
            error.message = "version \(version) of \(modelId) does not load, so it was not installed: \(detail)"
            error.location = nil
            throw error
        }
    }

    /// Makes the previous version current again; the version that was current becomes the previous one,
    /// so a second rollback undoes the first.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The version now current.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.notFound`) when there is nothing to roll back to.
    @discardableResult
    public func rollback(_ modelId: String) throws -> InstalledModel {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        return try lock.withLock {
            guard let pointer = try readPointer(modelId) else {
                throw TensorIOError(.notFound, "model \(modelId) is not installed in \(directory.path)")
            }
            guard let previous = pointer.previous, let target = try? installed(modelId, version: previous) else {
                throw TensorIOError(.notFound, "model \(modelId) has no previous version to roll back to")
            }
            try ModelBundleValidator(bundleAt: target.bundleURL, registry: registry, logger: logger).validate()
            try DurableFile.write(
                try JSONEncoder().encode(CurrentPointer(current: previous, previous: pointer.current)),
                to: pointerURL(modelId))
            return target
        }
    }

    /// The bundle to use for `modelId`: the installed current version when it opens, else the previous
    /// one, else the bundle shipped with the app.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - fallback: A bundle folder shipped with the app.
    /// - Returns: The opened bundle and where it came from.
    /// - Throws: `TensorIOError` when nothing is installed and the fallback is missing or invalid.
    public func latestModel(id modelId: String, fallback: URL?) throws -> ResolvedModel {
        for candidate in [try? current(modelId), try? previous(modelId)] {
            if let candidate, let bundle = try? ModelBundle(at: candidate.bundleURL, registry: registry, logger: logger) {
                return ResolvedModel(bundle: bundle, source: .installed(candidate))
            }
        }
        guard let fallback else {
            throw TensorIOError(.notFound, "model \(modelId) is not installed in \(directory.path) and no fallback bundle was given")
        }
        return ResolvedModel(bundle: try ModelBundle(at: fallback, registry: registry, logger: logger), source: .fallback)
    }

    private func prune(_ modelId: String, keeping protected: [String]) {
        let all = (try? versions(modelId)) ?? []
        let removable = all.filter { !protected.contains($0.version) }
        let excess = all.count - keep
        guard excess > 0 else { return }
        for old in removable.prefix(excess) {
            try? removeItem(versionsFolder(modelId).appendingPathComponent(old.version))
        }
    }

    /// Removes a version folder by first renaming it into `.tmp`, so a half-deleted folder is never seen
    /// under `versions/`.
    private func removeItem(_ url: URL) throws {
        let trash = temporaryRoot.appendingPathComponent("trash-\(UUID().uuidString)")
        try DurableFile.rename(url, to: trash)
        try? FileManager.default.removeItem(at: trash)
    }

    private func createFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw TensorIOError(.io, "cannot create \(url.path): \(SystemErrorText.reason(of: error))")
        }
    }
}

/// The bundle ``ModelStore/latestModel(id:fallback:)`` chose, and where it came from.
public struct ResolvedModel: Sendable {
    /// Where a bundle came from.
    public enum Source: Sendable, Hashable {
        /// An installed version.
        case installed(InstalledModel)
        /// The bundle shipped with the app.
        case fallback
    }

    /// The opened bundle.
    public var bundle: ModelBundle
    /// Where it came from.
    public var source: Source

    /// Creates a resolved model.
    public init(bundle: ModelBundle, source: Source) {
        self.bundle = bundle
        self.source = source
    }
}
#endif
