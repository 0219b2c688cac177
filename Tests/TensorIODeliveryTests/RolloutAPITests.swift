#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO
import TensorIODelivery
import TensorIORepositoryServer
import Testing
import TensorIOTestSupport

/// The rollout endpoints against a real server on loopback: each change takes effect on the next
/// assignment, bad rules and attributes get a 4xx naming the field, and the client follows a rollback.
@Suite("Rollout API")
struct RolloutAPITests {
    static let id = Fixtures.numberModelId

    /// An installation id whose bucket in `rule` is in `range` (found by trying ids in order).
    static func device(in range: Range<Int>, rule: String, attributes: (inout DeviceAttributes) -> Void = { _ in }) -> DeviceAttributes {
        var index = 0
        while RolloutPolicy.bucket(modelId: id, salt: rule, installationId: "device-\(index)") < range.lowerBound
            || RolloutPolicy.bucket(modelId: id, salt: rule, installationId: "device-\(index)") >= range.upperBound {
            index += 1
        }
        var device = DeviceAttributes(installationId: "device-\(index)")
        attributes(&device)
        return device
    }

    @Test("set rules, ramp 1% → 10% → 100%, pause, resume, A/B and rollback take effect on the next assignment")
    func lifecycle() async throws {
        try await withServer { server, folder in
            let client = server.client()
            try await Fixtures.push(version: "1", to: client, in: folder)
            try await Fixtures.push(version: "2", to: client, in: folder, canonical: false)
            let three = try await Fixtures.push(version: "3", to: client, in: folder, canonical: false)

            var rollout = try await client.rollout(of: Self.id)
            #expect(rollout.revision == 0 && rollout.rules.isEmpty && !rollout.paused && rollout.updatedAt == nil)
            let early = Self.device(in: 0..<100, rule: "v2")  // inside 1%
            let middle = Self.device(in: 100..<1000, rule: "v2")  // inside 10%, outside 1%
            let late = Self.device(in: 1000..<10_000, rule: "v2")
            var answer = try await client.assignment(modelId: Self.id, attributes: early)
            #expect(answer.version.version == "1" && answer.decidedBy == Assignment.Reason.canonical && !answer.authoritative)

            rollout = try await client.setRollout(RolloutUpdate(rules: [RolloutRule(name: "v2", percent: 0, version: "2")]), of: Self.id)
            #expect(rollout.revision == 1 && rollout.updatedAt != nil)
            #expect(try await client.assignment(modelId: Self.id, attributes: early).version.version == "1")

            rollout = try await client.rampRollout(of: Self.id, to: 1)
            #expect(rollout.revision == 2 && rollout.rules.first?.percent == 1)
            answer = try await client.assignment(modelId: Self.id, attributes: early)
            #expect(answer.version.version == "2" && answer.decidedBy == Assignment.Reason.rule && answer.rule == "v2" && answer.authoritative)
            #expect(answer.bucket == RolloutPolicy.bucket(modelId: Self.id, salt: "v2", installationId: early.installationId))
            #expect(try await client.assignment(modelId: Self.id, attributes: middle).version.version == "1")

            _ = try await client.rampRollout(of: Self.id, to: 10, rule: "v2")
            #expect(try await client.assignment(modelId: Self.id, attributes: early).version.version == "2")
            #expect(try await client.assignment(modelId: Self.id, attributes: middle).version.version == "2")
            #expect(try await client.assignment(modelId: Self.id, attributes: late).version.version == "1")

            // Paused: a device on 2 keeps it, a device on 1 stays there, and nothing else changes.
            rollout = try await client.pauseRollout(of: Self.id)
            #expect(rollout.paused && rollout.revision == 4)
            #expect(try await client.pauseRollout(of: Self.id).revision == 4)  // no change, no new revision
            answer = try await client.assignment(modelId: Self.id, attributes: early, installedVersion: "2")
            #expect(answer.version.version == "2" && answer.decidedBy == Assignment.Reason.held)
            answer = try await client.assignment(modelId: Self.id, attributes: middle, installedVersion: "1")
            #expect(answer.version.version == "1" && answer.decidedBy == Assignment.Reason.paused && answer.rule == "v2")
            _ = try await client.resumeRollout(of: Self.id)
            #expect(try await client.assignment(modelId: Self.id, attributes: middle, installedVersion: "1").version.version == "2")

            _ = try await client.rampRollout(of: Self.id, to: 100)
            #expect(try await client.assignment(modelId: Self.id, attributes: late).version.version == "2")

            // Targeting first, then an A/B split of everyone else between 2 and 3.
            _ = try await client.setRollout(RolloutUpdate(rules: [
                RolloutRule(name: "beta", when: RolloutConditions(appVersion: ">=2.4 <3", region: ["US"], custom: ["cohort": ["beta"]]), version: "3"),
                RolloutRule(name: "ab", split: [RolloutArm(version: "2", weight: 1), RolloutArm(version: "3", weight: 1)]),
            ]), of: Self.id)
            var beta = DeviceAttributes(installationId: "beta-1", appVersion: "2.5.0", region: "us", custom: ["cohort": "beta"])
            answer = try await client.assignment(modelId: Self.id, attributes: beta)
            #expect(answer.version.version == "3" && answer.rule == "beta")
            beta.appVersion = "3.0.0"
            #expect(try await client.assignment(modelId: Self.id, attributes: beta).rule == "ab")
            var arms: [String: Int] = [:]
            for index in 0..<60 {
                let answer = try await client.assignment(modelId: Self.id, attributes: DeviceAttributes(installationId: "ab-\(index)"))
                #expect(answer.arm == (answer.version.version == "2" ? 0 : 1))
                arms[answer.version.version, default: 0] += 1
            }
            #expect(arms["2", default: 0] > 10 && arms["3", default: 0] > 10, "\(arms)")

            // The installed version's upgradeTo is the fallback when no rule takes the device.
            _ = try await client.setRollout(RolloutUpdate(rules: [RolloutRule(name: "nobody", percent: 0, version: "3")]), of: Self.id)
            _ = try await client.setUpgradeTo("2", version: "1", of: Self.id)
            answer = try await client.assignment(modelId: Self.id, attributes: late, installedVersion: "1")
            #expect(answer.version.version == "2" && answer.decidedBy == Assignment.Reason.upgradeTo)
            _ = try await client.setUpgradeTo(nil, version: "1", of: Self.id)

            // Rollback: no rules, and canonical moved in the same change; every device gets it.
            rollout = try await client.rollBackRollout(of: Self.id, to: "3")
            #expect(rollout.rules.isEmpty && !rollout.paused)
            #expect(try await client.model(Self.id).canonicalVersion == "3")
            rollout = try await client.rollBackRollout(of: Self.id, to: "1")
            answer = try await client.assignment(modelId: Self.id, attributes: early, installedVersion: "3")
            #expect(answer.version.version == "1" && answer.decidedBy == Assignment.Reason.canonical && answer.authoritative)
            #expect(answer.revision == rollout.revision)

            // The client follows the rollback although 1 is older than the installed 3; without attributes
            // "only if newer" keeps 3 (a canonical pointer moved back is not followed).
            let installed = InstalledModel(
                modelId: Self.id, version: "3", sha256: three.sha256, createdAt: nil, sequence: three.sequence,
                installedAt: Date(), bundleURL: folder)
            #expect(try await client.checkForUpdate(modelId: Self.id, installed: installed, attributes: early)?.version == "1")
            #expect(try await client.checkForUpdate(modelId: Self.id, installed: installed, attributes: nil) == nil)
            #expect(try await client.rollout(of: Self.id).revision == rollout.revision)
        }
    }

