#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO
@testable import TensorIODelivery
import TensorIORepositoryServer
import Testing
import TensorIOTestSupport

/// The device's store over time: how many versions it keeps, what happens to interrupted downloads, and
/// two downloaders of one version at once; and the network conditions a download's session carries.
@Suite("Store lifecycle")
struct StoreLifecycleTests {
    static let id = Fixtures.numberModelId

    @Test("the store keeps the last N versions, never removing the current or the previous one")
    func keepsLastVersions() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let store = try ModelStore(directory: folder.appendingPathComponent("store"), keep: 3)
            #expect(store.keep == 3)
            for version in 1...5 {
                try await Fixtures.push(version: String(version), to: client, in: folder)
                #expect(try await client.install(modelId: Self.id, into: store)?.version == String(version))
                #expect(try store.versions(Self.id).count == min(version, 3))
            }
            #expect(try store.versions(Self.id).map(\.version) == ["3", "4", "5"])
            // Back to 4: the previous one is now 5, the newest install. The next install keeps 4 (the
            // previous one) although it is older than 5, and removes 3, the oldest.
            try store.rollback(Self.id)
            try await Fixtures.push(version: "6", to: client, in: folder)
            #expect(try await client.install(modelId: Self.id, into: store)?.version == "6")
            #expect(try store.previous(Self.id)?.version == "4")
            #expect(try store.versions(Self.id).map(\.version).sorted() == ["4", "5", "6"])
            #expect(try ModelStore(directory: store.directory, keep: 1).keep == 2, "at least 2, for rollback")
        }
    }

    @Test("a store opening removes stale partial downloads and leftovers, keeps recent ones for resuming")
    func stalePartials() async throws {
        try withTemporaryDirectory { folder in
            let directory = folder.appendingPathComponent("store")
            let store = try ModelStore(directory: directory)
            let partials = store.partialRoot.appendingPathComponent(Self.id)
            let fileManager = FileManager.default
            try fileManager.createDirectory(at: partials, withIntermediateDirectories: true)
            let longAgo = Date(timeIntervalSinceNow: -(ModelStore.defaultPartialLifetime + 3600))
            func write(_ name: String, in folder: URL = partials, old: Bool) throws -> URL {
                let url = folder.appendingPathComponent(name)
                try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(repeating: 7, count: 1000).write(to: url)
                if old { try fileManager.setAttributes([.modificationDate: longAgo], ofItemAtPath: url.path) }
                return url
            }
            let stale = try write("5.zip", old: true)
            let staleTag = try write("5.zip.etag", old: false)
            let recent = try write("6.zip", old: false)
            let recentTag = try write("6.zip.etag", old: false)
            let leftover = try write(".6.zip.etag.tmp", old: true)
            let lock = try write("7.lock", in: store.partialRoot.appendingPathComponent("ghost"), old: false)
            // A symbolic link to a file outside the store: neither followed nor removed.
            let outside = try write("outside.zip", in: folder, old: true)
            try fileManager.createSymbolicLink(at: partials.appendingPathComponent("8.zip"), withDestinationURL: outside)

            _ = try ModelStore(directory: directory)
            #expect(!fileManager.fileExists(atPath: stale.path) && !fileManager.fileExists(atPath: staleTag.path))
            #expect(fileManager.fileExists(atPath: recent.path) && fileManager.fileExists(atPath: recentTag.path))
            #expect(!fileManager.fileExists(atPath: leftover.path))
            #expect(!fileManager.fileExists(atPath: lock.path))
            #expect(!fileManager.fileExists(atPath: lock.deletingLastPathComponent().path), "the emptied folder goes")
            #expect(fileManager.fileExists(atPath: outside.path))
            #expect((try? fileManager.destinationOfSymbolicLink(atPath: partials.appendingPathComponent("8.zip").path)) != nil)

            // With no lifetime, a partial that no download holds goes at once.
            let removed = store.removeStalePartialDownloads(olderThan: 0)
            #expect(Set(removed) == ["\(Self.id)/6.zip", "\(Self.id)/6.zip.etag"], "\(removed)")
        }
    }

    @Test("a partial file whose download lock is held is never removed as stale, even with no lifetime")
    func heldPartialKept() async throws {
        try withTemporaryDirectory { folder in
            let directory = folder.appendingPathComponent("store")
            let store = try ModelStore(directory: directory)
            let partial = store.partialURL(modelId: Self.id, version: "1")
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 1, count: 100).write(to: partial)
            // What a running download holds (in this process or another: flock does not tell them apart).
            let held = try #require(try DownloadLock.acquireIfFree(store.downloadLockURL(modelId: Self.id, version: "1")))
            #expect(try DownloadLock.acquireIfFree(store.downloadLockURL(modelId: Self.id, version: "1")) == nil)
            _ = try ModelStore(directory: directory, partialLifetime: 0)
            #expect(store.removeStalePartialDownloads(olderThan: 0).isEmpty)
            #expect(FileManager.default.fileExists(atPath: partial.path))
            held.release()
            #expect(store.removeStalePartialDownloads(olderThan: 0) == ["\(Self.id)/1.zip"])
            #expect(!FileManager.default.fileExists(atPath: partial.deletingLastPathComponent().path))
        }
    }

    @Test("two tasks downloading one version into one store: one installs it, the other finds it installed")
    func concurrentTasks() async throws {
        try await withServer(downloadBytesPerSecond: 2_000_000) { server, folder in
            let client = server.client()
            let directory = folder.appendingPathComponent("store")
            for round in 1...3 {
                try await Fixtures.push(version: String(round), to: client, in: folder, paddingBytes: 1 << 20)
                // Two stores on one folder, as two parts of an app (or two apps) would open it.
                async let first = client.install(modelId: Self.id, into: try ModelStore(directory: directory))
                async let second = client.install(modelId: Self.id, into: try ModelStore(directory: directory))
                let results = try await [first, second]
                #expect(results.compactMap { $0?.version } == [String(round)], "round \(round): \(results)")
                let store = try ModelStore(directory: directory)
                #expect(try store.current(Self.id)?.version == String(round))
                #expect(try ModelBundle(at: try #require(try store.current(Self.id)).bundleURL).version == String(round))
                let left = (try? FileManager.default.contentsOfDirectory(
                    atPath: store.partialRoot.appendingPathComponent(Self.id).path)) ?? []
                #expect(left.isEmpty, "round \(round): \(left)")
            }
        }
    }

    @Test("the session that transfers an archive carries the download conditions the platform has")
    func sessionConditions() {
        let defaults = HTTPTransport.configuration(conditions: DownloadConditions())
        #expect(defaults.allowsCellularAccess)
        let strict = DownloadConditions(
            allowsCellularAccess: false, allowsExpensiveNetworkAccess: false, allowsConstrainedNetworkAccess: false,
            waitsForConnectivity: true, allowsBackgroundDownloading: true)
        let configuration = HTTPTransport.configuration(conditions: strict)
        #expect(!configuration.allowsCellularAccess)
        #expect(configuration.urlCache == nil && configuration.httpCookieStorage == nil)
        #if canImport(Darwin)
        #expect(configuration.shouldUseExtendedBackgroundIdleMode)
        #expect(!configuration.allowsExpensiveNetworkAccess)
        #expect(!configuration.allowsConstrainedNetworkAccess)
        #expect(configuration.waitsForConnectivity)
        #endif
        // An app's own configuration gets the same settings.
        let own = URLSessionConfiguration.default
        strict.configure(own)
        #expect(!own.allowsCellularAccess)
        // Requests that are not an archive's transfer keep the platform's defaults.
        #expect(HTTPTransport.configuration(conditions: nil).allowsCellularAccess)
    }
}
#endif
