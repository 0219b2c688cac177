import Foundation
import Hummingbird
import Logging
import TensorIO
import TensorIODelivery

/// The model repository server: a Hummingbird 2 application over a ``RepositoryStorage``.
///
/// ```swift
/// let server = try RepositoryServer(configuration: RepositoryServerConfiguration(
///     root: URL(fileURLWithPath: "/srv/models"), port: 8080, writeToken: token))
/// try await server.run { port in print("listening on \(port)") }
/// ```
public struct RepositoryServer: Sendable {
    /// How the server runs.
    public let configuration: RepositoryServerConfiguration
    /// The index and archives; opening them repaired what a crash left behind.
    public let storage: RepositoryStorage
    private let logger: Logger

    /// Opens the storage (running the start-up recovery) without listening yet.
    ///
    /// - Parameters:
    ///   - configuration: Where to store, where to listen, the tokens and limits.
    ///   - logger: The server's logger.
    /// - Throws: ``TensorIOError`` when the root cannot be opened.
    public init(configuration: RepositoryServerConfiguration, logger: Logger = Logger(label: "TensorIO.RepositoryServer")) throws {
        self.configuration = configuration
        self.logger = logger
        self.storage = try RepositoryStorage(root: configuration.root, logger: logger)
    }

    /// Listens and answers until the task is cancelled or a shutdown signal arrives.
    ///
    /// - Parameters:
    ///   - handlesSignals: Whether SIGTERM and SIGINT stop the server gracefully (off in tests, which cancel).
    ///   - onRunning: Called once listening, with the bound port (useful with port 0).
    /// - Throws: When the address cannot be bound.
    public func run(
        handlesSignals: Bool = true,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let router = Router()
        RepositoryRoutes(storage: storage, configuration: configuration).register(on: router)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tensorio"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await application.runService(gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [])
    }
}
