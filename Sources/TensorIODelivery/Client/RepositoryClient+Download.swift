#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import TensorIO

extension RepositoryClient {
    /// Downloads a version into `store` and makes it current, reporting as it goes.
    ///
    /// With `version` `nil`, the version to get is the one ``checkForUpdate(modelId:installed:onlyIfNewer:)``
    /// names (the canonical version, or the installed one's `upgradeTo`); when there is none, the stream
    /// says ``DownloadEvent/upToDate(_:)``. The archive goes to a `.partial` file in the store, resumed
    /// after an interruption when the conditions allow, is checked against the server's size and SHA-256,
    /// unpacked, validated, and swapped in atomically. Cancelling the task iterating the stream stops the
    /// transfer and keeps the partial file for next time. When `store` has ``ModelStore/trustedKeys``, the
    /// unpacked version must be signed by one of them for `modelId` and its version, or the stream ends
    /// with ``DownloadEvent/failed(_:)`` (`TensorIOError.Code.untrustedRelease`) and the current version
    /// stays.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - version: The version to install; `nil` for the one the server recommends.
    ///   - store: The local store to install into.
    ///   - conditions: Size limit, "only if newer", resuming.
    /// - Returns: The events; the last one is ``DownloadEvent/installed(_:)``,
    ///   ``DownloadEvent/upToDate(_:)`` or ``DownloadEvent/failed(_:)``.
    public func download(
        modelId: String, version: String? = nil, into store: ModelStore,
        conditions: DownloadConditions = DownloadConditions()
    ) -> AsyncStream<DownloadEvent> {
        let (stream, continuation) = AsyncStream<DownloadEvent>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            do {
                try await self.performDownload(
                    modelId: modelId, version: version, store: store, conditions: conditions) { continuation.yield($0) }
            } catch let error as TensorIOError {
                continuation.yield(.failed(error))
            } catch {
                continuation.yield(.failed(TensorIOError(.io, "\(error)")))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// ``download(modelId:version:into:conditions:)`` without the events: installs and returns the
    /// installed version, or `nil` when already up to date.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - version: The version to install; `nil` for the one the server recommends.
    ///   - store: The local store to install into.
    ///   - conditions: Size limit, "only if newer", resuming.
    ///   - progress: Called with the bytes on disk and the total.
    /// - Returns: The newly installed version, or `nil` when nothing needed installing.
    /// - Throws: The `TensorIOError` of ``DownloadEvent/failed(_:)``.
    @discardableResult
    public func install(
        modelId: String, version: String? = nil, into store: ModelStore,
        conditions: DownloadConditions = DownloadConditions(),
        progress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> InstalledModel? {
        var result: InstalledModel?
        for await event in download(modelId: modelId, version: version, into: store, conditions: conditions) {
            switch event {
            case .progress(let received, let total): progress?(received, total)
            case .installed(let installed): result = installed
            case .failed(let error): throw error
            default: break
            }
        }
        try Task.checkCancellation()
        return result
    }

    /// The bundle to use now for `modelId`: first tries to install an update from the server (errors are
    /// kept, not thrown), then answers with the installed current version, or with `fallback`, the bundle
    /// shipped with the app, when none is installed or usable.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - store: The local store.
    ///   - fallback: A bundle folder shipped with the app.
    ///   - conditions: The download conditions for the update.
    /// - Returns: The bundle, where it came from, and the update's error if the server could not be used.
    /// - Throws: `TensorIOError` only when nothing is installed and the fallback is missing or invalid.
    public func latestModel(
        id modelId: String, store: ModelStore, fallback: URL?, conditions: DownloadConditions = DownloadConditions()
    ) async throws -> LatestModel {
        var updateError: TensorIOError?
        do {
            try await install(modelId: modelId, into: store, conditions: conditions)
        } catch let error as TensorIOError {
            updateError = error
            logger.info("checking \(modelId) for an update failed; using what is installed: \(error)")
        } catch {
            updateError = TensorIOError(.io, "\(error)")
            logger.info("checking \(modelId) for an update failed; using what is installed: \(error)")
        }
        let resolved = try store.latestModel(id: modelId, fallback: fallback)
        return LatestModel(bundle: resolved.bundle, source: resolved.source, updateError: updateError)
    }

    private func performDownload(
        modelId: String, version: String?, store: ModelStore, conditions: DownloadConditions,
        emit: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        if let version { try RepositoryIdentifier.validate(version, kind: "version") }
        let installed = try store.current(modelId)
        let details: VersionDetails
        if let version {
            details = try await self.version(version, of: modelId)
            if let installed, installed.version == details.version, installed.sha256 == details.sha256 {
                emit(.upToDate(installed))
                return
            }
        } else {
            guard let candidate = try await checkForUpdate(
                modelId: modelId, installed: installed, onlyIfNewer: conditions.onlyIfNewer)
            else {
                emit(.upToDate(installed))
                return
            }
            details = candidate
        }
        // The installed archive under another version number: point at that version, download nothing.
        if let installed, installed.sha256 == details.sha256, installed.version != details.version {
            emit(.installed(try store.installCopy(
                version: details.version, of: installed, createdAt: details.createdAt, sequence: details.sequence)))
            return
        }
        if let maximum = conditions.maximumBytes, details.size > maximum {
            throw TensorIOError(
                .tooLarge, "version \(details.version) of \(modelId) is \(details.size) bytes, more than the allowed \(maximum)")
        }
        guard FileDigest.isSHA256(details.sha256) else {
            throw TensorIOError(.server, "the server gave no valid SHA-256 for version \(details.version) of \(modelId)")
        }

        // One downloader per version and store: the lock's holder owns the partial file (see DownloadLock).
        let lock = try await DownloadLock.acquire(store.downloadLockURL(modelId: modelId, version: details.version))
        defer { lock.release() }
        if let now = try store.current(modelId), now.version == details.version, now.sha256 == details.sha256 {
            emit(.upToDate(now))  // installed by the downloader this one waited for
            return
        }

        let partial = store.partialURL(modelId: modelId, version: details.version)
        let etagURL = partial.appendingPathExtension("etag")
        let etag = RepositoryAPI.entityTag(sha256: details.sha256)
        try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
        var offset: Int64 = 0
        let previousTag = try? String(contentsOf: etagURL, encoding: .utf8)
        if conditions.allowsResume, previousTag == etag,
           let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber {
            offset = min(size.int64Value, details.size)
        } else {
            try? FileManager.default.removeItem(at: partial)
        }
        try Data(etag.utf8).write(to: etagURL, options: .atomic)

        emit(.started(details, resumingFrom: offset))
        let total = details.size
        let reporter = ProgressThrottle(total: total) { emit(.progress(received: $0, total: total)) }
        let request = makeRequest(["models", modelId, "versions", details.version, "archive"])
        var attempts = 0
        while true {
            attempts += 1
            if offset >= total, total > 0 { break }  // everything is on disk already
            let fetch = ResumableFetch(partialURL: partial, expectedSize: total, conditions: conditions) { reporter.report($0) }
            switch try await fetch.run(request, offset: offset, etag: etag) {
            case .complete:
                break
            case .rangeNotSatisfiable where attempts == 1:
                try? FileManager.default.removeItem(at: partial)
                offset = 0
                continue
            case .rangeNotSatisfiable:
                throw TensorIOError(.server, "the server refused the byte range of \(modelId) version \(details.version)")
            }
            break
        }
        reporter.finish()
        try Task.checkCancellation()

        let size = ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.int64Value ?? -1
        let sha256 = try FileDigest.sha256(of: partial)
        guard size == total, sha256 == details.sha256 else {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: etagURL)
            throw TensorIOError(
                .checksumMismatch,
                "the archive of \(modelId) version \(details.version) has \(size) bytes and SHA-256 \(sha256); the server announced \(total) bytes and \(details.sha256)")
        }
        emit(.verified(sha256: sha256))
        defer {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: etagURL)
        }
        let installedNow = try store.install(
            archiveAt: partial, modelId: modelId, version: details.version, expectedSHA256: details.sha256,
            createdAt: details.createdAt, sequence: details.sequence)
        emit(.installed(installedNow))
    }
}

/// What ``RepositoryClient/latestModel(id:store:fallback:conditions:)`` answers.
public struct LatestModel: Sendable {
    /// The opened bundle to use.
    public var bundle: ModelBundle
    /// Whether it is an installed version or the shipped fallback.
    public var source: ResolvedModel.Source
    /// Why the update from the server did not happen, if it failed (server unreachable, …).
    public var updateError: TensorIOError?
}

/// Reports progress at most every 1 % (and at the end), so a fast loopback transfer does not flood the
/// event stream.
final class ProgressThrottle: @unchecked Sendable {
    private let total: Int64
    private let step: Int64
    private let report: @Sendable (Int64) -> Void
    private let lock = NSLock()
    private var last: Int64 = -1

    init(total: Int64, report: @escaping @Sendable (Int64) -> Void) {
        self.total = total
        self.step = max(1, total / 100)
        self.report = report
    }

    func report(_ received: Int64) {
        lock.lock()
        let due = last < 0 || received - last >= step || received == total
        if due { last = received }
        lock.unlock()
        if due { report(received) }
    }

    func finish() {
        lock.lock()
        let due = last != total
        last = total
        lock.unlock()
        if due { report(total) }
    }
}
#endif
