import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio rollout …` and `pull`/`update` with device attributes, end to end against `tensorio serve`.
@Suite("tensorio rollout, and pull/update with device attributes")
struct RolloutCommandTests {
    static let id = Fixtures.numberModelId

    @Test("rules set from a file target a cohort; ramp, pause, resume and rollback change what update installs")
    func rollout() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString
            let write = ["--to", url, "--token-file", tokenFile]
            for (version, canonical) in [("1", true), ("2", false), ("3", false)] {
                let result = try await CLI.run(
                    ["push", try Fixtures.bundle(version: version, in: folder).path] + write + (canonical ? [] : ["--not-canonical"]))
                #expect(result.status == 0, "\(result)")
            }

            var result = try await CLI.run(["rollout", "show", Self.id, "--from", url])
            var shown = try jsonObject(result)
            #expect(shown["revision"] as? Int == 0 && (shown["rules"] as? [Any])?.isEmpty == true && shown["modelId"] as? String == Self.id, "\(result)")

            let rules = folder.appendingPathComponent("rules.json")
            try Data("""
                {"rules": [
                  {"name": "beta", "when": {"custom": {"cohort": ["beta"]}}, "version": "2"},
                  {"name": "v3", "when": {"platform": ["linux", "ios"]}, "percent": 0, "version": "3"}
                ]}
                """.utf8).write(to: rules)
            result = try await CLI.run(["rollout", "set", Self.id, rules.path] + write)
            expectSuccess(result, stdout: "\(Self.id): revision 1: beta -> 2 at 100%; v3 -> 3 at 0%")

            let beta = folder.appendingPathComponent("beta").path
            let plain = folder.appendingPathComponent("plain").path
            result = try await CLI.run(["pull", Self.id, "--from", url, "--into", beta, "--attribute", "cohort=beta", "--attribute", "platform=linux"])
            expectSuccess(result, stdout: "\(beta)/\(Self.id)/versions/2/\(Self.id).tiobundle")
            result = try await CLI.run(["pull", Self.id, "--from", url, "--into", plain, "--attribute", "platform=linux"])
            expectSuccess(result, stdout: "\(plain)/\(Self.id)/versions/1/\(Self.id).tiobundle")
            let installationId = try String(contentsOfFile: "\(plain)/installation-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(UUID(uuidString: installationId) != nil, "\(installationId)")

            result = try await CLI.run(["rollout", "ramp", Self.id, "100%", "--rule", "v3"] + write)
            expectSuccess(result, stdout: "\(Self.id): revision 2: beta -> 2 at 100%; v3 -> 3 at 100%")
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", plain, "--attribute", "platform=linux"])
            expectSuccess(result, stdout: "\(Self.id): updated 1 -> 3\n\(plain)/\(Self.id)/versions/3/\(Self.id).tiobundle")
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", beta, "--attribute", "custom.cohort=beta", "--attribute", "platform=linux"])
            expectSuccess(result, stdout: "\(Self.id): up to date (2)\n\(beta)/\(Self.id)/versions/2/\(Self.id).tiobundle")
            // The same store's installation id is used by assign: the bucket is the device's.
            result = try await CLI.run(["rollout", "assign", Self.id, "--from", url, "--into", plain, "--attribute", "platform=linux"])
            #expect(result.status == 0 && result.stdout.hasPrefix("3\trule v3 (bucket ") && result.stdout.hasSuffix("\trevision 2\n"), "\(result)")
            let answer = try jsonObject(try await CLI.run(["rollout", "assign", Self.id, "--from", url, "--installation-id", installationId, "--attribute", "platform=linux", "--json"]))
            #expect(answer["decided_by"] as? String == "rule" && answer["authoritative"] as? Bool == true, "\(answer)")

            result = try await CLI.run(["rollout", "pause", Self.id] + write)
            expectSuccess(result, stdout: "\(Self.id): revision 3, paused: beta -> 2 at 100%; v3 -> 3 at 100%")
            result = try await CLI.run(["rollout", "assign", Self.id, "--from", url, "--into", plain, "--attribute", "platform=linux"])
            #expect(result.stdout.hasPrefix("3\theld by the paused rule v3\t"), "\(result)")
            result = try await CLI.run(["rollout", "resume", Self.id, "--json"] + write)
            shown = try jsonObject(result)
            #expect(shown["paused"] as? Bool == false && shown["revision"] as? Int == 4, "camelCase API document: \(result)")

            // Rollback: every device goes to the canonical version 1, older than what they run.
            result = try await CLI.run(["rollout", "rollback", Self.id] + write)
            expectSuccess(result, stdout: "\(Self.id): revision 5: no rules (every device gets the fallback: the canonical version 1)")
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", plain, "--attribute", "platform=linux"])
            expectSuccess(result, stdout: "\(Self.id): updated 3 -> 1\n\(plain)/\(Self.id)/versions/1/\(Self.id).tiobundle")
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", beta, "--attribute", "cohort=beta"])
            expectSuccess(result, stdout: "\(Self.id): updated 2 -> 1\n\(beta)/\(Self.id)/versions/1/\(Self.id).tiobundle")

            // `show` prints what `set` reads back; its revision guards against changes in between.
            let saved = folder.appendingPathComponent("saved.json")
            try Data(try await CLI.run(["rollout", "show", Self.id, "--from", url]).stdout.utf8).write(to: saved)
            result = try await CLI.run(["rollout", "set", Self.id, saved.path] + write)
            expectSuccess(result, stdout: "\(Self.id): revision 5: no rules (every device gets the fallback: the canonical version 1)")
            _ = try await CLI.run(["rollout", "pause", Self.id] + write)
            expectOneLineError(try await CLI.run(["rollout", "set", Self.id, saved.path] + write), containing: ["HTTP 409", "revision 5"])
        }
    }

    @Test("bad rule files, percentages, versions, tokens and attributes: one line naming the problem")
    func failures() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString
            let write = ["--to", url, "--token-file", tokenFile]
            let pushed = try await CLI.run(["push", try Fixtures.bundle(version: "1", in: folder).path] + write)
            #expect(pushed.status == 0, "\(pushed)")

            let bad = folder.appendingPathComponent("bad.json")
            try Data(#"{"rules": [{"name": "a", "version": "1", "when": {"regoin": ["US"]}}]}"#.utf8).write(to: bad)
            expectOneLineError(try await CLI.run(["rollout", "set", Self.id, bad.path] + write), containing: ["rules[0].when.regoin", "unknown key"])
            try Data(#"{"rules": [{"name": "a", "version": "9"}]}"#.utf8).write(to: bad)
            expectOneLineError(try await CLI.run(["rollout", "set", Self.id, bad.path] + write), containing: ["HTTP 422", "rules[0].version", "no version 9"])
            try Data(#"{"rules": [{"name": "a", "version": "1", "when": {"appVersion": ">=2.x"}}]}"#.utf8).write(to: bad)
            expectOneLineError(try await CLI.run(["rollout", "set", Self.id, bad.path] + write), containing: ["HTTP 400", "rules[0].when.appVersion"])
            expectOneLineError(try await CLI.run(["rollout", "set", Self.id, folder.appendingPathComponent("none.json").path] + write), containing: ["cannot read"])
            if FileManager.default.fileExists(atPath: "/dev/zero") {
                expectOneLineError(try await CLI.run(["rollout", "set", Self.id, "/dev/zero"] + write), containing: ["larger than"])
            }
            expectOneLineError(try await CLI.run(["rollout", "set", Self.id, "-"] + write, standardInput: Data("{\"rules\": [".utf8)), containing: ["not valid JSON"])
            expectOneLineError(try await CLI.run(["rollout", "ramp", Self.id, "10"] + write), containing: ["HTTP 400", "no rules to ramp"])
            expectOneLineError(try await CLI.run(["rollout", "ramp", Self.id, "ten"] + write), containing: ["not a number"], status: 64)
            expectOneLineError(try await CLI.run(["rollout", "pause", Self.id, "--to", url]), containing: ["HTTP 401"])
            expectOneLineError(try await CLI.run(["rollout", "rollback", Self.id, "--version", "9"] + write), containing: ["HTTP 422", "no version 9"])
            expectOneLineError(try await CLI.run(["rollout", "show", "nothing", "--from", url]), containing: ["HTTP 404"])
            let store = folder.appendingPathComponent("device").path
            expectOneLineError(
                try await CLI.run(["pull", Self.id, "--from", url, "--into", store, "--attribute", "appVersion=2.x"]),
                containing: ["HTTP 400", "appVersion"])
            expectOneLineError(try await CLI.run(["pull", Self.id, "--from", url, "--into", store, "--attribute", "novalue"]), containing: ["KEY=VALUE"], status: 64)
            expectOneLineError(
                try await CLI.run(["pull", Self.id, "--from", url, "--into", store, "--installation-id", "has space"]),
                containing: ["HTTP 400", "installationId"])
        }
    }

    @Test("rollout bench evaluates decisions and reports decisions/s")
    func bench() async throws {
        let result = try await CLI.run(["rollout", "bench", "--decisions", "20000", "--json"])
        let report = try jsonObject(result)
        #expect(report["decisions"] as? Int == 20_000, "\(result)")
        #expect((report["decisions_per_second"] as? Double ?? 0) > 0 || (report["decisions_per_second"] as? Int ?? 0) > 0, "\(result)")
        let versions = try #require(report["versions"] as? [String: Int])
        #expect(versions.values.reduce(0, +) == 20_000 && versions.count >= 3, "\(versions)")
    }
}
