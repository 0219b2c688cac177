#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIODelivery
import TensorIORepositoryServer
import TensorIOVision
import Testing
import TensorIOTestSupport

/// The client side against a real server on loopback: download, install, update, rollback, resume, and
/// every way an update can go wrong leaving the installed version usable.
@Suite("Model delivery")
struct ModelDeliveryTests {
    static let id = Fixtures.numberModelId

    @Test("pull, update, rollback; events in order; older versions pruned")
    func pullUpdateRollback() async throws {
        try await withServer { server, folder in
            let client = server.client(token: nil)
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            try await Fixtures.push(version: "1", to: server.client(), in: folder)

            var events: [String] = []
            for await event in client.download(modelId: Self.id, into: store) {
                switch event {
                case .started(let details, let offset): events.append("started \(details.version) \(offset)")
                case .progress: if events.last != "progress" { events.append("progress") }
                case .verified: events.append("verified")
                case .installed(let model): events.append("installed \(model.version)")
                case .upToDate: events.append("up to date")
                case .failed(let error): events.append("failed \(error)")
                }
            }
            #expect(events == ["started 1 0", "progress", "verified", "installed 1"])
            let one = try #require(try store.current(Self.id))
            #expect(one.version == "1")
            #expect(try ModelBundle(at: one.bundleURL).version == "1")
            #expect(try await client.install(modelId: Self.id, into: store) == nil)  // up to date

            try await Fixtures.push(version: "2", to: server.client(), in: folder)
            #expect(try await client.checkForUpdate(modelId: Self.id, installed: one)?.version == "2")
            let two = try #require(try await client.install(modelId: Self.id, into: store))
            #expect(two.version == "2")
            #expect(try store.current(Self.id)?.version == "2")
            #expect(try store.previous(Self.id)?.version == "1")
            #expect(try ModelBundle(at: try #require(try store.current(Self.id)).bundleURL).version == "2")

            let back = try store.rollback(Self.id)
            #expect(back.version == "1")
            #expect(try store.current(Self.id)?.version == "1")
            #expect(try store.previous(Self.id)?.version == "2")
            #expect(try ModelBundle(at: back.bundleURL).version == "1")
            #expect(try store.rollback(Self.id).version == "2")  // a second rollback undoes the first
            try store.rollback(Self.id)

            // From 1 (rolled back), the update goes to 2 again, reusing nothing stale.
            #expect(try await client.install(modelId: Self.id, into: store)?.version == "2")
            try await Fixtures.push(version: "3", to: server.client(), in: folder)
            #expect(try await client.install(modelId: Self.id, into: store)?.version == "3")
            #expect(try store.versions(Self.id).map(\.version).sorted() == ["2", "3"])  // 1 pruned
            #expect(!FileManager.default.fileExists(atPath: store.directory.appendingPathComponent("\(Self.id)/versions/1").path))
            expectTensorIOError(.notFound) { try store.installed(Self.id, version: "1") }
        }
    }

    @Test("only if newer; upgradeTo; explicit versions; size limit")
    func conditions() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            try await Fixtures.push(version: "1", to: client, in: folder)
            try await Fixtures.push(version: "2", to: client, in: folder)
            try await client.install(modelId: Self.id, into: store)
            #expect(try store.current(Self.id)?.version == "2")

            // The server moves its canonical pointer back: not followed by default, followed on request.
            _ = try await client.setCanonical(modelId: Self.id, version: "1")
            #expect(try await client.install(modelId: Self.id, into: store) == nil)
            #expect(try await client.install(modelId: Self.id, into: store, conditions: DownloadConditions(onlyIfNewer: false))?.version == "1")

            // upgradeTo on the installed version wins over the canonical one.
            try await Fixtures.push(version: "3", to: client, in: folder, canonical: false)
            #expect(try await client.install(modelId: Self.id, into: store) == nil)  // canonical is 1, installed 1
            _ = try await client.setUpgradeTo("3", version: "1", of: Self.id)
            #expect(try await client.version("1", of: Self.id).upgradeTo == "3")
            #expect(try await client.install(modelId: Self.id, into: store)?.version == "3")
            _ = try await client.setUpgradeTo(nil, version: "1", of: Self.id)
            #expect(try await client.version("1", of: Self.id).upgradeTo == nil)

