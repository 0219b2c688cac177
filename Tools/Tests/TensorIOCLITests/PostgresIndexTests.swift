import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// Two `tensorio serve` processes on one PostgreSQL database and one archive folder: what one does, the
/// other answers at once. The database is the throwaway server `make test` starts on loopback
/// (`scripts/with-postgres.sh`).
@Suite("Repository servers sharing a PostgreSQL index", .enabled(if: PostgresTestDatabase.runs))
struct PostgresIndexTests {
    static let id = Fixtures.numberModelId

    /// Two servers on `folder/root` and one new database (returned with them).
    static func startPair(in folder: URL) async throws -> (ServeProcess, ServeProcess, database: String) {
        let database = try PostgresTestDatabase.make()
        let tokenFile = try ServeProcess.writeTokenFile(in: folder)
        let arguments = ["--token-file", tokenFile, "--database", database]
        let root = folder.appendingPathComponent("root")
        // Started together: both migrate the new database's schema at once.
        async let first = ServeProcess.start(root: root, arguments: arguments)
        async let second = ServeProcess.start(root: root, arguments: arguments)
        let (a, b) = try await (first, second)
        return (a, b, database)
    }

    /// What `body` returned or threw.
    static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    static func client(_ server: ServeProcess) -> RepositoryClient {
        RepositoryClient(baseURL: server.url, token: ServeProcess.writeToken, timeout: 60)
    }

    static func archive(version: String, in folder: URL) throws -> URL {
        let bundle = try Fixtures.bundle(version: version, in: folder)
        let archive = folder.appendingPathComponent("v\(version).zip")
        try BundleArchive.create(fromBundleAt: bundle, to: archive)
        return archive
    }

