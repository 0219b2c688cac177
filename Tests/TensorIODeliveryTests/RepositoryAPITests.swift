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

/// The server's JSON API through the client: uploads, listings, details, errors and tokens.
@Suite("Repository API")
struct RepositoryAPITests {
    @Test("push, list (paged), details, versions, canonical pointer, 409 on a second push")
    func pushAndList() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let first = try await Fixtures.push(version: "1", to: client, in: folder, notes: "first")
            #expect(first.canonical)
            #expect(first.notes == "first")
            #expect(first.bundleName == Fixtures.numberBundleName)
            #expect(FileDigest.isSHA256(first.sha256))
            let second = try await Fixtures.push(version: "2", to: client, in: folder, canonical: false)
            #expect(!second.canonical)
            #expect(second.sequence > first.sequence)

            // The SHA-256 and size the server announces are those of the archive on its disk.
            let stored = server.server.storage.root.appendingPathComponent("archives/\(Fixtures.numberModelId)/2.zip")
            #expect(try FileDigest.sha256(of: stored) == second.sha256)
            #expect((try FileManager.default.attributesOfItem(atPath: stored.path)[.size] as? NSNumber)?.int64Value == second.size)

            var model = try await client.model(Fixtures.numberModelId)
            #expect(model.canonicalVersion == "1")
            #expect(model.versionCount == 2)
            model = try await client.setCanonical(modelId: Fixtures.numberModelId, version: "2")
            #expect(model.canonicalVersion == "2")
            let list = try await client.versions(of: Fixtures.numberModelId)
            #expect(list.versions.map(\.version) == ["1", "2"])
            #expect(list.versions.map(\.canonical) == [false, true])
            #expect(try await client.version("1", of: Fixtures.numberModelId).sha256 == first.sha256)

            await expectTensorIOError(.conflict) { try await Fixtures.push(version: "2", to: client, in: folder) }
            await expectTensorIOError(.notFound) { try await client.model("nothing-here") }
            await expectTensorIOError(.notFound) { try await client.version("9", of: Fixtures.numberModelId) }
            await expectTensorIOError(.notFound) { try await client.setCanonical(modelId: Fixtures.numberModelId, version: "9") }

