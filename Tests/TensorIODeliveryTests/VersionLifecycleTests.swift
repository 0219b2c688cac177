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

/// Deleting versions on a real server on loopback, and collecting the files no index row names.
@Suite("Version lifecycle")
struct VersionLifecycleTests {
    static let id = Fixtures.numberModelId

    /// A request with the write token (or none), answering the status and the body.
    static func request(
        _ server: TestServer, _ path: String, method: String, token: String? = TestServer.writeToken
    ) async throws -> (Int, String) {
        var request = URLRequest(url: try #require(URL(string: server.url.absoluteString + path)))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await UncachedHTTP.send(request)
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    static func archive(_ root: URL, _ version: String) -> URL {
        root.appendingPathComponent("archives/\(id)/\(version).zip")
    }

    @Test("delete: refused while canonical or an upgradeTo target, forced on demand; then 404 and no archive")
    func delete() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let root = folder.appendingPathComponent("server")
            let fileManager = FileManager.default
            try await Fixtures.push(version: "1", to: client, in: folder)
            try await Fixtures.push(version: "2", to: client, in: folder)
            try await Fixtures.push(version: "3", to: client, in: folder, canonical: false)
            _ = try await client.setUpgradeTo("3", version: "1", of: Self.id)
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            #expect(try await client.install(modelId: Self.id, version: "2", into: store)?.version == "2")

            let canonical = await expectTensorIOError(.conflict) { try await client.deleteVersion("2", of: Self.id) }
            #expect(canonical?.message.contains("canonical") == true, "\(String(describing: canonical))")
            let target = await expectTensorIOError(.conflict) { try await client.deleteVersion("3", of: Self.id) }
            #expect(target?.message.contains("upgradeTo of version 1") == true, "\(String(describing: target))")
            let (status, body) = try await Self.request(server, "/v1/models/\(Self.id)/versions/2", method: "DELETE")
            #expect(status == 409 && body.contains("\"version-in-use\"") && body.contains("force=true"), "\(status) \(body)")
            #expect(try await client.versions(of: Self.id).versions.map(\.version) == ["1", "2", "3"])
            for version in ["1", "2", "3"] { #expect(fileManager.fileExists(atPath: Self.archive(root, version).path)) }

            // Version 1 points elsewhere, but nothing points at it: deleted without force.
            let one = try await client.deleteVersion("1", of: Self.id)
            #expect(one.deleted.version == "1" && !one.forced && one.clearedUpgradeTo.isEmpty)
            #expect(one.model.versionCount == 2 && one.model.canonicalVersion == "2")
            #expect(!fileManager.fileExists(atPath: Self.archive(root, "1").path))
            await expectTensorIOError(.notFound) { try await client.version("1", of: Self.id) }
            #expect(try await UncachedHTTP.get(server.url.absoluteString + "/v1/models/\(Self.id)/versions/1/archive").0 == 404)
            await expectTensorIOError(.notFound) { try await client.deleteVersion("1", of: Self.id) }
            await expectTensorIOError(.notFound) { try await client.deleteVersion("1", of: "no-such-model") }

            // Forced: an upgradeTo target (the upgradeTo is cleared), then the canonical version.
            _ = try await client.setUpgradeTo("3", version: "2", of: Self.id)
            let three = try await client.deleteVersion("3", of: Self.id, force: true)
            #expect(three.forced && three.clearedUpgradeTo == ["2"])
            #expect(try await client.version("2", of: Self.id).upgradeTo == nil)
            let two = try await client.deleteVersion("2", of: Self.id, force: true)
            #expect(two.forced && two.deleted.canonical)
            #expect(two.model.canonicalVersion == nil && two.model.versionCount == 0)
            #expect(try await client.model(Self.id).versionCount == 0)  // the model stays, with no versions
            #expect(try await client.health().versions == 0)
            for version in ["2", "3"] { #expect(!fileManager.fileExists(atPath: Self.archive(root, version).path)) }

            // A device on a deleted version keeps it: there is nothing to update to.
            #expect(try await client.install(modelId: Self.id, into: store) == nil)
            #expect(try store.current(Self.id)?.version == "2")
            // The next upload becomes canonical, as a model's first one does.
            #expect(try await Fixtures.push(version: "4", to: client, in: folder, canonical: false).canonical)
            // A deleted version's number can be uploaded again.
            #expect(try await Fixtures.push(version: "2", to: client, in: folder).version == "2")
        }
    }

    @Test("delete: refused while rollout rules assign the version (as its version or an A/B arm), forced on demand")
    func deleteNamedByRollout() async throws {
        try await withServer { server, folder in
            let client = server.client()
            for version in ["1", "2", "3"] {
                try await Fixtures.push(version: version, to: client, in: folder, canonical: version == "1")
            }
            _ = try await client.setRollout(RolloutUpdate(rules: [
                RolloutRule(name: "beta", percent: 5, version: "2"),
                RolloutRule(name: "ab", split: [RolloutArm(version: "1", weight: 1), RolloutArm(version: "3", weight: 1)]),
            ]), of: Self.id)
            let named = await expectTensorIOError(.conflict) { try await client.deleteVersion("2", of: Self.id) }
            #expect(named?.message.contains("rollout rule beta") == true, "\(String(describing: named))")
            let arm = await expectTensorIOError(.conflict) { try await client.deleteVersion("3", of: Self.id) }
            #expect(arm?.message.contains("rollout rule ab") == true, "\(String(describing: arm))")
            // Forced: the rules stay; a device the deleted version's rule takes gets the fallback instead.
            _ = try await client.deleteVersion("2", of: Self.id, force: true)
            #expect(try await client.rollout(of: Self.id).rules.count == 2)
            let assigned = try await client.assignment(modelId: Self.id, attributes: DeviceAttributes(installationId: "device-1"))
            #expect(["1", "3"].contains(assigned.version.version))
            // Once the rules no longer name it, version 3 goes without force.
            _ = try await client.rollBackRollout(of: Self.id)
            #expect(try await client.deleteVersion("3", of: Self.id).deleted.version == "3")
        }
    }

    @Test("delete and collect-garbage check the token, the identifiers and their parameters")
    func hostileRequests() async throws {
        try await withServer { server, folder in
            try await Fixtures.push(version: "1", to: server.client(), in: folder, canonical: true)
            let path = "/v1/models/\(Self.id)/versions/1"
            #expect(try await Self.request(server, path, method: "DELETE", token: nil).0 == 401)
            #expect(try await Self.request(server, path, method: "DELETE", token: "wrong").0 == 401)
            #expect(try await Self.request(server, "/v1/admin/collect-garbage", method: "POST", token: nil).0 == 401)
            for bad in ["..", "a..b", ".hidden", "%2E%2E", "a%2Fb", String(repeating: "x", count: 129)] {
                let (status, body) = try await Self.request(server, "/v1/models/\(bad)/versions/1", method: "DELETE")
                #expect(status == 400 || status == 404, "\(bad): \(status)")
                if status == 400 { #expect(body.contains("\"invalid-identifier\""), "\(bad): \(body)") }
                let (versionStatus, versionBody) = try await Self.request(server, "/v1/models/\(Self.id)/versions/\(bad)", method: "DELETE")
                // `…/versions/..` reaches the server as `/v1/models/{id}`, which has no DELETE: a JSON 405.
                #expect([400, 404, 405].contains(versionStatus), "\(bad): \(versionStatus)")
                if versionStatus == 400 { #expect(versionBody.contains("\"invalid-identifier\""), "\(bad): \(versionBody)") }
            }
            let (status, body) = try await Self.request(server, path + "?force=yes", method: "DELETE")
            #expect(status == 400 && body.contains("force"), "\(status) \(body)")
            for bad in ["-1", "abc", "1.5", "315360001", "99999999999999999999999"] {
                let (status, body) = try await Self.request(server, "/v1/admin/collect-garbage?olderThan=\(bad)", method: "POST")
                #expect(status == 400 && body.contains("olderThan"), "\(bad): \(status) \(body)")
            }
            await expectTensorIOError(.invalidIdentifier) { try await server.client().deleteVersion("../1", of: Self.id) }
            #expect(try await server.client().version("1", of: Self.id).canonical)  // nothing was deleted
        }
        try await withServer(writeToken: nil) { server, _ in
            let (status, body) = try await Self.request(server, "/v1/models/\(Self.id)/versions/1", method: "DELETE", token: "x")
            #expect(status == 403 && body.contains("read-only"), "\(status) \(body)")
            #expect(try await Self.request(server, "/v1/admin/collect-garbage", method: "POST", token: "x").0 == 403)
        }
    }

    @Test("garbage collection: unindexed files past the grace period go; younger ones, indexed ones and symlinks stay")
    func collectGarbage() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let v1 = try await Fixtures.push(version: "1", to: client, in: folder)
            let root = folder.appendingPathComponent("server")
            let fileManager = FileManager.default
            let hoursAgo = Date(timeIntervalSinceNow: -2 * 3600)
            func place(_ url: URL, old: Bool) throws {
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try fileManager.copyItem(at: Self.archive(root, "1"), to: url)
                if old { try fileManager.setAttributes([.modificationDate: hoursAgo], ofItemAtPath: url.path) }
            }
            // An archive placed a moment ago by another instance (no row yet), and one left by a crash.
            let young = Self.archive(root, "9")
            let old = Self.archive(root, "8")
            try place(young, old: false)
            try place(old, old: true)
            let ghost = root.appendingPathComponent("archives/ghost/1.zip")
            try place(ghost, old: true)
            let oldUpload = root.appendingPathComponent("incoming/\(UUID().uuidString)")
            let youngUpload = root.appendingPathComponent("incoming/\(UUID().uuidString)")
            try place(oldUpload, old: true)
            try place(youngUpload, old: false)
            // Symbolic links out of the storage folder: never followed, never removed.
            let outside = folder.appendingPathComponent("outside")
            try place(outside.appendingPathComponent("keep.zip"), old: true)
            try place(outside.appendingPathComponent("7.zip"), old: true)
            try fileManager.createSymbolicLink(at: root.appendingPathComponent("archives/linked"), withDestinationURL: outside)
            try fileManager.createSymbolicLink(at: Self.archive(root, "7"), withDestinationURL: outside.appendingPathComponent("7.zip"))

            let first = try await client.collectGarbage()
            #expect(first.olderThan == 3600 && first.complete)
            #expect(Set(first.removedArchives) == ["\(Self.id)/8.zip", "ghost/1.zip"], "\(first)")
            #expect(first.removedIncoming == [oldUpload.lastPathComponent], "\(first)")
            #expect(first.keptRecent == 2, "\(first)")
            #expect(Set(first.skipped) == ["archives/linked", "archives/\(Self.id)/7.zip"], "\(first)")
            #expect(fileManager.fileExists(atPath: young.path) && fileManager.fileExists(atPath: youngUpload.path))
            #expect(!fileManager.fileExists(atPath: old.path) && !fileManager.fileExists(atPath: oldUpload.path))
            #expect(!fileManager.fileExists(atPath: ghost.deletingLastPathComponent().path), "the emptied model folder goes too")

            let second = try await client.collectGarbage(olderThan: 0)
            #expect(second.removedArchives == ["\(Self.id)/9.zip"], "\(second)")
            #expect(second.removedIncoming == [youngUpload.lastPathComponent], "\(second)")
            #expect(Set(second.skipped) == ["archives/linked", "archives/\(Self.id)/7.zip"], "\(second)")
            for kept in ["keep.zip", "7.zip"] {
                #expect(fileManager.fileExists(atPath: outside.appendingPathComponent(kept).path), "\(kept) outside was touched")
            }
            #expect(fileManager.fileExists(atPath: Self.archive(root, "1").path))
            #expect(try FileDigest.sha256(of: Self.archive(root, "1")) == v1.sha256)
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            #expect(try await client.install(modelId: Self.id, into: store)?.version == "1")
            #expect(try await client.health().status == "SERVING")
        }
    }

    @Test("directory listings stop at their budget and describe links without following them")
    func boundedListing() async throws {
        try withTemporaryDirectory { folder in
            for index in 0..<10 { try Data().write(to: folder.appendingPathComponent("f\(index)")) }
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link"), withDestinationURL: folder.appendingPathComponent("f0"))
            var budget = 4
            let partial = DirectoryListing.names(in: folder, budget: &budget)
            #expect(partial.names.count == 4 && !partial.complete && budget == 0)
            budget = 100
            let whole = DirectoryListing.names(in: folder, budget: &budget)
            #expect(whole.names.count == 11 && whole.complete && budget == 89)
            #expect(DirectoryListing.entry(folder.appendingPathComponent("link"))?.kind == .symbolicLink)
            #expect(DirectoryListing.entry(folder.appendingPathComponent("f1"))?.kind == .file)
            #expect(DirectoryListing.entry(folder)?.kind == .folder)
            #expect(DirectoryListing.entry(folder.appendingPathComponent("missing")) == nil)
            budget = 10
            #expect(DirectoryListing.names(in: folder.appendingPathComponent("missing"), budget: &budget).names.isEmpty)
        }
    }

    @Test("start-up recovery keeps unindexed files younger than its grace period, for instances sharing a folder")
    func recoveryGracePeriod() async throws {
        try await withTemporaryDirectory { folder in
            let root = folder.appendingPathComponent("server")
            let server = try await TestServer.start(root: root)
            try await Fixtures.push(version: "1", to: server.client(), in: folder)
            await server.stop()
            let orphan = Self.archive(root, "2")
            try FileManager.default.copyItem(at: Self.archive(root, "1"), to: orphan)

            let shared = try RepositoryStorage(root: root, recoveryGracePeriod: RepositoryStorage.defaultGracePeriod)
            try await shared.recover()
            #expect(shared.recovery.removedOrphans.isEmpty && shared.recovery.problems.isEmpty)
            #expect(FileManager.default.fileExists(atPath: orphan.path))
            let alone = try RepositoryStorage(root: root)
            try await alone.recover()
            #expect(alone.recovery.removedOrphans == ["\(Self.id)/2.zip"])
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
        }
    }
}
#endif
