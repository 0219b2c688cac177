#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIODelivery
import TensorIORepositoryServer
import Testing

/// The rule evaluation on its own: buckets pinned to the documented hash, cohorts that only grow while
/// ramping, A/B proportions, each condition, fall-through, pausing, and every refusal of bad rules.
@Suite("Rollout policy")
struct RolloutPolicyTests {
    static func device(_ id: String, _ change: (inout DeviceAttributes) -> Void = { _ in }) -> DeviceAttributes {
        var attributes = DeviceAttributes(installationId: id)
        change(&attributes)
        return attributes
    }

    static func policy(_ rules: [RolloutRule], paused: Bool = false, model: String = "digits") throws -> RolloutPolicy {
        try RolloutPolicy(modelId: model, rules: rules, paused: paused)
    }

    @Test("buckets and arms are the documented SHA-256 values (pinned: the same in every process and on every server)")
    func pinnedHash() throws {
        // Computed independently: int.from_bytes(sha256(b"tensorio-rollout-bucket\ndigits\nramp-v3\n" + id)[:8], "big") % 10000
        #expect(RolloutPolicy.bucket(modelId: "digits", salt: "ramp-v3", installationId: "3f2504e0-4f89-11d3-9a0c-0305e82c3301") == 9282)
        #expect(RolloutPolicy.bucket(modelId: "digits", salt: "ramp-v3", installationId: "device-1") == 9131)
        // The evaluation uses the same bucket: 92.82 % leaves the first device out, 92.83 % takes it.
        let id = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
        let out = try Self.policy([RolloutRule(name: "ramp-v3", percent: 92.82, version: "3")]).evaluate(Self.device(id), installedVersion: nil)
        #expect(out.version == nil)
        let taken = try Self.policy([RolloutRule(name: "ramp-v3", percent: 92.83, version: "3")]).evaluate(Self.device(id), installedVersion: nil)
        #expect(taken.version == "3" && taken.bucket == 9282)
        // A salt replaces the name in the hash: a renamed rule with the old salt keeps its devices.
        let renamed = try Self.policy([RolloutRule(name: "renamed", percent: 92.83, version: "3", salt: "ramp-v3")])
            .evaluate(Self.device(id), installedVersion: nil)
        #expect(renamed.bucket == 9282)
        // Arms: sha256(b"tensorio-rollout-arm\ndigits\nab\n" + id)[:8] % 100 is 18 for the first id and 48 for
        // "device-1": with weights 20/30/50 (running sums 20, 50, 100) they draw arms 0 and 1.
        let split = try Self.policy([RolloutRule(name: "ab", split: [
            RolloutArm(version: "3", weight: 20), RolloutArm(version: "4", weight: 30), RolloutArm(version: "5", weight: 50),
        ])])
        let first = split.evaluate(Self.device(id), installedVersion: nil)
        #expect(first.version == "3" && first.arm == 0)
        let second = split.evaluate(Self.device("device-1"), installedVersion: nil)
        #expect(second.version == "4" && second.arm == 1)
    }

    @Test("ramping 1% → 10% → 50% → 100% only adds devices; the shares are near the percentages")
    func monotonicRamp() throws {
        let ids = (0..<20_000).map { "device-\($0)" }
        var previous = Set<String>()
        for percent in [0.0, 1, 10, 50, 100] {
            let policy = try Self.policy([RolloutRule(name: "ramp", percent: percent, version: "3")])
            let taken = Set(ids.filter { policy.evaluate(Self.device($0), installedVersion: nil).version == "3" })
            #expect(taken.isSuperset(of: previous), "ramping to \(percent)% dropped \(previous.subtracting(taken).count) devices")
            let expected = Double(ids.count) * percent / 100
            #expect(abs(Double(taken.count) - expected) <= max(100, expected * 0.1), "\(taken.count) devices at \(percent)%")
            previous = taken
        }
        #expect(previous.count == ids.count)
        // Another model, or another rule name, draws an independent sample.
        let one = try Self.policy([RolloutRule(name: "ramp", percent: 10, version: "3")])
        let other = try Self.policy([RolloutRule(name: "ramp", percent: 10, version: "3")], model: "other")
        let renamed = try Self.policy([RolloutRule(name: "ramp-2", percent: 10, version: "3")])
        let a = Set(ids.filter { one.evaluate(Self.device($0), installedVersion: nil).version != nil })
        let b = Set(ids.filter { other.evaluate(Self.device($0), installedVersion: nil).version != nil })
        let c = Set(ids.filter { renamed.evaluate(Self.device($0), installedVersion: nil).version != nil })
        // Independent 10% samples overlap on about 1% of the devices, not 10%.
        #expect(a.intersection(b).count < 600 && a.intersection(c).count < 600, "\(a.intersection(b).count), \(a.intersection(c).count)")
    }

