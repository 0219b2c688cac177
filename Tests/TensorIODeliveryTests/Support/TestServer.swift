import Foundation
import Logging
import TensorIO
import TensorIODelivery
import TensorIORepositoryServer

/// A repository server running in this process on 127.0.0.1, on a port the system picked.
struct TestServer: Sendable {
    let server: RepositoryServer
    let url: URL
    let task: Task<Void, any Error>

    static let writeToken = "write-token-for-tests"

    /// Starts a server on `root` and waits until it listens.
    static func start(
        root: URL, writeToken: String? = TestServer.writeToken, readToken: String? = nil,
        maximumUploadBytes: Int64 = 64 << 20, downloadBytesPerSecond: Int? = nil, loadCheck: LoadCheck = .isolated
    ) async throws -> TestServer {
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let server = try RepositoryServer(
            configuration: RepositoryServerConfiguration(
                root: root, host: "127.0.0.1", port: 0, writeToken: writeToken, readToken: readToken,
                maximumUploadBytes: maximumUploadBytes, downloadBytesPerSecond: downloadBytesPerSecond,
                loadCheck: loadCheck),
            logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await server.run(handlesSignals: false) { port in continuation.yield(port) }
        }
        var port: Int?
        for await bound in ports {
            port = bound
            break
        }
        guard let port, port > 0 else {
            task.cancel()
            _ = await task.result
            throw TestFailure("the server did not start: \(await task.result)")
        }
        return TestServer(server: server, url: URL(string: "http://127.0.0.1:\(port)")!, task: task)
    }

    /// A client with the write token (or the given one).
    func client(token: String? = TestServer.writeToken) -> RepositoryClient {
        RepositoryClient(baseURL: url, token: token, timeout: 30)
    }

    /// Stops the server and waits for it.
    func stop() async {
        task.cancel()
        _ = await task.result
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