            // An explicit version, and a size limit that refuses it before any byte is fetched.
            let big = try await Fixtures.push(version: "4", to: client, in: folder, canonical: false, paddingBytes: 100_000)
            let error = await expectTensorIOError(.tooLarge) {
                try await client.install(modelId: Self.id, version: "4", into: store, conditions: DownloadConditions(maximumBytes: big.size - 1))
            }
            #expect(error?.message.contains("\(big.size)") == true)
            #expect(try store.current(Self.id)?.version == "3")
            #expect(try await client.install(modelId: Self.id, version: "4", into: store, conditions: DownloadConditions(maximumBytes: big.size))?.version == "4")
            await expectTensorIOError(.notFound) { try await client.install(modelId: Self.id, version: "99", into: store) }
        }
    }

    @Test("an interrupted download resumes where it stopped (Range + If-Range) and verifies the whole file")
    func resume() async throws {
        // 1 MB/s per download: the 1.6 MB archive takes 1.6 s, time enough to interrupt it even on a busy machine.
        try await withServer(downloadBytesPerSecond: 1_000_000) { server, folder in
            let client = server.client()
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            let details = try await Fixtures.push(version: "1", to: client, in: folder, paddingBytes: 1_600_000)

            // First attempt: stopped by cancelling the consumer once some bytes are on disk.
            let firstAttempt = Task {
                var last: Int64 = 0
                for await event in client.download(modelId: Self.id, into: store) {
                    if case .progress(let received, _) = event {
                        last = received
                        if received > 200_000 { break }
                    }
                }
                return last
            }
            let stoppedAt = await firstAttempt.value
            #expect(stoppedAt > 0 && stoppedAt < details.size)
            // The cancelled transfer stops writing shortly after: wait until the partial file stops growing.
            let partial = store.directory.appendingPathComponent(".partial/\(Self.id)/1.zip")
            func partialSize() -> Int64 {
                ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.int64Value ?? -1
            }
            var kept = partialSize()
            for _ in 0..<25 {
                try await Task.sleep(for: .milliseconds(200))
                let now = partialSize()
                if now == kept { break }
                kept = now
            }
            #expect(kept > 0 && kept < details.size)
            #expect(try store.current(Self.id) == nil)

            // Second attempt: starts from what was kept.
            var resumedFrom: Int64 = -1
            var installed: InstalledModel?
            for await event in client.download(modelId: Self.id, into: store) {
                switch event {
                case .started(_, let offset): resumedFrom = offset
                case .installed(let model): installed = model
                case .failed(let error): Issue.record("\(error)")
                default: break
                }
            }
            #expect(resumedFrom == kept)
            #expect(installed?.sha256 == details.sha256)
            #expect(!FileManager.default.fileExists(atPath: partial.path))

            // Without resuming, a partial file is discarded.
            try await Fixtures.push(version: "2", to: client, in: folder, paddingBytes: 10_000)
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: 100).write(to: store.directory.appendingPathComponent(".partial/\(Self.id)/2.zip"))
            var offset: Int64 = -1
            for await event in client.download(modelId: Self.id, into: store, conditions: DownloadConditions(allowsResume: false)) {
                if case .started(_, let start) = event { offset = start }
            }
            #expect(offset == 0)
            #expect(try store.current(Self.id)?.version == "2")
        }
    }

    @Test("a stale partial file (bytes of something else) fails the checksum, is discarded, and the retry succeeds")
    func stalePartial() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            let details = try await Fixtures.push(version: "1", to: client, in: folder, paddingBytes: 50_000)
            let partial = store.directory.appendingPathComponent(".partial/\(Self.id)/1.zip")
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 0xAB, count: 1000).write(to: partial)
            try Data("\"\(details.sha256)\"".utf8).write(to: partial.appendingPathExtension("etag"))
            await expectTensorIOError(.checksumMismatch) { try await client.install(modelId: Self.id, into: store) }
            #expect(!FileManager.default.fileExists(atPath: partial.path))
            #expect(try await client.install(modelId: Self.id, into: store)?.sha256 == details.sha256)
        }
    }

    @Test("a corrupted archive on the server fails the checksum; the old version stays installed and usable")
    func checksumMismatch() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            try await Fixtures.push(version: "1", to: client, in: folder)
            try await client.install(modelId: Self.id, into: store)
            let v2 = try await Fixtures.push(version: "2", to: client, in: folder)

            // Flip one byte of the stored archive (same size, so only the SHA-256 can tell).
            let stored = server.server.storage.root.appendingPathComponent("archives/\(Self.id)/2.zip")
            var bytes = try Data(contentsOf: stored)
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: stored)

            let error = await expectTensorIOError(.checksumMismatch) { try await client.install(modelId: Self.id, into: store) }
            #expect(error?.message.contains(v2.sha256) == true)
            let current = try #require(try store.current(Self.id))
            #expect(current.version == "1")
            #expect(try ModelBundle(at: current.bundleURL).version == "1")
            let model = try ModelBundle(at: current.bundleURL).makeModel()
            _ = model  // opening it is enough: the files are whole
            #expect(try store.versions(Self.id).map(\.version) == ["1"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.appendingPathComponent(".tmp").path).isEmpty)
        }
    }

    @Test("a store opened with the vision tasks refuses a version whose detection entry is wrong; with the built-in registry it installs it, and detect's first read refuses it")
    func taskEntriesAtInstall() async throws {
        try withTemporaryDirectory { folder in
            let good = try Fixtures.archive(of: try Fixtures.bundle(version: "1", in: folder), in: folder)
            let parent = folder.appendingPathComponent("bad-detection")
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            let bad = try copyFixture(Fixtures.numberBundleName, into: parent) { json in
                json["version"] = "2"
                json["detection"] = ["boxes": "no-such-output", "scores": "output"] as JSONObject
            }
            let badArchive = try Fixtures.archive(of: bad, in: folder)

            let checking = try ModelStore(directory: folder.appendingPathComponent("vision"), registry: .vision)
            try checking.install(archiveAt: good, modelId: "m", version: "1")
            let error = expectTensorIOError(.invalidBundle) { try checking.install(archiveAt: badArchive, modelId: "m", version: "2") }
            #expect(error?.issues.contains { $0.path.hasPrefix("detection") } == true, "\(String(describing: error))")
            #expect(try checking.current("m")?.version == "1")

            let lenient = try ModelStore(directory: folder.appendingPathComponent("built-in"))
            let installed = try lenient.install(archiveAt: badArchive, modelId: "m", version: "2")
            let bundle = try ModelBundle(at: installed.bundleURL)
            let firstUse = expectTensorIOError(.invalidBundle) { _ = try bundle.detection }
            #expect(firstUse?.issues.map(\.path) == error?.issues.map(\.path), "the same problems at the same JSON paths")
        }
    }

    @Test("corrupt, truncated and invalid archives are refused by the store; the current version is untouched")
    func corruptArchives() async throws {
        try withTemporaryDirectory { folder in
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            let good = try Fixtures.archive(of: try Fixtures.bundle(version: "1", in: folder), in: folder)
            try store.install(archiveAt: good, modelId: "m", version: "1")

            let bytes = try Data(contentsOf: good)
            let truncated = folder.appendingPathComponent("truncated.zip")
            try bytes.prefix(bytes.count / 2).write(to: truncated)
            expectTensorIOError(.invalidArchive) { try store.install(archiveAt: truncated, modelId: "m", version: "2") }

            let garbage = folder.appendingPathComponent("garbage.zip")
            try Data((0..<4096).map { UInt8($0 % 251) }).write(to: garbage)
            expectTensorIOError(.invalidArchive) { try store.install(archiveAt: garbage, modelId: "m", version: "2") }

            expectTensorIOError(.checksumMismatch) {
                try store.install(archiveAt: good, modelId: "m", version: "2", expectedSHA256: String(repeating: "0", count: 64))
            }

            let invalid = try Fixtures.archive(of: Fixtures.bundlesDirectory.appendingPathComponent("invalid-model-bad-json.tiobundle"), in: folder)
            expectTensorIOError(.invalidBundle) { try store.install(archiveAt: invalid, modelId: "m", version: "2") }

            let missingModel = try Fixtures.handmadeZip(
                [try Fixtures.validEntries()[0], try Fixtures.validEntries()[1]], in: folder)
            expectTensorIOError(.invalidBundle) { try store.install(archiveAt: missingModel, modelId: "m", version: "2") }

            expectTensorIOError(.invalidIdentifier) { try store.install(archiveAt: good, modelId: "../m", version: "2") }

            let current = try #require(try store.current("m"))
            #expect(current.version == "1")
            #expect(try ModelBundle(at: current.bundleURL).version == "1")
            #expect(try store.versions("m").map(\.version) == ["1"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.appendingPathComponent(".tmp").path).isEmpty)
            expectTensorIOError(.notFound) { try store.rollback("m") }
        }
    }

    @Test("latestModel: the shipped fallback while nothing is installed or the server is unreachable, else the installed version")
    func latestModel() async throws {
        try await withTemporaryDirectory { folder in
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            let fallback = try Fixtures.bundle(version: "shipped", in: folder)
            // A port nothing listens on: bind a server, note its port, stop it.
            let gone = try await TestServer.start(root: folder.appendingPathComponent("gone"))
            await gone.stop()
            let unreachable = RepositoryClient(baseURL: gone.url, timeout: 5)

            var latest = try await unreachable.latestModel(id: Self.id, store: store, fallback: fallback)
            #expect(latest.source == .fallback)
            #expect(latest.bundle.version == "shipped")
            #expect(latest.updateError?.code == .unreachable)
            await expectTensorIOError(.notFound) { try await unreachable.latestModel(id: Self.id, store: store, fallback: nil) }

            let server = try await TestServer.start(root: folder.appendingPathComponent("server"))
            try await Fixtures.push(version: "7", to: server.client(), in: folder)
            latest = try await server.client().latestModel(id: Self.id, store: store, fallback: fallback)
            #expect(latest.bundle.version == "7")
            #expect(latest.updateError == nil)
            guard case .installed(let installed) = latest.source else {
                Issue.record("expected the installed version, got \(latest.source)")
                return
            }
            #expect(installed.version == "7")
            await server.stop()

            latest = try await RepositoryClient(baseURL: server.url, timeout: 5).latestModel(id: Self.id, store: store, fallback: fallback)
            #expect(latest.bundle.version == "7")  // offline: the installed version, not the fallback
            #expect(latest.updateError?.code == .unreachable)
        }
    }
}
#endif
