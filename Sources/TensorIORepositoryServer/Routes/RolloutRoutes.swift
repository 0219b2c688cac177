#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird
import NIOCore
import TensorIODelivery

/// The rollout routes (docs/repository-api.md, "Rollouts and targeting"): the rules of a model, the verbs
/// that ramp, pause, resume and roll back, and a device's assignment. Every answer is read from the index
/// at the time of the request, so a change takes effect on the next request to any instance.
extension RepositoryRoutes {
    func registerRolloutRoutes(on v1: RouterGroup<BasicRequestContext>) {
        v1.get("models/:id/rollout") { request, context in try await self.showRollout(request, context) }
        v1.put("models/:id/rollout") { request, context in try await self.putRollout(request, context) }
        for verb in ["ramp", "pause", "resume", "rollback"] {
            v1.post("models/:id/rollout/\(verb)") { request, context in try await self.rolloutVerb(verb, request, context) }
        }
        v1.post("models/:id/assignment") { request, context in try await self.assignment(request, context) }
    }

    private func showRollout(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await modelDocument(request, context) { id in try await storage.index.rollout(of: id) }
    }

    private func putRollout(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: true)
        let id = try modelId(context)
        let update = try await decodeBody(RolloutUpdate.self, request, limit: RolloutLimits.maximumRulesBodyBytes)
        if let bodyModel = update.modelId, bodyModel != id {
            throw Self.invalid(RolloutInvalid("modelId", "is \"\(bodyModel.prefix(80))\", but the path names model \(id)"))
        }
        let paused = update.paused ?? false
        do {
            _ = try RolloutPolicy(modelId: id, rules: update.rules, paused: paused)
        } catch {
            throw Self.invalid(error)
        }
        return try await changeRollout(id, expectedRevision: update.revision) { rollout in
            rollout.rules = update.rules
            rollout.paused = paused
        }
    }

    private func rolloutVerb(_ verb: String, _ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: true)
        let id = try modelId(context)
        let action = try await decodeBody(RolloutAction.self, request, limit: RolloutLimits.maximumRequestBodyBytes, emptyIsObject: true)
        // Each verb takes its own fields; another verb's field is a mistake worth naming.
        let allowed: Set<String> = switch verb {
        case "ramp": ["percent", "rule"]
        case "rollback": ["version"]
        default: []
        }
        for (name, given) in [("percent", action.percent != nil), ("rule", action.rule != nil), ("version", action.version != nil)]
        where given && !allowed.contains(name) {
            throw Self.invalid(RolloutInvalid(name, "is not a field of \(verb)"))
        }
        switch verb {
        case "ramp":
            guard let percent = action.percent else { throw Self.invalid(RolloutInvalid("percent", "is required")) }
            let basisPoints: Int
            do {
                basisPoints = try CompiledRule.basisPoints(percent, path: "percent")
            } catch {
                throw Self.invalid(error)
            }
            return try await changeRollout(id, expectedRevision: action.revision) { rollout in
                let rules = rollout.rules
                let index: Int
                if let name = action.rule {
                    guard let found = rules.firstIndex(where: { $0.name == name }) else {
                        throw Self.invalid(RolloutInvalid("rule", "model \(id) has no rule \"\(name.prefix(80))\" (its rules: \(Self.names(rules)))"))
                    }
                    index = found
                } else {
                    guard rules.count == 1 else {
                        throw Self.invalid(RolloutInvalid("rule", rules.isEmpty
                            ? "model \(id) has no rules to ramp: set them first (PUT …/rollout)"
                            : "is required: model \(id) has \(rules.count) rules (\(Self.names(rules)))"))
                    }
                    index = 0
                }
                rollout.rules[index].percent = Double(basisPoints) / 100
            }
        case "pause", "resume":
            return try await changeRollout(id, expectedRevision: action.revision) { rollout in
                rollout.paused = verb == "pause"
            }
        default:  // rollback
            if let version = action.version, !RepositoryIdentifier.isValid(version) {
                throw APIError(status: .badRequest, code: "invalid-identifier", message: "version: " + RepositoryIdentifier.describeInvalid(version, kind: "version"))
            }
            return try await changeRollout(id, expectedRevision: action.revision, moveCanonicalTo: action.version) { rollout in
                rollout.rules = []
                rollout.paused = false
            }
        }
    }

    private func assignment(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorize(request, write: false)
        let id = try modelId(context)
        let body = try await decodeBody(AssignmentRequest.self, request, limit: RolloutLimits.maximumRequestBodyBytes)
        do {
            try DeviceAttributesValidation.validate(body)
        } catch {
            throw Self.invalid(error, code: "bad-request")
        }
        guard let inputs = try await storage.index.assignmentInputs(of: id, installedVersion: body.installedVersion) else {
            throw APIError.notFound("no model \(id)")
        }
        var decision = RolloutDecision()
        if !inputs.rollout.rules.isEmpty {
            do {
                decision = try RolloutPolicyCache.shared.policy(for: inputs.rollout)
                    .evaluate(body.attributes, installedVersion: body.installedVersion)
            } catch {
                // Rules are checked before they are written; rules that no longer pass (a newer server's,
                // or a lower limit) are not applied rather than failing every device.
                decision = RolloutDecision()
            }
        }
        let assignment: Assignment
        if let version = decision.version, let details = try await storage.index.version(version, of: id) {
            assignment = Assignment(
                modelId: id, version: details, decidedBy: decision.decidedBy ?? Assignment.Reason.rule, rule: decision.rule,
                arm: decision.arm, bucket: decision.bucket, revision: inputs.rollout.revision, authoritative: true)
        } else {
            // The fallback: no rule took the device, a paused rule held it back, or the rule's version was
            // deleted (with force) since the rules were set.
            let fallback: (VersionDetails, String)?
            if let upgrade = inputs.installedUpgradeTo, !upgrade.isEmpty, let details = try await storage.index.version(upgrade, of: id) {
                fallback = (details, Assignment.Reason.upgradeTo)
            } else if let canonical = inputs.canonical, let details = try await storage.index.version(canonical, of: id) {
                fallback = (details, Assignment.Reason.canonical)
            } else {
                fallback = nil
            }
            guard let (details, reason) = fallback else { throw APIError.notFound("model \(id) has no version to assign") }
            let paused = decision.decidedBy == Assignment.Reason.paused
            assignment = Assignment(
                modelId: id, version: details, decidedBy: paused ? Assignment.Reason.paused : reason,
                rule: paused ? decision.rule : nil, bucket: paused ? decision.bucket : nil,
                revision: inputs.rollout.revision, authoritative: inputs.rollout.revision > 0)
        }
        return try json(assignment)
    }

    // MARK: Helpers

    /// Runs a rollout change and answers the rollout as it now is: 404 for an unknown model, 409 when
    /// `expectedRevision` is given and differs from the rollout's, 422 naming the JSON path of a version
    /// that does not exist.
    private func changeRollout(
        _ id: String, expectedRevision: Int64?, moveCanonicalTo canonical: String? = nil,
        _ change: (inout Rollout) throws -> Void
    ) async throws -> Response {
        var attempted: Rollout?
        let result = try await storage.index.updateRollout(of: id, expectedRevision: expectedRevision, moveCanonicalTo: canonical) { rollout in
            try change(&rollout)
            attempted = rollout
        }
        switch result {
        case .done(let rollout):
            return try json(rollout)
        case .unknownModel:
            throw APIError.notFound("no model \(id)")
        case .staleRevision(let current):
            throw APIError(
                status: .conflict, code: "conflict",
                message: "revision: the change is based on revision \(expectedRevision ?? 0), but the rollout of \(id) is at revision \(current); fetch it again")
        case .unknownVersion(let version):
            let path = Self.path(of: version, in: attempted?.rules ?? []) ?? "version"
            throw APIError(status: .unprocessableContent, code: "unknown-version", message: "\(path): model \(id) has no version \(version)")
        }
    }

    /// The JSON path of the first place the rules name `version`.
    private static func path(of version: String, in rules: [RolloutRule]) -> String? {
        for (index, rule) in rules.enumerated() {
            if rule.version == version { return "rules[\(index)].version" }
            if let arm = rule.split?.firstIndex(where: { $0.version == version }) { return "rules[\(index)].split[\(arm)].version" }
        }
        return nil
    }

    /// The body decoded strictly (unknown keys refused), at most `limit` bytes: 413 past it, 400 naming
    /// the JSON path of what is wrong.
    private func decodeBody<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int, emptyIsObject: Bool = false) async throws -> T {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError(status: .contentTooLarge, code: "too-large", message: "the body (\(length) bytes) is larger than the limit of \(limit) bytes")
        }
        var data: Data
        do {
            data = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError(status: .contentTooLarge, code: "too-large", message: "the body is larger than the limit of \(limit) bytes")
        }
        if emptyIsObject, data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { data = Data("{}".utf8) }
        do {
            return try RepositoryAPI.makeStrictDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw Self.invalid(RolloutInvalid.from(error), code: T.self == AssignmentRequest.self ? "bad-request" : "invalid-rollout")
        }
    }

    private static func invalid(_ error: RolloutInvalid, code: String = "invalid-rollout") -> APIError {
        APIError.badRequest(error.description, code: code)
    }

    private static func names(_ rules: [RolloutRule]) -> String {
        rules.prefix(10).map(\.name).joined(separator: ", ") + (rules.count > 10 ? ", …" : "")
    }
}
#endif
