#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird
public import Logging
import NIOCore
import UnixSignals
import TensorIO
import TensorIODelivery
import TensorIOSupport

/// The model repository server: a Hummingbird 2 application over a ``RepositoryStorage``.
///
/// ```swift
/// let server = try RepositoryServer(configuration: RepositoryServerConfiguration(
///     root: URL(fileURLWithPath: "/srv/models"), port: 8080, writeToken: token))
/// try await server.run { port in print("listening on \(port)") }
/// ```
///
/// Every `GET` route also answers `HEAD`; paths no route has get a JSON 404 (or a 405 with `Allow`); each
/// request writes one log line to the logger (`info`, `error` for a 5xx) with its method, path, status,
/// bytes, duration and request id (`X-Request-Id`, echoed); `/metrics` answers this server's metrics in
/// Prometheus's text format.
public struct RepositoryServer: Sendable {
    /// How the server runs.
    public let configuration: RepositoryServerConfiguration
    /// The index and archives; ``run(handlesSignals:onRunning:)`` repairs what a crash left behind before
    /// it listens.
    public let storage: RepositoryStorage
    private let logger: Logger
    /// This server's own metrics registry, answered on `/metrics`: not the process-wide metrics system,
    /// which can be bootstrapped once per process while a process may run several servers.
    private let metrics = ServerMetrics()

    /// Opens the storage without listening yet (a PostgreSQL index is reached when the server runs).
    ///
    /// - Parameters:
    ///   - configuration: Where to store, where to listen, the tokens and limits.
    ///   - logger: The server's logger; swift-log's task-local `Logger.current` by default.
    /// - Throws: `TensorIOError` when the root cannot be opened, or the database URL is unusable.
    public init(configuration: RepositoryServerConfiguration, logger: Logger = Logger.current) throws {
        self.configuration = configuration
        self.logger = logger
        self.storage = try RepositoryStorage(root: configuration.root, database: configuration.database, logger: logger)
    }

    /// Opens the index (connecting to PostgreSQL and migrating its schema when that is the database),
    /// repairs what a crash left in the root folder, then listens and answers until the task is cancelled
    /// or a shutdown signal arrives.
    ///
    /// - Parameters:
    ///   - handlesSignals: Whether SIGTERM and SIGINT stop the server gracefully (off in tests, which cancel).
    ///   - onRunning: Called once listening, with the bound port (useful with port 0).
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the index cannot be opened or the address
    ///   cannot be listened on, saying why in words: the database cannot be reached, the port is in use,
    ///   the host is not this machine's, or it cannot be resolved.
    public func run(
        handlesSignals: Bool = true,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        // HEAD on every GET route: the GET handler runs and its body is dropped, so the status, Content-Length,
        // ETag and Content-Range are those of the GET (the archive's file is not read).
        let router = Router(options: .autoGenerateHeadEndpoints)
        register(on: router)
        let responder = OperationsResponder(
            routes: router.buildResponder(), allowedMethods: AllowedMethods(register: register(on:)), metrics: metrics,
            logger: logger)
        let application = Application(
            responder: responder,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tensorio"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        // A graceful shutdown waits for requests in flight; an upload's load check could hold it for its
        // whole time limit, so a shutdown signal stops the process's checks at once (those uploads get
        // 503), and any an upload would start later. Cancelling the task does not: the process may be
        // running other checks of its own.
        let shutdownSignals = handlesSignals ? [SIGTERM, SIGINT].map(Self.stopLoadChecks(on:)) : []
        defer { for source in shutdownSignals { source.cancel() } }
        do {
            try await storage.index.withOpenIndex { [storage] in
                try await storage.recover()
                try await application.runService(gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [])
            }
        } catch let error as IOError {
            throw listeningFailure(errno: error.errnoCode)
        } catch is SocketAddressError.UnknownHost {
            throw TensorIOError(
                .io, "cannot listen on \(configuration.host): no such host name; give an address such as 127.0.0.1 or 0.0.0.0")
        } catch let error as SocketAddressError {
            throw TensorIOError(.io, "cannot listen on \(configuration.host): it is not a usable address (\(error))")
        }
    }

    /// Registers every route: the `/v1` API and `/metrics`.
    private func register(on router: Router<BasicRequestContext>) {
        let routes = RepositoryRoutes(storage: storage, configuration: configuration)
        routes.register(on: router)
        // Metrics are a read: open unless the server protects reads, then the read or the write token.
        router.get("metrics") { [metrics] request, _ in
            try routes.authorize(request, write: false)
            return metrics.response()
        }
    }

    /// NIO's `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`, in words.
    private func listeningFailure(errno code: Int32) -> TensorIOError {
        let address = "\(configuration.host):\(configuration.port)"
        let message: String
        switch code {
        case EADDRINUSE:
            message = "port \(configuration.port) is already in use on \(configuration.host): stop what is using it, or choose another port (0 picks a free one)"
        case EACCES:
            message = "this user may not listen on port \(configuration.port) (permission denied): choose a port above 1023"
        case EADDRNOTAVAIL:
            message = "\(configuration.host) is not an address of this machine: listen on 127.0.0.1, 0.0.0.0 or one of its addresses"
        default:
            message = "cannot listen on \(address): \(SystemErrorText.reason(errno: code))"
        }
        return TensorIOError(.io, message)
    }

    /// A signal source that stops running load checks when `signal` arrives. The signal stays ignored by
    /// the process (as ServiceLifecycle also sets it), so every source for it fires.
    private static func stopLoadChecks(on signalNumber: Int32) -> any DispatchSourceSignal {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { IsolatedLoading.stopRunningChecks(refusingNew: true) }
        source.resume()
        return source
    }
}
#endif
