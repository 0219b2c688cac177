#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// `tensorio delete`, `tensorio collect-garbage`, and two `tensorio pull` processes at once, against a real
/// `tensorio serve` process.
@Suite("tensorio delete, collect-garbage; concurrent pulls")
struct LifecycleCommandTests {
    static let id = Fixtures.numberModelId

    /// The number fixture as version `version`, with 1 MB of random bytes so that a download takes a while.
    static func paddedBundle(version: String, in folder: URL) throws -> URL {
        let bundle = try Fixtures.bundle(version: version, in: folder)
        let assets = bundle.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(1 << 17)).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        try Data(bytes).write(to: assets.appendingPathComponent("padding.bin"))
        return bundle
    }

    @Test("two tensorio pull processes into one store at once: both succeed, the version is installed once")
    func concurrentPulls() async throws {
        try await withTemporaryDirectory { folder in
            let tokenFile = try ServeProcess.writeTokenFile(in: folder)
            // 2 MB/s: each download lasts about half a second, so the two processes overlap.
            let server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--token-file", tokenFile, "--download-rate", "2000000"])
            defer { server.stop() }
            let url = server.url.absoluteString
            let store = folder.appendingPathComponent("device").path
            for round in 1...6 {
                let version = String(round)
                let push = try await CLI.run([
                    "push", try Self.paddedBundle(version: version, in: folder).path, "--to", url, "--token-file", tokenFile,
                ])
                #expect(push.status == 0, "\(push)")
                let first = try CLI.start(["pull", Self.id, "--from", url, "--into", store])
                let second = try CLI.start(["pull", Self.id, "--from", url, "--into", store])
                let path = "\(store)/\(Self.id)/versions/\(version)/\(Self.id).tiobundle"
                for result in [try await first.result(), try await second.result()] {
                    expectSuccess(result, stdout: path)
                }
                let pointer = try String(contentsOfFile: "\(store)/\(Self.id)/current.json", encoding: .utf8)
                #expect(pointer.contains("\"current\":\"\(version)\""), "round \(round): \(pointer)")
                let validated = try await CLI.run(["validate", path])
                expectSuccess(validated, stdout: "\(path): valid")
                let left = (try? FileManager.default.contentsOfDirectory(atPath: "\(store)/.partial/\(Self.id)")) ?? []
                #expect(left.isEmpty, "round \(round): \(left)")
            }
        }
    }

    @Test("a partial download is kept while its tensorio pull lives, removed as stale once it was killed")
    func killedPullLeavesStalePartial() async throws {
        try await withTemporaryDirectory { folder in
            let tokenFile = try ServeProcess.writeTokenFile(in: folder)
            // 100 kB/s: the 1 MB download lasts about 10 s, far longer than the checks below.
            let server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--token-file", tokenFile, "--download-rate", "100000"])
            defer { server.stop() }
            let url = server.url.absoluteString
            let push = try await CLI.run(["push", try Self.paddedBundle(version: "1", in: folder).path, "--to", url, "--token-file", tokenFile])
            #expect(push.status == 0, "\(push)")
            let directory = folder.appendingPathComponent("device")
            let partial = directory.appendingPathComponent(".partial/\(Self.id)/1.zip")
            let pull = try CLI.start(["pull", Self.id, "--from", url, "--into", directory.path])
            let deadline = ContinuousClock.now + .seconds(60)
            while pull.process.isRunning, ContinuousClock.now < deadline,
                  ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.intValue ?? 0 == 0 {
                usleep(20_000)
            }
            #expect(pull.process.isRunning, "the pull ended before its download was seen")
            // Held by a live process: kept, whatever its age.
            let store = try ModelStore(directory: directory, partialLifetime: 0)
            #expect(FileManager.default.fileExists(atPath: partial.path))
            #expect(store.removeStalePartialDownloads(olderThan: 0).isEmpty)

            kill(pull.process.processIdentifier, SIGKILL)
            let killed = try await pull.result()
            #expect(!killed.exited, "\(killed)")
            // Its lock died with it: the partial file is anyone's now, and stale with no lifetime.
            #expect(store.removeStalePartialDownloads(olderThan: 0) == ["\(Self.id)/1.zip", "\(Self.id)/1.zip.etag"].sorted())
            #expect(!FileManager.default.fileExists(atPath: partial.path))
        }
    }

    @Test("tensorio delete refuses the canonical version in one line, deletes with --force; collect-garbage reports")
    func deleteAndCollect() async throws {
        try await withTemporaryDirectory { folder in
            let (server, tokenFile) = try await ServeProcess.start(withWriteTokenIn: folder)
            defer { server.stop() }
            let url = server.url.absoluteString
            for version in ["1", "2"] {
                let push = try await CLI.run(["push", try Fixtures.bundle(version: version, in: folder).path, "--to", url, "--token-file", tokenFile])
                #expect(push.status == 0, "\(push)")
            }

            var result = try await CLI.run(["delete", Self.id, "2", "--from", url, "--token-file", tokenFile])
            expectOneLineError(result, containing: ["in use", "canonical"])
            result = try await CLI.run(["delete", Self.id, "1", "--from", url])
            expectOneLineError(result, containing: ["401"])

            result = try await CLI.run(["delete", Self.id, "1", "--from", url, "--token-file", tokenFile])
            #expect(result.status == 0, "\(result)")
            var answer = try jsonObject(result)
            #expect((answer["deleted"] as? [String: Any])?["version"] as? String == "1", "\(answer)")
            #expect(answer["forced"] as? Bool == false && answer["cleared_upgrade_to"] as? [String] == [], "\(answer)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("root/archives/\(Self.id)/1.zip").path))

            result = try await CLI.run(["delete", Self.id, "2", "--from", url, "--token-file", tokenFile, "--force"])
            #expect(result.status == 0, "\(result)")
            answer = try jsonObject(result)
            #expect(answer["forced"] as? Bool == true, "\(answer)")
            let model = try #require(answer["model"] as? [String: Any], "\(answer)")
            #expect(model["version_count"] as? Int == 0 && model["canonical_version"] as? String == nil, "\(model)")

            result = try await CLI.run(["delete", Self.id, "2", "--from", url, "--token-file", tokenFile])
            expectOneLineError(result, containing: ["no version 2"])
            result = try await CLI.run(["delete", Self.id, "../2", "--from", url, "--token-file", tokenFile])
            expectOneLineError(result)

            try Data("junk".utf8).write(to: folder.appendingPathComponent("root/archives/\(Self.id)/9.zip"))
            result = try await CLI.run(["collect-garbage", "--from", url, "--token-file", tokenFile])
            #expect(result.status == 0, "\(result)")
            answer = try jsonObject(result)
            #expect(answer["removed_archives"] as? [String] == [] && answer["kept_recent"] as? Int == 1, "\(answer)")
            result = try await CLI.run(["collect-garbage", "--from", url, "--token-file", tokenFile, "--older-than", "0"])
            answer = try jsonObject(result)
            #expect(answer["removed_archives"] as? [String] == ["\(Self.id)/9.zip"], "\(answer)")
            result = try await CLI.run(["collect-garbage", "--from", url, "--token-file", tokenFile, "--older-than", "-1"])
            expectUsageError(result, containing: ["--older-than"])
        }
    }
}
