#if Server  // built with the Server trait only (Package.swift)
import Crypto
import Foundation
import Hummingbird
import Logging
import TensorIO
import TensorIODelivery

/// The `/v1` routes of the repository API (see `docs/repository-api.md`).
struct RepositoryRoutes: Sendable {
    let storage: RepositoryStorage
    let configuration: RepositoryServerConfiguration

    func register(on router: Router<BasicRequestContext>) {
        let v1 = router.group("v1")
        v1.get("health") { _, _ in try await self.health() }
        v1.get("models") { request, _ in try await self.listModels(request) }
        v1.get("models/:id") { request, context in try await self.model(request, context) }
        v1.get("models/:id/versions") { request, context in try await self.versions(request, context) }
        v1.get("models/:id/versions/:version") { request, context in try await self.version(request, context) }
        v1.get("models/:id/versions/:version/archive") { request, context in try await self.archive(request, context) }
        v1.post("models/:id/versions/:version") { request, context in try await self.upload(request, context) }
        v1.put("models/:id/canonical") { request, context in try await self.setCanonical(request, context) }
        v1.patch("models/:id/versions/:version") { request, context in try await self.patchVersion(request, context) }
        // Lifecycle (issue 13): deleting versions, collecting garbage.
        v1.delete("models/:id/versions/:version") { request, context in try await self.deleteVersion(request, context) }
        v1.post("admin/collect-garbage") { request, _ in try await self.collectGarbage(request) }
        registerRolloutRoutes(on: v1)
    }

    // MARK: Reads

    private func health() async throws -> Response {
        let counts = try await storage.index.counts()
        let problems = storage.recovery.problems
        return try json(HealthResponse(
            status: problems.isEmpty ? "SERVING" : "DEGRADED", models: counts.models, versions: counts.versions,
            problems: problems))
    }