    @Test("an upload to one server is seen by the other at once, archive and all; a canonical move too")
    func uploadSeenByBoth() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, _) = try await Self.startPair(in: folder)
            defer { a.stop(); b.stop() }
            let stored = try await Self.client(a).upload(archiveAt: try Self.archive(version: "1", in: folder), modelId: Self.id, version: "1")
            let seen = try await Self.client(b).version("1", of: Self.id)
            #expect(seen == stored)
            #expect(try await Self.client(b).model(Self.id).canonicalVersion == "1")

            let archiveURL = b.url.appendingPathComponent("v1/models/\(Self.id)/versions/1/archive")
            let (bytes, _) = try await URLSession.shared.data(from: archiveURL)
            let downloaded = folder.appendingPathComponent("from-b.zip")
            try bytes.write(to: downloaded)
            #expect(try FileDigest.sha256(of: downloaded) == stored.sha256)

            _ = try await Self.client(b).upload(
                archiveAt: try Self.archive(version: "2", in: folder), modelId: Self.id, version: "2", canonical: false)
            #expect(try await Self.client(a).model(Self.id).canonicalVersion == "1")
            _ = try await Self.client(b).setCanonical(modelId: Self.id, version: "2")
            #expect(try await Self.client(a).model(Self.id).canonicalVersion == "2")
            #expect(try await Self.client(a).versions(of: Self.id).versions.map(\.version) == ["1", "2"])
            _ = try await Self.client(a).setUpgradeTo("2", version: "1", of: Self.id)
            #expect(try await Self.client(b).version("1", of: Self.id).upgradeTo == "2")
        }
    }

    @Test("the same version uploaded to both servers at once: one 201, one 409, one archive")
    func concurrentUploads() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, _) = try await Self.startPair(in: folder)
            defer { a.stop(); b.stop() }
            let (clientA, clientB) = (Self.client(a), Self.client(b))
            for version in ["1", "2", "3"] {
                let archive = try Self.archive(version: version, in: folder)
                async let first = Self.outcome { try await clientA.upload(archiveAt: archive, modelId: Self.id, version: version) }
                async let second = Self.outcome { try await clientB.upload(archiveAt: archive, modelId: Self.id, version: version) }
                let results = await [first, second]
                let stored = results.compactMap { try? $0.get() }
                let conflicts = results.filter {
                    if case .failure(let error as TensorIOError) = $0 { return error.code == .conflict }
                    return false
                }
                #expect(stored.count == 1 && conflicts.count == 1, "version \(version): \(results)")
                // Both servers describe the one stored version, and its archive is the uploaded file.
                #expect(try await Self.client(a).version(version, of: Self.id) == stored.first)
                #expect(try await Self.client(b).version(version, of: Self.id) == stored.first)
                let placed = folder.appendingPathComponent("root/archives/\(Self.id)/\(version).zip")
                #expect(try FileDigest.sha256(of: placed) == FileDigest.sha256(of: archive))
            }
            #expect(try await Self.client(b).versions(of: Self.id).versions.count == 3)
        }
    }

    @Test("a rollout changed through one server decides the next assignment on the other; a delete too")
    func rolloutAndDeleteSeenByBoth() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, _) = try await Self.startPair(in: folder)
            defer { a.stop(); b.stop() }
            let (clientA, clientB) = (Self.client(a), Self.client(b))
            for version in ["1", "2"] {
                _ = try await clientA.upload(
                    archiveAt: try Self.archive(version: version, in: folder), modelId: Self.id, version: version,
                    canonical: version == "1")
            }
            let devices = (0..<200).map { DeviceAttributes(installationId: "device-\($0)", platform: "linux") }
            func onVersion2(_ client: RepositoryClient) async throws -> Int {
                var count = 0
                for device in devices where try await client.assignment(modelId: Self.id, attributes: device).version.version == "2" {
                    count += 1
                }
                return count
            }
            #expect(try await onVersion2(clientB) == 0)
            _ = try await clientA.setRollout(RolloutUpdate(rules: [RolloutRule(name: "v2", percent: 10, version: "2")]), of: Self.id)
            let atTen = try await onVersion2(clientB)
            #expect(atTen > 0 && atTen < 60, "10% of 200 devices, seen through the other server: \(atTen)")
            #expect(try await onVersion2(clientA) == atTen)
            _ = try await clientB.rampRollout(of: Self.id, to: 100)
            #expect(try await onVersion2(clientA) == devices.count)
            // Version 2 is now in use by a rule: a delete through either server is refused, then forced.
            await #expect(throws: TensorIOError.self) { _ = try await clientA.deleteVersion("2", of: Self.id) }
            _ = try await clientB.rollBackRollout(of: Self.id, to: "1")
            #expect(try await onVersion2(clientA) == 0)
            _ = try await clientA.deleteVersion("2", of: Self.id)
            await #expect(throws: TensorIOError.self) { _ = try await clientB.version("2", of: Self.id) }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("root/archives/\(Self.id)/2.zip").path))
        }
    }

    @Test("a server starting beside a running one keeps the files the other may be writing")
    func sharedRecoveryKeepsRecentFiles() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, database) = try await Self.startPair(in: folder)
            defer { a.stop() }
            b.stop()
            // What another instance is in the middle of: an upload being received, an archive linked a
            // moment before its row commits.
            let root = folder.appendingPathComponent("root")
            let incoming = root.appendingPathComponent("incoming/in-progress")
            try Data("partial".utf8).write(to: incoming)
            let linked = root.appendingPathComponent("archives/\(Self.id)/9.zip")
            try FileManager.default.createDirectory(at: linked.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("being indexed".utf8).write(to: linked)
            let restarted = try await ServeProcess.start(
                root: root, arguments: ["--database", database])
            defer { restarted.stop() }
            #expect(FileManager.default.fileExists(atPath: incoming.path))
            #expect(FileManager.default.fileExists(atPath: linked.path))
            #expect(try await Self.client(restarted).health().status == "SERVING")
        }
    }

    @Test("a bad database URL or an unreachable database stops the server with one line")
    func badDatabase() async throws {
        try await withTemporaryDirectory { folder in
            let root = folder.appendingPathComponent("root").path
            var result = try await CLI.run(["serve", "--root", root, "--port", "0", "--database", "mysql://x@127.0.0.1/db"])
            expectOneLineError(result, containing: ["postgres://"])
            result = try await CLI.run(["serve", "--root", root, "--port", "0", "--database", "postgres://127.0.0.1/db"])
            expectOneLineError(result, containing: ["names no user"])
            result = try await CLI.run(["serve", "--root", root, "--port", "0", "--database", "postgres://u@127.0.0.1/db?sslmode=maybe"])
            expectOneLineError(result, containing: ["sslmode=maybe"])
            // The setting from the environment, named as such.
            result = try await CLI.run(
                ["serve", "--root", root, "--port", "0"], environment: ["TENSORIO_SERVE_DATABASE": "mysql://x@127.0.0.1/db"])
            expectOneLineError(result, containing: ["TENSORIO_SERVE_DATABASE", "postgres://"])
            // A port where nothing listens (this test's own, closed again).
            let closedPort = try LoopbackSocket.closedPort()
            result = try await CLI.run([
                "serve", "--root", root, "--port", "0",
                "--database", "postgres://tensorio@127.0.0.1:\(closedPort)/db?sslmode=disable",
            ])
            expectOneLineError(result, containing: ["cannot reach the PostgreSQL index at 127.0.0.1:\(closedPort)/db"])
        }
    }
}
