#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIODelivery
import TensorIORepositoryServer
import Testing
import TensorIOTestSupport

/// What start-up does with what a crash left behind: unfinished uploads and unacknowledged archives are
/// removed; an indexed version whose archive is missing is reported, never hidden.
@Suite("Repository recovery")
struct RecoveryTests {
    @Test("restart: incoming swept, unindexed archives removed, acknowledged versions intact")
    func sweep() async throws {
        try await withTemporaryDirectory { folder in
            let root = folder.appendingPathComponent("server")
            var server = try await TestServer.start(root: root)
            let v1 = try await Fixtures.push(version: "1", to: server.client(), in: folder)
            await server.stop()

            // What a crash mid-upload leaves: a half-written body and a half-unpacked folder in incoming/,
            // and an archive linked into place whose transaction never committed.
            let fileManager = FileManager.default
            try Data(repeating: 1, count: 5000).write(to: root.appendingPathComponent("incoming/\(UUID().uuidString)"))
            try fileManager.createDirectory(at: root.appendingPathComponent("incoming/\(UUID().uuidString).d/x.tiobundle"), withIntermediateDirectories: true)
            let orphan = root.appendingPathComponent("archives/\(Fixtures.numberModelId)/2.zip")
            try fileManager.copyItem(at: root.appendingPathComponent("archives/\(Fixtures.numberModelId)/1.zip"), to: orphan)
            try fileManager.createDirectory(at: root.appendingPathComponent("archives/ghost"), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: root.appendingPathComponent("archives/ghost/1.zip"))

            server = try await TestServer.start(root: root)
            let recovery = server.server.storage.recovery
            #expect(recovery.removedIncoming.count == 2)
            #expect(Set(recovery.removedOrphans) == ["\(Fixtures.numberModelId)/2.zip", "ghost/1.zip"])
            #expect(recovery.problems.isEmpty)
            #expect(try fileManager.contentsOfDirectory(atPath: root.appendingPathComponent("incoming").path).isEmpty)
            #expect(!fileManager.fileExists(atPath: orphan.path))

            let client = server.client()
            #expect(try await client.health().status == "SERVING")
            #expect(try await client.versions(of: Fixtures.numberModelId).versions.map(\.sha256) == [v1.sha256])
            // The version that never committed can be uploaded now.
            let v2 = try await Fixtures.push(version: "2", to: client, in: folder)
            #expect(try FileDigest.sha256(of: orphan) == v2.sha256)
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            #expect(try await client.install(modelId: Fixtures.numberModelId, into: store)?.version == "2")
            await server.stop()
        }
    }

    @Test("an indexed version whose archive is missing is reported at start-up and by /v1/health")
    func missingArchive() async throws {
        try await withTemporaryDirectory { folder in
            let root = folder.appendingPathComponent("server")
            var server = try await TestServer.start(root: root)
            try await Fixtures.push(version: "1", to: server.client(), in: folder)
            await server.stop()
            try FileManager.default.removeItem(at: root.appendingPathComponent("archives/\(Fixtures.numberModelId)/1.zip"))

            server = try await TestServer.start(root: root)
            #expect(server.server.storage.recovery.problems.count == 1)
            #expect(server.server.storage.recovery.problems.first?.contains("missing") == true)
            let health = try await server.client().health()
            #expect(health.status == "DEGRADED")
            #expect(health.problems.count == 1)
            await server.stop()
        }
    }
}
#endif