    @Test("a device with attributes installs its targeted version, and follows a rollback to an older version")
    func installTargeted() async throws {
        try await withServer { server, folder in
            let publisher = server.client()
            try await Fixtures.push(version: "1", to: publisher, in: folder)
            try await Fixtures.push(version: "2", to: publisher, in: folder, canonical: false)
            _ = try await publisher.setRollout(RolloutUpdate(rules: [
                RolloutRule(name: "beta", when: RolloutConditions(custom: ["cohort": ["beta"]]), version: "2"),
            ]), of: Self.id)

            let store = try ModelStore(directory: folder.appendingPathComponent("beta-device"))
            let installationId = try store.installationId()
            #expect(try store.installationId() == installationId)  // created once, then kept
            #expect(UUID(uuidString: installationId) != nil)
            var device = server.client(token: nil)
            device.deviceAttributes = DeviceAttributes(installationId: installationId, custom: ["cohort": "beta"])
            #expect(try await device.install(modelId: Self.id, into: store)?.version == "2")
            #expect(try await device.install(modelId: Self.id, into: store) == nil)

            let other = try ModelStore(directory: folder.appendingPathComponent("other-device"))
            var plain = server.client(token: nil)
            plain.deviceAttributes = DeviceAttributes.system(installationId: try other.installationId())
            #expect(try await plain.install(modelId: Self.id, into: other)?.version == "1")

            _ = try await publisher.rollBackRollout(of: Self.id)
            // The default conditions say "only if newer", and 1 is older: the rollback is followed anyway.
            #expect(try await device.install(modelId: Self.id, into: store)?.version == "1")
            #expect(try store.current(Self.id)?.version == "1")
        }
    }

