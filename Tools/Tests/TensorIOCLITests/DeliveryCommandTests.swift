#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// `tensorio serve`, `push`, `models`, `pull`, `update`, `rollback`, end to end with a real server process.
@Suite("tensorio serve, push, models, pull, update, rollback")
struct DeliveryCommandTests {
    static let id = Fixtures.numberModelId
    static let token = ServeProcess.writeToken

    @Test("a bundle pushed with the CLI is pulled, run, updated and rolled back in another folder")
    func pushPullUpdateRollback() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString

            var result = try await CLI.run(["push", try Fixtures.bundle(version: "1", in: folder).path, "--to", url, "--token-file", tokenFile, "--notes", "first"])
            #expect(result.status == 0, "\(result)")
            let pushed = try jsonObject(result)
            #expect(pushed["model_id"] as? String == Self.id, "--json keys are snake_case: \(pushed.keys.sorted())")
            #expect(pushed.keys.allSatisfy { $0 == $0.lowercased() }, "\(pushed.keys.sorted())")
            #expect(pushed["version"] as? String == "1")
            #expect(pushed["canonical"] as? Bool == true)
            #expect(pushed["notes"] as? String == "first")

            result = try await CLI.run(["models", "--from", url])
            expectSuccess(result, stdout: "\(Self.id)\t1\t1")
            let listed = try jsonObject(try await CLI.run(["models", "--from", url, "--json"]))
            let models = try #require(listed["models"] as? [[String: Any]], "one object with a models array: \(listed)")
            #expect(models.first?["canonical_version"] as? String == "1" && models.first?["version_count"] as? Int == 1)