            // Paging: five models, two a page.
            for name in ["a", "b", "c", "d"] {
                try await Fixtures.push(version: "1", to: client, in: folder, modelId: "model-\(name)")
            }
            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try await client.models(limit: 2, after: after)
                #expect(page.models.count <= 2)
                seen += page.models.map(\.id)
                after = page.next
                pages += 1
            } while after != nil && pages < 10
            #expect(seen == [Fixtures.numberModelId, "model-a", "model-b", "model-c", "model-d"])
            #expect(pages == 3)
            #expect(try await client.allModels().map(\.id) == seen)
            let health = try await client.health()
            #expect(health.status == "SERVING")
            #expect(health.models == 5)
            #expect(health.versions == 6)
        }
    }

    @Test("identifiers with path tricks are refused by the server with a JSON 400")
    func identifiers() async throws {
        try await withServer { server, _ in
            for bad in ["..", "a..b", ".hidden", "-x", "a%2Fb", "%2E%2E", String(repeating: "x", count: 129), "a%20b"] {
                let (status, body) = try await UncachedHTTP.get(server.url.appendingPathComponent("v1/models").absoluteString + "/\(bad)")
                #expect(status == 400 || status == 404, "\(bad): \(status)")
                if status == 400 {
                    #expect(body.contains("\"invalid-identifier\""), "\(bad): \(body)")
                }
            }
            let (status, body) = try await UncachedHTTP.get(server.url.absoluteString + "/v1/models/a..b/versions")
            #expect(status == 400)
            #expect(body.contains("invalid-identifier"))
            #expect(!RepositoryIdentifier.isValid("../etc"))
            #expect(!RepositoryIdentifier.isValid("a/b"))
            #expect(!RepositoryIdentifier.isValid(""))
            #expect(RepositoryIdentifier.isValid("mobilenet_v2-1.0.224"))
            await expectTensorIOError(.invalidIdentifier) { try await server.client().model("../etc") }
        }
    }

    @Test("wrong or missing token: 401 with WWW-Authenticate; protected reads; read-only server")
    func tokens() async throws {
        try await withServer(readToken: "reader") { server, folder in
            let bundle = try Fixtures.bundle(version: "1", in: folder)
            let archive = try Fixtures.archive(of: bundle, in: folder)
            for token in [nil, "wrong", "reader"] {
                await expectTensorIOError(.unauthorized) {
                    try await server.client(token: token).upload(archiveAt: archive, modelId: "m", version: "1")
                }
            }
            await expectTensorIOError(.unauthorized) { try await server.client(token: nil).models() }
            await expectTensorIOError(.unauthorized) { try await server.client(token: "wrong").models() }
            _ = try await server.client().upload(archiveAt: archive, modelId: "m", version: "1")
            #expect(try await server.client(token: "reader").models().models.map(\.id) == ["m"])
            #expect(try await server.client(token: nil).health().status == "SERVING")  // open for load balancers

            var request = URLRequest(url: server.url.appendingPathComponent("v1/models"))
            request.setValue("Bearer wrong", forHTTPHeaderField: "Authorization")
            let (data, response) = try await UncachedHTTP.send(request)
            #expect(response.statusCode == 401)
            #expect(response.value(forHTTPHeaderField: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(String(decoding: data, as: UTF8.self).contains("\"unauthorized\""))
        }
        try await withServer(writeToken: nil) { server, folder in
            await expectTensorIOError(.unauthorized) { try await Fixtures.push(version: "1", to: server.client(), in: folder) }
            let health = try await server.client().health()
            #expect(health.versions == 0)
        }
    }

    @Test("an upload over the size limit is refused with 413 and leaves nothing behind")
    func oversized() async throws {
        try await withServer(maximumUploadBytes: 4000) { server, folder in
            let error = await expectTensorIOError(.tooLarge) {
                try await Fixtures.push(version: "1", to: server.client(), in: folder, paddingBytes: 20_000)
            }
            #expect(error?.message.contains("limit") == true)
            try await Fixtures.push(version: "2", to: server.client(), in: folder)
            #expect(try await server.client().versions(of: Fixtures.numberModelId).versions.map(\.version) == ["2"])
            let incoming = server.server.storage.root.appendingPathComponent("incoming")
            #expect(try FileManager.default.contentsOfDirectory(atPath: incoming.path).isEmpty)
        }
    }

    @Test("invalid bundles and archives are refused with a JSON error naming the problem")
    func invalidUploads() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let notZip = folder.appendingPathComponent("not.zip")
            try Data("this is not a zip".utf8).write(to: notZip)
            let error = await expectTensorIOError(.invalidArchive) { try await client.upload(archiveAt: notZip, modelId: "m", version: "1") }
            #expect(error?.message.contains("HTTP 422") == true)

            let invalid = try Fixtures.archive(
                of: Fixtures.bundlesDirectory.appendingPathComponent("invalid-model-incorrect-labels-file.tiobundle"), in: folder)
            let bundleError = await expectTensorIOError(.invalidBundle) { try await client.upload(archiveAt: invalid, modelId: "m", version: "1") }
            #expect(bundleError?.message.contains("labels") == true)

            let twoFolders = try Fixtures.handmadeZip(
                try Fixtures.validEntries() + [.file("other.tiobundle/model.json", Data("{}".utf8))], in: folder)
            await expectTensorIOError(.invalidArchive) { try await client.upload(archiveAt: twoFolders, modelId: "m", version: "1") }
            #expect(try await client.health().versions == 0)
        }
    }

    @Test("zip-slip, absolute paths and symbolic links are refused on upload and on install", arguments: [
        Fixtures.Entry.file("../escaped.txt", Data("x".utf8)),
        Fixtures.Entry.file("\(Fixtures.numberBundleName)/../../escaped.txt", Data("x".utf8)),
        Fixtures.Entry.file("/tmp/escaped-absolute.txt", Data("x".utf8)),
        Fixtures.Entry.symlink("\(Fixtures.numberBundleName)/assets", target: "/etc"),
    ])
    func unsafeArchives(bad: Fixtures.Entry) async throws {
        try await withServer { server, folder in
            let zip = try Fixtures.handmadeZip(try Fixtures.validEntries() + [bad], in: folder)
            let error = await expectTensorIOError(.unsafeArchive) {
                try await server.client().upload(archiveAt: zip, modelId: "m", version: "1")
            }
            #expect(error?.message.contains("entry") == true)
            #expect(try await server.client().health().versions == 0)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.txt").path))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/escaped-absolute.txt"))
            #expect(!FileManager.default.fileExists(atPath: server.server.storage.root.appendingPathComponent("escaped.txt").path))

            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            expectTensorIOError(.unsafeArchive) { try store.install(archiveAt: zip, modelId: "m", version: "1") }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.txt").path))
            #expect(try store.current("m") == nil)
        }
    }

    @Test("archive downloads: Range (206, 416), ETag, If-None-Match (304), stale If-Range (200)")
    func ranges() async throws {
        try await withServer { server, folder in
            let details = try await Fixtures.push(version: "1", to: server.client(), in: folder)
            let url = server.url.appendingPathComponent("v1/models/\(Fixtures.numberModelId)/versions/1/archive")
            let whole = try Data(contentsOf: server.server.storage.root.appendingPathComponent("archives/\(Fixtures.numberModelId)/1.zip"))
            let etag = "\"\(details.sha256)\""

            var (data, response) = try await UncachedHTTP.send(URLRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(data == whole)
            #expect(response.value(forHTTPHeaderField: "ETag") == etag)
            #expect(response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")

            for (header, expected) in [("bytes=10-19", 10...19), ("bytes=100-", 100...(whole.count - 1)), ("bytes=-50", (whole.count - 50)...(whole.count - 1))] {
                var request = URLRequest(url: url)
                request.setValue(header, forHTTPHeaderField: "Range")
                (data, response) = try await UncachedHTTP.send(request)
                #expect(response.statusCode == 206, "\(header)")
                #expect(data == whole.subdata(in: expected.lowerBound..<(expected.upperBound + 1)), "\(header)")
                #expect(response.value(forHTTPHeaderField: "Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound)/\(whole.count)")
            }
            var request = URLRequest(url: url)
            request.setValue("bytes=\(whole.count)-", forHTTPHeaderField: "Range")
            (_, response) = try await UncachedHTTP.send(request)
            #expect(response.statusCode == 416)
            #expect(response.value(forHTTPHeaderField: "Content-Range") == "bytes */\(whole.count)")

            request = URLRequest(url: url)
            request.setValue(etag, forHTTPHeaderField: "If-None-Match")
            (_, response) = try await UncachedHTTP.send(request)
            #expect(response.statusCode == 304)

            request = URLRequest(url: url)
            request.setValue("bytes=10-", forHTTPHeaderField: "Range")
            request.setValue("\"stale\"", forHTTPHeaderField: "If-Range")
            (data, response) = try await UncachedHTTP.send(request)
            #expect(response.statusCode == 200)
            #expect(data == whole)
        }
    }
}
#endif
