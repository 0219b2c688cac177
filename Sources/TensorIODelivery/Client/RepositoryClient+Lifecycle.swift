#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO

extension RepositoryClient {
    /// Deletes a version from the server: `DELETE /v1/models/{id}/versions/{v}` (write token).
    ///
    /// The server refuses (HTTP 409, `version-in-use`) while the version is the canonical one or another
    /// version's `upgradeTo` names it, unless `force` is given: then the model is left with no canonical
    /// version, and the `upgradeTo` that named it are cleared. Devices that installed the version keep it.
    ///
    /// - Parameters:
    ///   - version: The version to delete.
    ///   - modelId: A model identifier.
    ///   - force: Delete even while the version is in use.
    /// - Returns: What was deleted and the model as it now is.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.conflict` (in use), `TensorIOError.Code.notFound`,
    ///   `TensorIOError.Code.unauthorized`, `TensorIOError.Code.invalidIdentifier`, …
    @discardableResult
    public func deleteVersion(_ version: String, of modelId: String, force: Bool = false) async throws -> VersionDeletion {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        try RepositoryIdentifier.validate(version, kind: "version")
        let query = force ? [URLQueryItem(name: "force", value: "true")] : []
        let request = makeRequest(["models", modelId, "versions", version], query: query, method: "DELETE")
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }

    /// Asks the server to remove the files under its root that no index row names (archives, unfinished
    /// uploads) and that are older than `olderThan` seconds: `POST /v1/admin/collect-garbage` (write token).
    ///
    /// - Parameter olderThan: The grace period in seconds; `nil` for the server's default (one hour).
    /// - Returns: What the server removed and kept.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.unauthorized`, …).
    public func collectGarbage(olderThan: Int? = nil) async throws -> GarbageReport {
        let query = olderThan.map { [URLQueryItem(name: "olderThan", value: String($0))] } ?? []
        let request = makeRequest(["admin", "collect-garbage"], query: query, method: "POST")
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }
}
#endif
