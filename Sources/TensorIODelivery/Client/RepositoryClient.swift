#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
public import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO

/// A client of a model repository server (`tensorio serve`), on `URLSession`.
///
/// ```swift
/// let client = RepositoryClient(baseURL: URL(string: "http://models.example.com:8080")!)
/// let page = try await client.models()
/// let store = try ModelStore(directory: appSupport.appendingPathComponent("models"))
/// for await event in client.download(modelId: "number", into: store) { print(event) }
/// ```
public struct RepositoryClient: Sendable {
    /// The server's address, without `/v1`.
    public let baseURL: URL
    /// The bearer token sent with every request, if any.
    public var token: String?
    /// How long a request may wait for data before it fails.
    public var timeout: TimeInterval
    /// Where the client notes its requests (at `debug`) and a failed update it fell back from (at `info`).
    public var logger: Logger
    /// The device's attributes for the server's rollout rules. When set, every update check
    /// (``checkForUpdate(modelId:installed:onlyIfNewer:)``, and ``download(modelId:version:into:conditions:)``,
    /// ``install(modelId:version:into:conditions:progress:)`` and ``latestModel(id:store:fallback:conditions:)``
    /// without a version) asks the server which version this device gets
    /// (``assignment(modelId:attributes:installedVersion:)``); when `nil`, the canonical version or the
    /// installed version's `upgradeTo`.
    public var deviceAttributes: DeviceAttributes?

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The server, such as `http://127.0.0.1:8080`.
    ///   - token: A bearer token: needed for uploads, and for reads on servers that protect them.
    ///   - timeout: Seconds a request may wait for data.
    ///   - logger: Where the client notes what it does; swift-log's task-local `Logger.current` by default.
    public init(baseURL: URL, token: String? = nil, timeout: TimeInterval = 60, logger: Logger = Logger.current) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
        self.logger = logger
    }

    // MARK: Reads

    /// `GET /v1/health`.
    ///
    /// - Returns: The server's status and counts.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.unreachable` when the server does not answer).
    public func health() async throws -> HealthResponse {
        try await getJSON(["health"])
    }

    /// One page of models, in identifier order.
    ///
    /// - Parameters:
    ///   - limit: The most models on the page (the server caps it at 1000).
    ///   - after: The ``ModelPage/next`` of the previous page.
    /// - Returns: The page.
    /// - Throws: `TensorIOError`.
    public func models(limit: Int = 100, after: String? = nil) async throws -> ModelPage {
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if let after { query.append(URLQueryItem(name: "after", value: after)) }
        return try await getJSON(["models"], query: query)
    }

    /// Every model, following the pages.
    ///
    /// - Returns: All models, in identifier order.
    /// - Throws: `TensorIOError`.
    public func allModels() async throws -> [ModelSummary] {
        var all: [ModelSummary] = []
        var after: String?
        repeat {
            let page = try await models(limit: 500, after: after)
            all += page.models
            after = page.next
        } while after != nil
        return all
    }

    /// `GET /v1/models/{id}`.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The model with its canonical version.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.notFound` for an unknown model).
    public func model(_ modelId: String) async throws -> ModelSummary {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        return try await getJSON(["models", modelId])
    }

    /// `GET /v1/models/{id}/versions`.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: Every version, oldest first.
    /// - Throws: `TensorIOError`.
    public func versions(of modelId: String) async throws -> VersionList {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        return try await getJSON(["models", modelId, "versions"])
    }

    /// `GET /v1/models/{id}/versions/{v}`.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - version: A version identifier.
    /// - Returns: The version's details: SHA-256, size, dates, notes, `upgradeTo`.
    /// - Throws: `TensorIOError`.
    public func version(_ version: String, of modelId: String) async throws -> VersionDetails {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        return try await getJSON(["models", modelId, "versions", version])
    }

    /// The version a device with `installedVersion` should move to, or `nil` when it is up to date; asks
    /// the server's rollout rules with ``deviceAttributes`` when they are set
    /// (``checkForUpdate(modelId:installed:onlyIfNewer:attributes:)``).
    ///
    /// Without attributes, the installed version's `upgradeTo` wins when it is set; otherwise the
    /// canonical version, when it differs from the installed one. With `onlyIfNewer`, a candidate uploaded
    /// before the installed version is not an update (so a server-side move of the canonical pointer back
    /// is not followed). A version whose archive is the installed one's (the same SHA-256) is still an
    /// update: moving to it downloads nothing.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - installed: The installed version, if any.
    ///   - onlyIfNewer: Whether the candidate must be more recent than the installed version.
    /// - Returns: The version to install, or `nil`.
    /// - Throws: `TensorIOError`.
    public func checkForUpdate(
        modelId: String, installed: InstalledModel?, onlyIfNewer: Bool = true
    ) async throws -> VersionDetails? {
        try await checkForUpdate(modelId: modelId, installed: installed, onlyIfNewer: onlyIfNewer, attributes: deviceAttributes)
    }

    /// The recommendation without attributes: the installed version's `upgradeTo`, else the canonical one.
    func recommendedUpdate(modelId: String, installed: InstalledModel?, onlyIfNewer: Bool) async throws -> VersionDetails? {
        let summary = try await model(modelId)
        var target = summary.canonicalVersion
        var installedDetails: VersionDetails?
        if let installed {
            do {
                installedDetails = try await version(installed.version, of: modelId)
            } catch let error as TensorIOError where error.code == .notFound {
                installedDetails = nil  // removed from the server: follow the canonical version
            }
            if let upgrade = installedDetails?.upgradeTo, !upgrade.isEmpty { target = upgrade }
        }
        guard let target, target != installed?.version else { return nil }
        let candidate = try await version(target, of: modelId)
        // A candidate with the installed archive's bytes is still returned: the store then points at its
        // version without downloading anything (see performDownload).
        if onlyIfNewer, let installedSequence = installedDetails?.sequence ?? installed?.sequence,
           candidate.sequence <= installedSequence, installedDetails?.upgradeTo != target {
            return nil
        }
        return candidate
    }

    // MARK: Writes

    /// Uploads a bundle archive as a new version: `POST /v1/models/{id}/versions/{v}`.
    ///
    /// - Parameters:
    ///   - archiveURL: A zip made by ``BundleArchive/create(fromBundleAt:to:)``.
    ///   - modelId: The model's identifier.
    ///   - version: The new version's identifier.
    ///   - canonical: Whether the new version becomes canonical (the first version always does).
    ///   - notes: Free text stored with the version.
    ///   - upgradeTo: Sets the new version's `upgradeTo`.
    ///   - progress: Told the archive bytes sent so far and the archive's size, as the upload goes (the
    ///     server then checks the upload before it answers).
    /// - Returns: The stored version, as the server acknowledged it.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unauthorized`, `TensorIOError.Code.conflict`,
    ///   `TensorIOError.Code.tooLarge`, `TensorIOError.Code.invalidBundle`,
    ///   `TensorIOError.Code.unsafeArchive`, …
    public func upload(
        archiveAt archiveURL: URL, modelId: String, version: String, canonical: Bool = true,
        notes: String? = nil, upgradeTo: String? = nil, progress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)? = nil
    ) async throws -> VersionDetails {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        var query = [URLQueryItem(name: "canonical", value: canonical ? "true" : "false")]
        if let notes { query.append(URLQueryItem(name: "notes", value: notes)) }
        if let upgradeTo { query.append(URLQueryItem(name: "upgradeTo", value: upgradeTo)) }
        var request = makeRequest(["models", modelId, "versions", version], query: query, method: "POST")
        request.setValue("application/zip", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await HTTPTransport.upload(request, fromFile: archiveURL, progress: progress)
        return try decode(data, response, request: request)
    }

    /// Moves the canonical pointer: `PUT /v1/models/{id}/canonical`.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - version: The version to make canonical.
    /// - Returns: The model as it now is.
    /// - Throws: `TensorIOError`.
    public func setCanonical(modelId: String, version: String) async throws -> ModelSummary {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        var request = makeRequest(["models", modelId, "canonical"], method: "PUT")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(CanonicalRequest(version: version))
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }

    /// Sets or clears a version's `upgradeTo`: `PATCH /v1/models/{id}/versions/{v}`.
    ///
    /// - Parameters:
    ///   - upgradeTo: The version that devices on `version` should move to; `nil` clears it.
    ///   - version: The version to change.
    ///   - modelId: A model identifier.
    /// - Returns: The version as it now is.
    /// - Throws: `TensorIOError`.
    public func setUpgradeTo(_ upgradeTo: String?, version: String, of modelId: String) async throws -> VersionDetails {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        if let upgradeTo { try RepositoryIdentifier.validate(upgradeTo, kind: "version") }
        var request = makeRequest(["models", modelId, "versions", version], method: "PATCH")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(VersionPatch(upgradeTo: upgradeTo))
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }

    // MARK: Plumbing

    /// A request for `/v1/<components>`, with the token.
    func makeRequest(_ components: [String], query: [URLQueryItem] = [], method: String = "GET") -> URLRequest {
        var url = baseURL.appendingPathComponent("v1")
        for component in components { url.appendPathComponent(component) }
        if !query.isEmpty, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            parts.queryItems = query
            url = parts.url ?? url
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        logger.debug("\(method) \(url.path)")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    private func getJSON<T: Decodable>(_ components: [String], query: [URLQueryItem] = []) async throws -> T {
        let request = makeRequest(components, query: query)
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }

    func decode<T: Decodable>(_ data: Data, _ response: HTTPURLResponse, request: URLRequest) throws -> T {
        guard (200..<300).contains(response.statusCode) else {
            throw HTTPTransport.error(status: response.statusCode, body: data, request: request)
        }
        do {
            return try RepositoryAPI.makeDecoder().decode(T.self, from: data)
        } catch {
            throw TensorIOError(.server, "\(request.httpMethod ?? "GET") \(request.url?.path ?? ""): the server's answer is not the expected JSON: \(error)")
        }
    }
}
#endif
