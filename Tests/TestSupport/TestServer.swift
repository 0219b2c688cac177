#if Server  // needs the delivery client and the server: the Server trait
public import Foundation
import Logging
public import TensorIO
public import TensorIODelivery
public import TensorIORepositoryServer

/// A repository server running in this process on 127.0.0.1, on a port the system picked.
public struct TestServer: Sendable {
    public let server: RepositoryServer
    public let url: URL
    private let task: Task<Void, any Error>

    /// The write token of the servers ``withServer(writeToken:readToken:maximumUploadBytes:downloadBytesPerSecond:loadCheck:_:)``
    /// starts unless told otherwise.
    public static let writeToken = "write-token-for-tests"

    /// Starts a server on `root` and waits until it listens.
    public static func start(
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
    public func client(token: String? = TestServer.writeToken) -> RepositoryClient {
        RepositoryClient(baseURL: url, token: token, timeout: 30)
    }

    /// Stops the server and waits for it.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// A temporary folder with a running server on `folder/server`, stopped after `body`.
public func withServer<T>(
    writeToken: String? = TestServer.writeToken, readToken: String? = nil, maximumUploadBytes: Int64 = 64 << 20,
    downloadBytesPerSecond: Int? = nil, loadCheck: LoadCheck = .isolated, _ body: (TestServer, URL) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { folder in
        let server = try await TestServer.start(
            root: folder.appendingPathComponent("server"), writeToken: writeToken, readToken: readToken,
            maximumUploadBytes: maximumUploadBytes, downloadBytesPerSecond: downloadBytesPerSecond, loadCheck: loadCheck)
        do {
            let result = try await body(server, folder)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
#endif
