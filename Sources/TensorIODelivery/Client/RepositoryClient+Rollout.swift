#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO

extension RepositoryClient {
    // MARK: Assignment

    /// The version the server's rollout rules give this device: `POST /v1/models/{id}/assignment`.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - attributes: The device's attributes.
    ///   - installedVersion: The version the device has installed, if any: the fallback is its `upgradeTo`
    ///     when set, and a paused rollout keeps a device on the rule's version only when it has it.
    /// - Returns: The version, what decided it, and whether it must be followed even when older.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.notFound` for an unknown model, `TensorIOError.Code.server`
    ///   for attributes the server refuses, naming the field).
    public func assignment(modelId: String, attributes: DeviceAttributes, installedVersion: String? = nil) async throws -> Assignment {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        return try await sendJSON(
            ["models", modelId, "assignment"], method: "POST",
            body: AssignmentRequest(attributes: attributes, installedVersion: installedVersion))
    }

    /// The version a device should move to, or `nil` when it is up to date.
    ///
    /// With `attributes`, the server's rollout rules decide (``assignment(modelId:attributes:installedVersion:)``):
    /// the answer is the version for this device. For a model with a rollout the answer is followed whether
    /// it is newer or older than the installed version — a rollback, a ramp down or a paused rollout moves
    /// devices back, and must — so `onlyIfNewer` does not apply; for a model that never had a rollout the
    /// answer is the installed version's `upgradeTo` or the canonical version, and `onlyIfNewer` applies to
    /// the canonical version as it does without attributes. Without attributes, as
    /// ``checkForUpdate(modelId:installed:onlyIfNewer:)`` without ``deviceAttributes``.
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - installed: The installed version, if any.
    ///   - onlyIfNewer: Whether a canonical version must be more recent than the installed one.
    ///   - attributes: The device's attributes; `nil` for the canonical version or `upgradeTo`.
    /// - Returns: The version to install, or `nil`.
    /// - Throws: `TensorIOError`.
    public func checkForUpdate(
        modelId: String, installed: InstalledModel?, onlyIfNewer: Bool = true, attributes: DeviceAttributes?
    ) async throws -> VersionDetails? {
        guard let attributes else {
            return try await recommendedUpdate(modelId: modelId, installed: installed, onlyIfNewer: onlyIfNewer)
        }
        let answer = try await assignment(modelId: modelId, attributes: attributes, installedVersion: installed?.version)
        let candidate = answer.version
        guard candidate.modelId == modelId, RepositoryIdentifier.isValid(candidate.version) else {
            throw TensorIOError(.server, "the server assigned \(modelId) a version of another model or with an invalid id")
        }
        guard candidate.version != installed?.version else { return nil }
        if onlyIfNewer, !answer.authoritative, answer.decidedBy != Assignment.Reason.upgradeTo,
           let installedSequence = installed?.sequence, candidate.sequence <= installedSequence {
            return nil
        }
        return candidate
    }

    // MARK: Rollout rules

    /// A model's rollout: `GET /v1/models/{id}/rollout`.
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The rules, the paused flag and the revision (0 and no rules when it never had a rollout).
    /// - Throws: `TensorIOError`.
    public func rollout(of modelId: String) async throws -> Rollout {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        let request = makeRequest(["models", modelId, "rollout"])
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }

    /// Replaces a model's rules: `PUT /v1/models/{id}/rollout` (write token).
    ///
    /// - Parameters:
    ///   - update: The rules, the paused flag and optionally the revision the change is based on.
    ///   - modelId: A model identifier.
    /// - Returns: The rollout as it now is.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.invalidRollout` naming the JSON path of a bad value,
    ///   `TensorIOError.Code.conflict` when the revision differs, `TensorIOError.Code.unauthorized`.
    public func setRollout(_ update: RolloutUpdate, of modelId: String) async throws -> Rollout {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        return try await sendJSON(["models", modelId, "rollout"], method: "PUT", body: update)
    }

    /// Sets one rule's percentage: `POST /v1/models/{id}/rollout/ramp` (write token).
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - percent: 0 to 100, in steps of 0.01.
    ///   - rule: The rule's name; `nil` when the rollout has exactly one rule.
    /// - Returns: The rollout as it now is.
    /// - Throws: `TensorIOError`.
    public func rampRollout(of modelId: String, to percent: Double, rule: String? = nil) async throws -> Rollout {
        try await rolloutVerb("ramp", modelId, RolloutAction(percent: percent, rule: rule))
    }

    /// Pauses a rollout: devices keep a rule's version only when they have it; the others get the
    /// fallback. `POST /v1/models/{id}/rollout/pause` (write token).
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The rollout as it now is.
    /// - Throws: `TensorIOError`.
    public func pauseRollout(of modelId: String) async throws -> Rollout {
        try await rolloutVerb("pause", modelId, RolloutAction())
    }

    /// Resumes a paused rollout: `POST /v1/models/{id}/rollout/resume` (write token).
    ///
    /// - Parameter modelId: A model identifier.
    /// - Returns: The rollout as it now is.
    /// - Throws: `TensorIOError`.
    public func resumeRollout(of modelId: String) async throws -> Rollout {
        try await rolloutVerb("resume", modelId, RolloutAction())
    }

    /// Rolls a rollout back: removes every rule (so every device gets the fallback) and, with `version`,
    /// makes that version canonical, in one change. `POST /v1/models/{id}/rollout/rollback` (write token).
    ///
    /// - Parameters:
    ///   - modelId: A model identifier.
    ///   - version: The version to make canonical; `nil` keeps the canonical version.
    /// - Returns: The rollout as it now is.
    /// - Throws: `TensorIOError`.
    public func rollBackRollout(of modelId: String, to version: String? = nil) async throws -> Rollout {
        if let version { try RepositoryIdentifier.validate(version, kind: "version") }
        return try await rolloutVerb("rollback", modelId, RolloutAction(version: version))
    }

    private func rolloutVerb(_ verb: String, _ modelId: String, _ action: RolloutAction) async throws -> Rollout {
        try RepositoryIdentifier.validate(modelId, kind: "model")
        return try await sendJSON(["models", modelId, "rollout", verb], method: "POST", body: action)
    }

    /// Sends `body` as JSON and decodes the answer.
    private func sendJSON<Body: Encodable, Answer: Decodable>(_ components: [String], method: String, body: Body) async throws -> Answer {
        var request = makeRequest(components, method: method)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try RepositoryAPI.makeEncoder().encode(body)
        let (data, response) = try await HTTPTransport.data(request)
        return try decode(data, response, request: request)
    }
}
#endif