            let store = folder.appendingPathComponent("device").path
            result = try await CLI.run(["pull", Self.id, "--from", url, "--into", store])
            let v1Path = "\(store)/\(Self.id)/versions/1/\(Self.id).tiobundle"
            expectSuccess(result, stdout: v1Path)
            result = try await CLI.run(["run", v1Path, "--input", "2"])
            expectSuccess(result, stdout: "{\"output\":25}")

            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store])
            expectSuccess(result, stdout: "\(Self.id): up to date (1)\n\(v1Path)")

            result = try await CLI.run(["push", try Fixtures.bundle(version: "2", in: folder).path, "--to", url, "--token", Self.token])
            #expect(result.status == 0, "\(result)")
            result = try await CLI.run(["models", Self.id, "--from", url])
            #expect(result.stdoutLines.count == 2, "\(result)")
            #expect(result.stdoutLines.last?.hasSuffix("\t*") == true, "\(result)")

            let v2Path = "\(store)/\(Self.id)/versions/2/\(Self.id).tiobundle"
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store])
            expectSuccess(result, stdout: "\(Self.id): updated 1 -> 2\n\(v2Path)")
            result = try await CLI.run(["validate", v2Path])
            expectSuccess(result, stdout: "\(v2Path): valid")

            result = try await CLI.run(["rollback", Self.id, "--into", store])
            expectSuccess(result, stdout: "\(Self.id): rolled back 2 -> 1\n\(v1Path)")
            let pointer = try String(contentsOfFile: "\(store)/\(Self.id)/current.json", encoding: .utf8)
            #expect(pointer.contains("\"current\":\"1\""), "\(pointer)")
            result = try await CLI.run(["run", v1Path, "--input", "2"])
            expectSuccess(result, stdout: "{\"output\":25}")

            // Updating from the rolled-back version goes forward again.
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store])
            expectSuccess(result, stdout: "\(Self.id): updated 1 -> 2\n\(v2Path)")

            // A new canonical version whose archive is byte for byte the installed one: update says which
            // version the store now points at, and that nothing was downloaded.
            let details = try #require(try jsonObject(try await CLI.run(["models", Self.id, "--from", url, "--json"]))["versions"] as? [[String: Any]])
            let v2Archive = try #require(details.first { $0["version"] as? String == "2" }?["sha256"] as? String)
            let archive = folder.appendingPathComponent("root/archives/\(Self.id)/2.zip")
            let stored = try await RepositoryClient(baseURL: server.url, token: Self.token)
                .upload(archiveAt: archive, modelId: Self.id, version: "3")
            #expect(stored.sha256 == v2Archive && stored.canonical)
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store])
            let v3Path = "\(store)/\(Self.id)/versions/3/\(Self.id).tiobundle"
            expectSuccess(result, stdout: "\(Self.id): updated 2 -> 3 (the same archive: nothing downloaded)\n\(v3Path)")
            result = try await CLI.run(["update", Self.id, "--from", url, "--into", store])
            expectSuccess(result, stdout: "\(Self.id): up to date (3)\n\(v3Path)")
            let installed = try String(contentsOfFile: "\(store)/\(Self.id)/versions/3/install.json", encoding: .utf8)
            #expect(installed.contains(v2Archive), "\(installed)")
            result = try await CLI.run(["run", v3Path, "--input", "2"])
            expectSuccess(result, stdout: "{\"output\":25}")
        }
    }

    @Test("failures are one line and exit 1: tokens, unknown models, unreachable servers, bad input")
    func failures() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString
            let bundle = try Fixtures.bundle(version: "1", in: folder).path

            expectOneLineError(try await CLI.run(["push", bundle, "--to", url]), containing: ["HTTP 401", "bearer token"])
            expectOneLineError(try await CLI.run(["push", bundle, "--to", url, "--token", "wrong"]), containing: ["HTTP 401", "wrong"])
            expectOneLineError(try await CLI.run(["push", bundle, "--to", url, "--token", "x", "--token-file", tokenFile]), containing: ["not both"])
            expectOneLineError(try await CLI.run(["push", bundle, "--to", url, "--token-file", tokenFile, "--id", "../x"]), containing: ["model id", "not valid"])
            expectOneLineError(
                try await CLI.run(["push", Fixtures.path("invalid-model-bad-json.tiobundle"), "--to", url, "--token-file", tokenFile]),
                containing: ["model.json"])
            expectOneLineError(try await CLI.run(["push", bundle, "--to", "ftp://x", "--token-file", tokenFile]), containing: ["--to"])
            let pushed = try await CLI.run(["push", bundle, "--to", url, "--token-file", tokenFile])
            #expect(pushed.status == 0, "\(pushed)")
            expectOneLineError(try await CLI.run(["push", bundle, "--to", url, "--token-file", tokenFile]), containing: ["HTTP 409"])

            let store = folder.appendingPathComponent("device").path
            expectOneLineError(try await CLI.run(["pull", "nothing", "--from", url, "--into", store]), containing: ["HTTP 404"])
            expectOneLineError(try await CLI.run(["pull", Self.id, "--from", url, "--into", store, "--max-mb", "0.0001"]), containing: ["more than the allowed"])
            expectOneLineError(try await CLI.run(["rollback", Self.id, "--into", store]), containing: ["not installed"])
            expectOneLineError(try await CLI.run(["update", "a/b", "--from", url, "--into", store]), containing: ["not valid"])
            expectOneLineError(try await CLI.run(["models", "--from", "http://127.0.0.1:1"]), containing: ["did not answer"])
            expectOneLineError(try await CLI.run(["serve", "--root", folder.path, "--port", "70000"]), containing: ["--port"])
            let emptyToken = folder.appendingPathComponent("empty-token")
            try Data().write(to: emptyToken)
            expectOneLineError(try await CLI.run(["serve", "--root", folder.path, "--token-file", emptyToken.path]), containing: ["empty"])
        }
    }

    @Test("push of a bundle whose model does not load: 422 naming the layer, one line, nothing stored")
    func pushRefusedWhenTheModelDoesNotLoad() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString
            expectOneLineError(
                try await CLI.run(["push", "Tests/Fixtures/Hostile/quantized-float-model.tiobundle", "--to", url, "--token-file", tokenFile]),
                containing: ["HTTP 422", "layer \"input\": model.quantized is true", "holds float32 values"])
            let models = try await CLI.run(["models", "--from", url])
            #expect(models.status == 0 && models.stdout.isEmpty, "\(models)")
        }
    }

    @Test("SIGTERM stops the server at once while an upload's load check hangs; the upload gets 503")
    func sigtermStopsHangingLoadCheck() async throws {
        try await withTemporaryDirectory { folder in
            let hang = folder.appendingPathComponent("hang")
            try Data("#!/bin/sh\necho '{\"phase\":\"loading\"}'\nsleep 120\n".utf8).write(to: hang)
            chmod(hang.path, 0o755)
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder, environment: ["TENSORIO_LOAD_CHECK": hang.path])
            let bundle = try Fixtures.bundle(version: "1", in: folder).path
            let url = server.url.absoluteString
            // Launched here, not in a Task: a Task may not start before the deadline below while other suites
            // hold the cooperative pool, and then it would push to a server already stopped.
            let push = try CLI.start(["push", bundle, "--to", url, "--token-file", tokenFile])
            // Wait until the check is running: the server has a child (started by one of its threads).
            let tasks = "/proc/\(server.process.processIdentifier)/task"
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let children = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap {
                    try? String(contentsOfFile: "\(tasks)/\($0)/children", encoding: .utf8)
                }.joined()
                if !children.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { break }
                usleep(50_000)  // blocking, as in ServeProcess.start: the deadline must not depend on the pool
            }
            #expect(ContinuousClock.now < deadline, "the load check never started")
            let clock = ContinuousClock()
            let start = clock.now
            server.stop(SIGTERM)
            #expect(start.duration(to: clock.now) < .seconds(10))
            try #require(!server.process.isRunning, "the server outlived SIGTERM: \(server.stderr)")
            #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0, "\(server.stderr)")
            expectOneLineError(try await push.result(), containing: ["HTTP 503", "stopped before it finished"])
        }
    }

    @Test("the server killed mid-upload and restarted: nothing half-written, the index and files agree, uploads work")
    func killedMidUpload() async throws {
        try await withTemporaryDirectory { folder in
            let tokenFile = try ServeProcess.writeTokenFile(in: folder)
            let root = folder.appendingPathComponent("root")
            var server = try await ServeProcess.start(root: root, arguments: ["--token-file", tokenFile])
            var result = try await CLI.run(["push", try Fixtures.bundle(version: "1", in: folder).path, "--to", server.url.absoluteString, "--token-file", tokenFile])
            #expect(result.status == 0, "\(result)")
            let acknowledged = try jsonObject(result)

            // Half of a 2 MB upload of version 2, then SIGKILL while the server is writing it.
            let connection = try RawConnection(port: try #require(server.url.port))
            let header = "POST /v1/models/\(Self.id)/versions/2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(Self.token)\r\nContent-Type: application/zip\r\nContent-Length: 2000000\r\n\r\n"
            try connection.send(Data(header.utf8))
            try connection.send(Data(repeating: 0x50, count: 1_000_000))
            let incoming = root.appendingPathComponent("incoming")
            let deadline = ContinuousClock.now + .seconds(20)
            var seen = false
            while ContinuousClock.now < deadline, !seen {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: incoming.path)) ?? []
                seen = files.contains { name in
                    ((try? FileManager.default.attributesOfItem(atPath: incoming.appendingPathComponent(name).path))?[.size] as? NSNumber)?.intValue ?? 0 > 0
                }
                if !seen { usleep(20_000) }  // blocking: the deadline must not depend on the pool
            }
            #expect(seen, "the server never started writing the upload")
            server.stop(SIGKILL)
            #expect(server.process.terminationReason == .uncaughtSignal)

            server = try await ServeProcess.start(root: root, arguments: ["--token-file", tokenFile])
            defer { server.stop() }
            let url = server.url.absoluteString
            #expect(server.stderr.contains("removed 1 unfinished upload"), "\(server.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: incoming.path).isEmpty)
            // The index and the files agree: only the acknowledged version, its archive whole.
            result = try await CLI.run(["models", Self.id, "--from", url, "--json"])
            let list = try jsonObject(result)
            let versions = try #require(list["versions"] as? [[String: Any]])
            #expect(versions.map { $0["version"] as? String } == ["1"])
            #expect(versions.first?["sha256"] as? String == acknowledged["sha256"] as? String)
            let archives = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("archives/\(Self.id)").path)
            #expect(archives == ["1.zip"])
            #expect(try FileDigest.sha256(of: root.appendingPathComponent("archives/\(Self.id)/1.zip")) == acknowledged["sha256"] as? String)
            let health = try await CLI.run(["models", "--from", url])
            expectSuccess(health, stdout: "\(Self.id)\t1\t1")

            // The version that was cut off can be uploaded now, and pulled.
            result = try await CLI.run(["push", try Fixtures.bundle(version: "2", in: folder).path, "--to", url, "--token-file", tokenFile])
            #expect(result.status == 0, "\(result)")
            result = try await CLI.run(["pull", Self.id, "--from", url, "--into", folder.appendingPathComponent("device").path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("/versions/2/"), "\(result)")
        }
    }
}