    @Test("bad rules, verbs and attributes get a 4xx with a code and the field's JSON path")
    func refusals() async throws {
        try await withServer { server, folder in
            let client = server.client()
            try await Fixtures.push(version: "1", to: client, in: folder)
            try await Fixtures.push(version: "2", to: client, in: folder, canonical: false)
            let base = server.url.appendingPathComponent("v1/models/\(Self.id)")

            func call(_ method: String, _ path: String, _ body: String, token: String? = TestServer.writeToken) async throws -> (Int, String, String) {
                var request = URLRequest(url: base.appendingPathComponent(path))
                request.httpMethod = method
                request.httpBody = Data(body.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                let (data, response) = try await UncachedHTTP.send(request)
                let error = try? JSONDecoder().decode(APIErrorBody.self, from: data).error
                return (response.statusCode, error?.code ?? "", error?.message ?? String(decoding: data, as: UTF8.self))
            }

            let cases: [(String, String, String, Int, String, String)] = [
                ("PUT", "rollout", #"{"rules": [{"name": "a", "version": "1", "when": {"regoin": ["US"]}}]}"#, 400, "invalid-rollout", "rules[0].when.regoin"),
                ("PUT", "rollout", #"{"rules": [{"name": "a", "version": "1", "when": {"appVersion": "2.x"}}]}"#, 400, "invalid-rollout", "rules[0].when.appVersion"),
                ("PUT", "rollout", #"{"rules": [{"name": "a", "version": "1", "percent": 100.001}]}"#, 400, "invalid-rollout", "rules[0].percent"),
                ("PUT", "rollout", #"{"rules": [{"name": "a", "split": [{"version": "1", "weight": 1}, {"version": "2", "weight": -1}]}]}"#, 400, "invalid-rollout", "rules[0].split[1].weight"),
                ("PUT", "rollout", #"{"rules": [{"name": "a", "split": [{"version": "1", "weight": 1}, {"version": "9", "weight": 1}]}]}"#, 422, "unknown-version", "rules[0].split[1].version"),
                ("PUT", "rollout", #"{"rules": [{"name": "a", "version": "9"}]}"#, 422, "unknown-version", "no version 9"),
                ("PUT", "rollout", #"{"rules": [], "modelId": "other"}"#, 400, "invalid-rollout", "modelId"),
                ("PUT", "rollout", #"{"rules": [], "revision": 7}"#, 409, "conflict", "revision 7"),
                ("PUT", "rollout", #"{"rules": "#, 400, "invalid-rollout", "not valid JSON"),
                ("PUT", "rollout", #"["rules"]"#, 400, "invalid-rollout", "expected"),
                ("PUT", "rollout", "{\"rules\": [], \"x\": \"" + String(repeating: "x", count: 300_000) + "\"}", 413, "too-large", "limit"),
                ("POST", "rollout/ramp", #"{"percent": 10}"#, 400, "invalid-rollout", "no rules to ramp"),
                ("POST", "rollout/ramp", #"{}"#, 400, "invalid-rollout", "percent: is required"),
                ("POST", "rollout/ramp", #"{"percent": 101}"#, 400, "invalid-rollout", "percent"),
                ("POST", "rollout/ramp", #"{"percent": "10"}"#, 400, "invalid-rollout", "percent"),
                ("POST", "rollout/ramp", #"{"percent": 10, "version": "1"}"#, 400, "invalid-rollout", "not a field of ramp"),
                ("POST", "rollout/pause", #"{"percent": 10}"#, 400, "invalid-rollout", "not a field of pause"),
                ("POST", "rollout/rollback", #"{"version": "9"}"#, 422, "unknown-version", "no version 9"),
                ("POST", "rollout/rollback", #"{"version": "../x"}"#, 400, "invalid-identifier", "version"),
                ("POST", "assignment", #"{"appVersion": "1.0"}"#, 400, "bad-request", "installationId: is required"),
                ("POST", "assignment", #"{"installationId": "a b"}"#, 400, "bad-request", "installationId"),
                ("POST", "assignment", #"{"installationId": "a", "appVersion": "2.4 beta"}"#, 400, "bad-request", "appVersion"),
                ("POST", "assignment", #"{"installationId": "a", "regoin": "US"}"#, 400, "bad-request", "regoin"),
                ("POST", "assignment", #"{"installationId": "a", "custom": {"k": 1}}"#, 400, "bad-request", "custom.k"),
                ("POST", "assignment", #"{"installationId": "a", "custom": {"k": "\#(String(repeating: "v", count: 257))"}}"#, 400, "bad-request", "custom.k"),
                ("POST", "assignment", #"{"installationId": "a", "installedVersion": "../1"}"#, 400, "bad-request", "installedVersion"),
                ("POST", "assignment", "{\"installationId\": \"a\", \"custom\": {" + (0..<33).map { "\"k\($0)\": \"v\"" }.joined(separator: ",") + "}}", 400, "bad-request", "custom: has more than 32"),
                ("POST", "assignment", "{\"installationId\": \"" + String(repeating: "a", count: 20_000) + "\"}", 413, "too-large", "limit"),
            ]
            for (method, path, body, status, code, words) in cases {
                let (gotStatus, gotCode, message) = try await call(method, path, body)
                #expect(gotStatus == status && gotCode == code && message.contains(words), "\(method) \(path) \(body.prefix(100)): \(gotStatus) \(gotCode) \(message)")
            }
            #expect(try await call("PUT", "rollout", #"{"rules": []}"#, token: nil).0 == 401)
            #expect(try await call("POST", "rollout/pause", "", token: "wrong").0 == 401)
            var missing = URLRequest(url: server.url.appendingPathComponent("v1/models/nothing/assignment"))
            missing.httpMethod = "POST"
            missing.httpBody = Data(#"{"installationId": "a"}"#.utf8)
            #expect(try await UncachedHTTP.send(missing).1.statusCode == 404)
            #expect(try await client.rollout(of: Self.id).revision == 0, "no refused change was written")

            // The client's codes.
            let error = await expectTensorIOError(.invalidRollout) {
                try await client.setRollout(RolloutUpdate(rules: [RolloutRule(name: "a", version: "9")]), of: Self.id)
            }
            #expect(error?.message.contains("rules[0].version") == true)
            await expectTensorIOError(.invalidRollout) { try await client.rampRollout(of: Self.id, to: 0.001) }
            let current = try await client.setRollout(RolloutUpdate(rules: [RolloutRule(name: "a", version: "2")]), of: Self.id)
            await expectTensorIOError(.conflict) {
                try await client.setRollout(RolloutUpdate(rules: [], revision: current.revision - 1), of: Self.id)
            }
            #expect(try await client.setRollout(RolloutUpdate(rules: [], revision: current.revision), of: Self.id).revision == current.revision + 1)
            await expectTensorIOError(.unauthorized) { try await server.client(token: nil).pauseRollout(of: Self.id) }
        }
    }

    @Test("the store's installation id: created once even by concurrent callers, kept, and a file that is not an id is refused")
    func installationId() async throws {
        try await withTemporaryDirectory { folder in
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try store.installationId() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1, "\(ids)")
            let reopened = try ModelStore(directory: folder.appendingPathComponent("store"))
            #expect(try reopened.installationId() == ids.first)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasPrefix(".installation-id") }
            #expect(leftovers.isEmpty, "\(leftovers)")

            let file = store.directory.appendingPathComponent("installation-id")
            for content in ["", "not an id\n", String(repeating: "a", count: 10_000), "caf\u{E9}"] {
                try Data(content.utf8).write(to: file)
                let error = expectTensorIOError(.io) { try store.installationId() }
                #expect(error?.message.contains("does not hold an installation id") == true, "\(content.prefix(20)): \(String(describing: error))")
            }
        }
    }
}
#endif
