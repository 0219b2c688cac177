#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIODelivery
import Testing
import TensorIOTestSupport

/// The client against servers that answer badly on purpose: it neither runs out of memory nor waits
/// forever, and every failure is one bounded line.
@Suite("Hostile servers")
struct HostileServerTests {
    @Test("an answer that never ends is cut at the size limit")
    func endlessBody() async throws {
        let server = try HostileHTTPServer(.endlessBody)
        defer { server.stop() }
        let client = RepositoryClient(baseURL: server.url, timeout: 30)
        let error = await expectTensorIOError(.server) { try await client.models() }
        #expect(error?.message.contains("larger than 16 MiB") == true, "\(String(describing: error))")
    }

    // The message shows the deadline fired; the time limit catches a client that would wait forever. (A
    // wall-clock bound would be flaky: the test itself waits for a thread while other suites run.)
    @Test("an answer trickled a byte at a time ends at the deadline", .timeLimit(.minutes(2)))
    func trickle() async throws {
        let server = try HostileHTTPServer(.trickle(interval: .milliseconds(100)))
        defer { server.stop() }
        let client = RepositoryClient(baseURL: server.url, timeout: 1)
        let error = await expectTensorIOError(.server) { try await client.health() }
        #expect(error?.message.contains("did not finish answering within 2 s") == true, "\(String(describing: error))")
    }

    @Test("a huge error message becomes one line of bounded length", arguments: [false, true])
    func hugeErrorMessage(upload: Bool) async throws {
        let server = try HostileHTTPServer(.hugeErrorMessage(count: 5 << 20))
        defer { server.stop() }
        let client = RepositoryClient(baseURL: server.url, token: "t", timeout: 30)
        let error: TensorIOError?
        if upload {
            error = try await withTemporaryDirectory { folder in
                let archive = try Fixtures.archive(of: Fixtures.bundlesDirectory.appendingPathComponent(Fixtures.numberBundleName), in: folder)
                return await expectTensorIOError(.layerMismatch) {
                    try await client.upload(archiveAt: archive, modelId: Fixtures.numberModelId, version: "1")
                }
            }
        } else {
            error = await expectTensorIOError(.layerMismatch) { try await client.models() }
        }
        let message = try #require(error?.message)
        #expect(message.count < 1200)
        #expect(!message.contains("\n"))
    }
}
#endif
