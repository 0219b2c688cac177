#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// Many concurrent downloads and a few uploads on loopback: nothing lost, every byte right, bounded in time.
@Suite("Repository load")
struct LoadTests {
    static let downloads = 40
    static let installs = 8  // of the downloads, through the client into a store; the rest raw GETs
    static let uploads = 3

    @Test("40 concurrent downloads of a 3 MB archive and 3 uploads: all verified, all listed, under 30 s")
    func concurrentTraffic() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let details = try await Fixtures.push(version: "1", to: client, in: folder, paddingBytes: 3_000_000)
            let archiveURL = server.url.appendingPathComponent("v1/models/\(Fixtures.numberModelId)/versions/1/archive")
            // Prepare the uploads' archives beforehand, so that only the transfer is timed.
            var uploadArchives: [URL] = []
            for index in 0..<Self.uploads {
                let bundle = try Fixtures.bundle(version: "u\(index)", in: folder, paddingBytes: 500_000)
                uploadArchives.append(try Fixtures.archive(of: bundle, in: folder))
            }

            let clock = ContinuousClock()
            let start = clock.now
            let (downloaded, installed, uploaded) = try await withThrowingTaskGroup(of: (Int64, Int, Int).self) { group in
                for index in 0..<Self.downloads {
                    group.addTask {
                        if index < Self.installs {
                            let store = try ModelStore(directory: folder.appendingPathComponent("store-\(index)"))
                            let model = try await client.install(modelId: Fixtures.numberModelId, into: store)
                            #expect(model?.sha256 == details.sha256)
                            return (details.size, 1, 0)
                        }
                        let (data, response) = try await UncachedHTTP.send(URLRequest(url: archiveURL))
                        #expect(response.statusCode == 200)
                        #expect(FileDigest.sha256(of: data) == details.sha256, "download \(index)")
                        return (Int64(data.count), 0, 0)
                    }
                }
                for (index, archive) in uploadArchives.enumerated() {
                    group.addTask {
                        let stored = try await client.upload(archiveAt: archive, modelId: "load-\(index)", version: "u\(index)")
                        #expect(try FileDigest.sha256(of: archive) == stored.sha256)
                        return (0, 0, 1)
                    }
                }
                var totals: (Int64, Int, Int) = (0, 0, 0)
                for try await (bytes, installs, uploads) in group {
                    totals.0 += bytes
                    totals.1 += installs
                    totals.2 += uploads
                }
                return totals
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            #expect(downloaded == Int64(Self.downloads) * details.size)
            #expect(installed == Self.installs)
            #expect(uploaded == Self.uploads)
            #expect(seconds < 30, "took \(seconds) s")

            let models = try await client.allModels()
            #expect(Set(models.map(\.id)) == Set([Fixtures.numberModelId] + (0..<Self.uploads).map { "load-\($0)" }))
            for index in 0..<Self.uploads {
                #expect(try await client.model("load-\(index)").canonicalVersion == "u\(index)")
            }
            let requests = Self.downloads + Self.uploads
            print(String(
                format: "delivery load test: %d downloads of %.2f MB (%d through the client's store) + %d uploads in %.2f s: %.1f MB/s downloaded, %.1f requests/s",
                Self.downloads, Double(details.size) / 1e6, Self.installs, Self.uploads, seconds,
                Double(downloaded) / 1e6 / seconds, Double(requests) / seconds))
        }
    }
}
#endif