    @Test("an A/B split divides devices by weight, and a device keeps its arm when the percentage changes")
    func abSplit() throws {
        let ids = (0..<10_000).map { "ab-\($0)" }
        let arms = [RolloutArm(version: "4", weight: 70), RolloutArm(version: "5", weight: 30)]
        let full = try Self.policy([RolloutRule(name: "ab", split: arms)])
        let half = try Self.policy([RolloutRule(name: "ab", percent: 50, split: arms)])
        var four = 0
        for id in ids {
            let decision = full.evaluate(Self.device(id), installedVersion: nil)
            if decision.version == "4" { four += 1 }
            #expect(decision.arm == (decision.version == "4" ? 0 : 1))
            let partial = half.evaluate(Self.device(id), installedVersion: nil)
            if partial.version != nil { #expect(partial.version == decision.version, "\(id) changed arm") }
        }
        #expect(abs(Double(four) / Double(ids.count) - 0.7) < 0.03, "\(four) of \(ids.count) in the 70% arm")
    }

    @Test("each condition", arguments: [
        (RolloutConditions(appVersion: ">=2.4.0 <3"), "2.4.0", true), (RolloutConditions(appVersion: ">=2.4.0 <3"), "2.10", true),
        (RolloutConditions(appVersion: ">=2.4.0 <3"), "3.0.0", false), (RolloutConditions(appVersion: ">=2.4.0 <3"), "2.3.9", false),
        (RolloutConditions(appVersion: ">=2.4.0 <3"), "3.0.0-beta.1", true), (RolloutConditions(appVersion: ">2.4.0-beta.2"), "2.4.0-beta.10", true),
        (RolloutConditions(appVersion: "=2.4"), "2.4.0", true), (RolloutConditions(appVersion: "<=2.4"), "2.4.0.1", false),
        (RolloutConditions(appVersion: ">=1"), nil, false),
    ] as [(RolloutConditions, String?, Bool)])
    func appVersion(_ conditions: RolloutConditions, _ version: String?, _ matches: Bool) throws {
        let policy = try Self.policy([RolloutRule(name: "r", when: conditions, version: "3")])
        let decision = policy.evaluate(Self.device("d") { $0.appVersion = version }, installedVersion: nil)
        #expect((decision.version == "3") == matches, "\(conditions.appVersion ?? "") with \(version ?? "no version")")
    }

    @Test("platform, OS version, locale, region, device class, installation id and custom keys")
    func otherConditions() throws {
        let cases: [(RolloutConditions, (inout DeviceAttributes) -> Void, Bool)] = [
            (RolloutConditions(platform: ["ios", "android"]), { $0.platform = "iOS" }, true),
            (RolloutConditions(platform: ["ios"]), { $0.platform = "macos" }, false),
            (RolloutConditions(platform: ["ios"]), { _ in }, false),
            (RolloutConditions(osVersion: ">=17"), { $0.osVersion = "17.4.1" }, true),
            (RolloutConditions(osVersion: ">=17"), { $0.osVersion = "16.7" }, false),
            (RolloutConditions(locale: ["fr"]), { $0.locale = "fr_CA" }, true),
            (RolloutConditions(locale: ["fr"]), { $0.locale = "fy-NL" }, false),
            (RolloutConditions(locale: ["en-GB"]), { $0.locale = "en-us" }, false),
            (RolloutConditions(locale: ["en-GB"]), { $0.locale = "EN-gb" }, true),
            (RolloutConditions(region: ["US", "CA"]), { $0.region = "ca" }, true),
            (RolloutConditions(region: ["US"]), { $0.region = "GB" }, false),
            (RolloutConditions(deviceClass: ["tablet"]), { $0.deviceClass = "Tablet" }, true),
            (RolloutConditions(deviceClass: ["tablet"]), { $0.deviceClass = "phone" }, false),
            (RolloutConditions(installationId: ["d", "e"]), { _ in }, true),
            (RolloutConditions(installationId: ["e"]), { _ in }, false),
            (RolloutConditions(custom: ["cohort": ["beta"]]), { $0.custom["cohort"] = "beta" }, true),
            (RolloutConditions(custom: ["cohort": ["beta"]]), { $0.custom["cohort"] = "Beta" }, false),
            (RolloutConditions(custom: ["cohort": ["beta"]]), { $0.custom["tier"] = "beta" }, false),
            (RolloutConditions(platform: ["ios"], region: ["US"]), { $0.platform = "ios"; $0.region = "US" }, true),
            (RolloutConditions(platform: ["ios"], region: ["US"]), { $0.platform = "ios"; $0.region = "FR" }, false),
        ]
        for (index, (conditions, change, matches)) in cases.enumerated() {
            let policy = try Self.policy([RolloutRule(name: "r", when: conditions, version: "3")])
            let decision = policy.evaluate(Self.device("d", change), installedVersion: nil)
            #expect((decision.version == "3") == matches, "case \(index): \(conditions)")
        }
    }

    @Test("first match wins; a device outside a rule's percentage falls through to the next rule, then to the fallback")
    func fallThrough() throws {
        let policy = try Self.policy([
            RolloutRule(name: "beta", when: RolloutConditions(custom: ["cohort": ["beta"]]), version: "5"),
            RolloutRule(name: "nobody", percent: 0, version: "4"),
            RolloutRule(name: "us", when: RolloutConditions(region: ["US"]), version: "3"),
        ])
        let beta = policy.evaluate(Self.device("a") { $0.custom["cohort"] = "beta"; $0.region = "US" }, installedVersion: nil)
        #expect(beta.version == "5" && beta.rule == "beta" && beta.decidedBy == Assignment.Reason.rule)
        let us = policy.evaluate(Self.device("a") { $0.region = "US" }, installedVersion: nil)
        #expect(us.version == "3" && us.rule == "us")
        let nobody = policy.evaluate(Self.device("a") { $0.region = "FR" }, installedVersion: nil)
        #expect(nobody.version == nil && nobody.rule == nil && nobody.decidedBy == nil)
        #expect(try Self.policy([]).evaluate(Self.device("a"), installedVersion: "1").version == nil)
    }

    @Test("paused: a device keeps a rule's version it has; the others get the fallback")
    func paused() throws {
        let policy = try Self.policy([RolloutRule(name: "all", version: "3")], paused: true)
        let held = policy.evaluate(Self.device("a"), installedVersion: "3")
        #expect(held.version == "3" && held.decidedBy == Assignment.Reason.held)
        let waiting = policy.evaluate(Self.device("a"), installedVersion: "2")
        #expect(waiting.version == nil && waiting.decidedBy == Assignment.Reason.paused && waiting.rule == "all")
        #expect(policy.evaluate(Self.device("a"), installedVersion: nil).version == nil)
    }

    @Test("bad rules are refused naming the JSON path of the value", arguments: [
        ([RolloutRule(name: "a")], "rules[0]", "neither"),
        ([RolloutRule(name: "a", version: "1", split: [RolloutArm(version: "2", weight: 1)])], "rules[0]", "both"),
        ([RolloutRule(name: "a", version: "1"), RolloutRule(name: "a", version: "2")], "rules[1].name", "unique"),
        ([RolloutRule(name: "../x", version: "1")], "rules[0].name", "not a valid name"),
        ([RolloutRule(name: "a", version: "a/b")], "rules[0].version", "not valid"),
        ([RolloutRule(name: "a", percent: 100.5, version: "1")], "rules[0].percent", "0 to 100"),
        ([RolloutRule(name: "a", percent: -1, version: "1")], "rules[0].percent", "0 to 100"),
        ([RolloutRule(name: "a", percent: .nan, version: "1")], "rules[0].percent", "0 to 100"),
        ([RolloutRule(name: "a", percent: 0.001, version: "1")], "rules[0].percent", "two decimals"),
        ([RolloutRule(name: "a", split: [RolloutArm(version: "1", weight: 1)])], "rules[0].split", "2 to 16"),
        ([RolloutRule(name: "a", split: [RolloutArm(version: "1", weight: 1), RolloutArm(version: "1", weight: 2)])], "rules[0].split[1].version", "earlier arm"),
        ([RolloutRule(name: "a", split: [RolloutArm(version: "1", weight: 0), RolloutArm(version: "2", weight: 2)])], "rules[0].split[0].weight", "1 to 10000"),
        ([RolloutRule(name: "a", split: [RolloutArm(version: "1", weight: 1), RolloutArm(version: "2", weight: 10_001)])], "rules[0].split[1].weight", "1 to 10000"),
        ([RolloutRule(name: "a", when: RolloutConditions(appVersion: "2.4"), version: "1")], "rules[0].when.appVersion", "does not start with"),
        ([RolloutRule(name: "a", when: RolloutConditions(appVersion: ">=2.x"), version: "1")], "rules[0].when.appVersion", "not a version"),
        ([RolloutRule(name: "a", when: RolloutConditions(osVersion: ">=1.2.3.4.5"), version: "1")], "rules[0].when.osVersion", "not a version"),
        ([RolloutRule(name: "a", when: RolloutConditions(osVersion: ">1 >2 >3 >4 >5"), version: "1")], "rules[0].when.osVersion", "more than 4"),
        ([RolloutRule(name: "a", when: RolloutConditions(osVersion: ""), version: "1")], "rules[0].when.osVersion", "empty"),
        ([RolloutRule(name: "a", when: RolloutConditions(platform: []), version: "1")], "rules[0].when.platform", "match no device"),
        ([RolloutRule(name: "a", when: RolloutConditions(region: ["U S"]), version: "1")], "rules[0].when.region[0]", "characters"),
        ([RolloutRule(name: "a", when: RolloutConditions(custom: ["bad key": ["x"]]), version: "1")], "rules[0].when.custom", "bad key"),
        ([RolloutRule(name: "a", when: RolloutConditions(custom: ["k": ["a\u{0}b"]]), version: "1")], "rules[0].when.custom.k[0]", "control"),
        ([RolloutRule(name: "a", version: "1", salt: "with space")], "rules[0].salt", "characters"),
    ] as [([RolloutRule], String, String)])
    func refusals(_ rules: [RolloutRule], _ path: String, _ words: String) throws {
        try Self.expectRefusal(rules, path, words)
    }

    @Test("rule sets past a count or length limit are refused naming the JSON path")
    func limits() throws {
        let cases: [([RolloutRule], String, String)] = [
            ([RolloutRule(name: "a", split: (0..<17).map { RolloutArm(version: "v\($0)", weight: 1) })], "rules[0].split", "2 to 16"),
            ([RolloutRule(name: "a", when: RolloutConditions(appVersion: ">=" + String(repeating: "1", count: 200)), version: "1")], "rules[0].when.appVersion", "longer than"),
            ([RolloutRule(name: "a", when: RolloutConditions(locale: (0..<65).map { "l\($0)" }), version: "1")], "rules[0].when.locale", "at most 64"),
            ([RolloutRule(name: "a", when: RolloutConditions(deviceClass: [String(repeating: "x", count: 129)]), version: "1")], "rules[0].when.deviceClass[0]", "characters"),
            ([RolloutRule(name: "a", when: RolloutConditions(custom: ["k": [String(repeating: "v", count: 257)]]), version: "1")], "rules[0].when.custom.k[0]", "256 bytes"),
            ([RolloutRule(name: "a", when: RolloutConditions(custom: Dictionary(uniqueKeysWithValues: (0..<33).map { ("k\($0)", ["v"]) })), version: "1")], "rules[0].when.custom", "at most 32"),
            ([RolloutRule(name: "a", when: RolloutConditions(installationId: (0..<1001).map { "d\($0)" }), version: "1")], "rules[0].when.installationId", "at most 1000"),
            ((0..<65).map { RolloutRule(name: "r\($0)", version: "1") }, "rules", "at most 64"),
        ]
        for (rules, path, words) in cases { try Self.expectRefusal(rules, path, words) }
    }

    static func expectRefusal(_ rules: [RolloutRule], _ path: String, _ words: String) throws {
        do {
            _ = try RolloutPolicy(modelId: "digits", rules: rules, paused: false)
            Issue.record("accepted: \(path)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.description.contains(words), "\(error)")
        }
    }

    @Test("strict decoding names unknown keys, wrong types and missing fields by their JSON path", arguments: [
        (#"{"rules": [{"name": "a", "version": "1", "when": {"regoin": ["US"]}}]}"#, "rules[0].when.regoin"),
        (#"{"rules": [{"name": "a", "version": "1", "percentage": 5}]}"#, "rules[0].percentage"),
        (#"{"rules": [{"name": "a", "version": 1}]}"#, "rules[0].version"),
        (#"{"rules": [{"version": "1"}]}"#, "rules[0].name"),
        (#"{"rules": [{"name": "a", "split": [{"version": "1", "weight": 1.5}, {"version": "2", "weight": 1}]}]}"#, "rules[0].split[0].weight"),
        (#"{"rules": [{"name": "a", "version": "1", "when": {"custom": {"k": "v"}}}]}"#, "rules[0].when.custom.k"),
        (#"{"rulez": []}"#, "rulez"),
        (#"{"rules": "#, ""),
        // Found by the contract test: abs(Int.min) trapped and took the server down.
        (#"{"rules": [], "revision": -9223372036854775808}"#, "revision"),
        (#"{"rules": [], "revision": 9223372036854775807}"#, "revision"),
        (#"{"rules": [], "revision": 1e300}"#, "revision"),
        (#"{"rules": [{"name": "a", "split": [{"version": "1", "weight": -9223372036854775808}, {"version": "2", "weight": 1}]}]}"#, "rules[0].split[0].weight"),
    ] as [(String, String)])
    func strictDecoding(_ json: String, _ path: String) throws {
        do {
            _ = try RepositoryAPI.makeStrictDecoder().decode(RolloutUpdate.self, from: Data(json.utf8))
            Issue.record("decoded: \(json)")
        } catch let error as DecodingError {
            #expect(RolloutInvalid.from(error).path == path, "\(RolloutInvalid.from(error))")
        }
        // Clients decode leniently: an unknown key from a newer server is ignored.
        let lenient = try RepositoryAPI.makeDecoder().decode(
            RolloutRule.self, from: Data(#"{"name": "a", "version": "1", "future": true}"#.utf8))
        #expect(lenient.version == "1")
    }

    @Test("a verb's body with an extreme revision is refused, not a crash (contract-test finding)")
    func extremeRevision() throws {
        for json in [#"{"revision": -9223372036854775808}"#, #"{"revision": -1e19, "percent": 5}"#] {
            #expect(throws: DecodingError.self) {
                _ = try RepositoryAPI.makeStrictDecoder().decode(RolloutAction.self, from: Data(json.utf8))
            }
        }
    }

    @Test("versions: parsing and ordering")
    func versions() {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2", "1.10", "2"]
        let parsed = ordered.compactMap(SemanticVersion.init)
        #expect(parsed.count == ordered.count)
        for (a, b) in zip(parsed, parsed.dropFirst()) { #expect(a < b, "\(a) < \(b)") }
        #expect(SemanticVersion("2.4") == SemanticVersion("2.4.0.0"))
        #expect(SemanticVersion("1.2.3+build.5") == SemanticVersion("1.2.3"))
        for bad in ["", "v1", "1.", ".1", "1..2", "1.2.3.4.5", "1.2-", "1.2-be$ta", "1.2+", "1234567890", "1 2", "-1", String(repeating: "1.", count: 40) + "1"] {
            #expect(SemanticVersion(bad) == nil, "\(bad)")
        }
    }
}
#endif