    private func listModels(_ request: Request) async throws -> Response {
        try authorize(request, write: false)
        let parameters = request.uri.queryParameters
        var limit = 100
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw APIError.badRequest("limit must be a whole number from 1 to 1000, not \"\(text)\"")
            }
            limit = value
        }
        let after = parameters.get("after")
        if let after, !RepositoryIdentifier.isValid(after) {
            throw APIError(status: .badRequest, code: "invalid-identifier", message: "after: " + RepositoryIdentifier.describeInvalid(after, kind: "model"))
        }
        return try json(try await storage.index.models(limit: limit, after: after))
    }

    private func model(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await modelDocument(request, context) { id in try await storage.index.model(id) }
    }

    private func versions(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await modelDocument(request, context) { id in try await storage.index.versions(of: id) }
    }

    private func version(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: false)
        let (id, version) = (try modelId(context), try versionId(context))
        return try json(try await existingVersion(version, of: id))
    }

    private func archive(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: false)
        let (id, version) = (try modelId(context), try versionId(context))
        let details = try await existingVersion(version, of: id)
        do {
            return try ArchiveResponder(
                url: storage.archiveURL(modelId: id, version: version), details: details,
                bytesPerSecond: configuration.downloadBytesPerSecond
            ).respond(to: request)
        } catch let error as APIError where error.code == "io" {
            // Deleted between reading its row and opening its file: the version is gone, not broken.
            _ = try await existingVersion(version, of: id)
            throw error
        }
    }

    // MARK: Writes

    private func upload(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: true)
        let (id, version) = (try modelId(context), try versionId(context))
        let parameters = request.uri.queryParameters
        var canonical = true
        if let text = parameters.get("canonical") {
            guard let flag = Bool(text) else { throw APIError.badRequest("canonical must be true or false, not \"\(text)\"") }
            canonical = flag
        }
        let notes = parameters.get("notes")
        if let notes, notes.utf8.count > 4096 { throw APIError.badRequest("notes are longer than 4096 bytes") }
        let upgradeTo = parameters.get("upgradeTo").flatMap { $0.isEmpty ? nil : $0 }
        if let upgradeTo, !RepositoryIdentifier.isValid(upgradeTo) {
            throw APIError(status: .badRequest, code: "invalid-identifier", message: "upgradeTo: " + RepositoryIdentifier.describeInvalid(upgradeTo, kind: "version"))
        }
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > configuration.maximumUploadBytes {
            throw APIError(status: .contentTooLarge, code: "too-large", message: "the upload (\(length) bytes) is larger than the server's limit of \(configuration.maximumUploadBytes) bytes")
        }
        if try await storage.index.version(version, of: id) != nil {
            throw conflict(id, version)
        }

        let uploadURL: URL
        do {
            (uploadURL, _) = try await storage.receive(
                request.body.map { Array($0.readableBytesView) }, maximumBytes: configuration.maximumUploadBytes)
        } catch let error as TensorIOError {
            throw APIError.from(error)
        }
        defer { storage.finishUpload(uploadURL) }
        let limits = BundleArchive.Limits(maximumUnpackedBytes: configuration.maximumUnpackedBytes)
        let loadCheck = configuration.loadCheck
        let stored: VersionDetails?
        do {
            // Unpacking and the load check block for up to their deadlines: a thread of their own keeps
            // them off Swift's small cooperative pool, which every other request needs.
            let checked = try await BlockingWork.run {
                try self.storage.validate(uploadAt: uploadURL, modelId: id, version: version, limits: limits, loadCheck: loadCheck)
            }
            stored = try await storage.store(
                checked, modelId: id, version: version, canonical: canonical, notes: notes, upgradeTo: upgradeTo)
        } catch let error as TensorIOError {
            throw APIError.from(error)
        }
        guard let stored else { throw conflict(id, version) }
        return try json(stored, status: .created)
    }

    private func setCanonical(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: true)
        let id = try modelId(context)
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let canonical = try? JSONDecoder().decode(CanonicalRequest.self, from: Data(body.readableBytesView)) else {
            throw APIError.badRequest("the body must be {\"version\": \"…\"}")
        }
        guard RepositoryIdentifier.isValid(canonical.version) else {
            throw APIError(status: .badRequest, code: "invalid-identifier", message: RepositoryIdentifier.describeInvalid(canonical.version, kind: "version"))
        }
        guard let model = try await storage.index.setCanonical(canonical.version, of: id) else {
            throw APIError.notFound("no version \(canonical.version) of model \(id)")
        }
        return try json(model)
    }

    private func patchVersion(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: true)
        let (id, version) = (try modelId(context), try versionId(context))
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let patch = try? JSONDecoder().decode(VersionPatch.self, from: Data(body.readableBytesView)) else {
            throw APIError.badRequest("the body must be {\"upgradeTo\": \"…\"} or {\"upgradeTo\": null}")
        }
        let upgradeTo = patch.upgradeTo.flatMap { $0.isEmpty ? nil : $0 }
        if let upgradeTo, !RepositoryIdentifier.isValid(upgradeTo) {
            throw APIError(status: .badRequest, code: "invalid-identifier", message: "upgradeTo: " + RepositoryIdentifier.describeInvalid(upgradeTo, kind: "version"))
        }
        guard let details = try await storage.index.setUpgradeTo(upgradeTo, version: version, of: id) else {
            throw APIError.notFound("no version \(version) of model \(id)")
        }
        return try json(details)
    }

    // MARK: Lifecycle

    private func deleteVersion(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: true)
        let (id, version) = (try modelId(context), try versionId(context))
        let force = try flag(request, "force")
        let outcome: RepositoryIndex.DeletionOutcome
        do {
            outcome = try await storage.deleteVersion(version, of: id, force: force)
        } catch let error as TensorIOError {
            throw APIError.from(error)
        }
        switch outcome {
        case .notFound:
            throw APIError.notFound("no version \(version) of model \(id)")
        case .inUse(let reasons):
            throw APIError(
                status: .conflict, code: "version-in-use",
                message: "version \(version) of model \(id) is in use: \(reasons.map(\.description).joined(separator: "; ")); move those first, or delete it anyway with force=true")
        case .deleted(let deletion):
            return try json(deletion)
        }
    }

    private func collectGarbage(_ request: Request) async throws -> Response {
        try authorize(request, write: true)
        var olderThan = RepositoryStorage.defaultGracePeriod
        if let text = request.uri.queryParameters.get("olderThan") {
            // Up to ten years: any grace period an operator means, and no overflow when subtracted from now.
            guard let seconds = Int(text), (0...315_360_000).contains(seconds) else {
                throw APIError.badRequest("olderThan must be a whole number of seconds from 0 to 315360000, not \"\(text)\"")
            }
            olderThan = TimeInterval(seconds)
        }
        let report: GarbageReport
        do {
            report = try await storage.collectGarbage(olderThan: olderThan)
        } catch let error as TensorIOError {
            throw APIError.from(error)
        }
        return try json(report)
    }

    /// A `true`/`false` query parameter, `false` when absent.
    private func flag(_ request: Request, _ name: String) throws -> Bool {
        guard let text = request.uri.queryParameters.get(name) else { return false }
        guard let value = Bool(text) else { throw APIError.badRequest("\(name) must be true or false, not \"\(text)\"") }
        return value
    }

    // MARK: Helpers

    /// Answers a read of the document `lookUp` finds for the model the path names; 404 when there is no
    /// such model (`lookUp` returns `nil`).
    func modelDocument<Document: Encodable>(
        _ request: Request, _ context: BasicRequestContext, _ lookUp: (String) async throws -> Document?
    ) async throws -> Response {
        try authorize(request, write: false)
        let id = try modelId(context)
        guard let document = try await lookUp(id) else { throw APIError.notFound("no model \(id)") }
        return try json(document)
    }

    /// The details of a version; 404 when the model or the version does not exist.
    private func existingVersion(_ version: String, of id: String) async throws -> VersionDetails {
        guard let details = try await storage.index.version(version, of: id) else {
            throw APIError.notFound("no version \(version) of model \(id)")
        }
        return details
    }

    private func conflict(_ id: String, _ version: String) -> APIError {
        APIError(status: .conflict, code: "conflict", message: "version \(version) of model \(id) exists already; versions are immutable, upload a new version")
    }

    func modelId(_ context: BasicRequestContext) throws -> String {
        try identifier(context, "id", kind: "model")
    }

    private func versionId(_ context: BasicRequestContext) throws -> String {
        try identifier(context, "version", kind: "version")
    }

    private func identifier(_ context: BasicRequestContext, _ name: String, kind: String) throws -> String {
        let value = context.parameters.get(name) ?? ""
        guard RepositoryIdentifier.isValid(value) else {
            throw APIError(status: .badRequest, code: "invalid-identifier", message: RepositoryIdentifier.describeInvalid(value, kind: kind))
        }
        return value
    }

    /// Checks the bearer token: writes need the write token; reads need the read or the write token when
    /// the server protects reads.
    func authorize(_ request: Request, write: Bool) throws {
        let accepted: [String]
        if write {
            guard let token = configuration.writeToken else {
                throw APIError(status: .forbidden, code: "read-only", message: "this server accepts no uploads (it was started without --token-file)")
            }
            accepted = [token]
        } else {
            guard let readToken = configuration.readToken else { return }
            accepted = [readToken] + (configuration.writeToken.map { [$0] } ?? [])
        }
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("this request needs a bearer token (Authorization: Bearer …)")
        }
        guard header.hasPrefix("Bearer "), accepted.contains(where: { Self.constantTimeEqual(String(header.dropFirst(7)), $0) }) else {
            throw APIError.unauthorized("the bearer token is wrong")
        }
    }

    /// Compares the SHA-256 of both strings without early exit, so timing says nothing about the token.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(SHA256.hash(data: Data(a.utf8)))
        let right = Array(SHA256.hash(data: Data(b.utf8)))
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try RepositoryAPI.makeEncoder().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
#endif
