#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import ArgumentParser
import Configuration
import Foundation
import Logging
import TensorIO
import TensorIORepositoryServer
import TensorIOToolSupport

/// `tensorio serve [--root DIR] [--host H] [--port P] [--token-file F] [--read-token-file F] [--config FILE] …`
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.serve.name,
        abstract: RepositoryCommand.serve.abstract,
        discussion: """
            Stores bundle versions as zip archives under --root with a SQLite index. Prints \
            "listening on http://HOST:PORT" on stdout once ready; stops on SIGINT or SIGTERM. Without \
            --token-file the server is read-only. An upload is acknowledged only after its model loaded and \
            ran once in a separate process (tensorio-load-check, next to tensorio) within the load limits; \
            otherwise the answer is 422 naming the problem.

            Every setting can also come from the environment (TENSORIO_SERVE_ and the option's name in \
            upper case with underscores: TENSORIO_SERVE_PORT, TENSORIO_SERVE_MAX_UPLOAD_MB) or from a JSON \
            config file (--config FILE or TENSORIO_SERVE_CONFIG; keys in camel case: {"port": 8080, \
            "maxUploadMb": 512}). A flag wins over the environment, which wins over the file. Each request \
            writes one log line on stderr (at info; 5xx at error); /metrics answers Prometheus metrics.
            """
    )

    @Option(help: "The folder holding the index and the archives (created if missing).")
    var root: String?

    @Option(help: "The address to listen on (default 127.0.0.1).")
    var host: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A PostgreSQL index shared by several servers: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require].",
            discussion: "Every server on one database needs the same --root (a shared folder). Without it the index is SQLite in --root. The password may come from TENSORIO_POSTGRES_PASSWORD instead."))
    var databaseURL: String?

    @Option(help: "The port to listen on; 0 picks a free one (default 8080).")
    var port: Int?

    @Option(name: .customLong("token-file"), help: "A file holding the bearer token that uploads need.")
    var tokenFile: String?

    @Option(name: .customLong("read-token-file"), help: "A file holding a token that reads need too (the write token also works).")
    var readTokenFile: String?

    @Option(name: .customLong("max-upload-mb"), help: "The largest upload, in MiB (default 512).")
    var maximumUploadMegabytes: Int?

    @Option(name: .customLong("load-time-limit"), help: "The seconds an upload's model may take to load and run once (default 60).")
    var loadTimeLimit: Double?

    @Option(name: .customLong("load-memory-limit"), help: "The MiB of private memory loading an upload's model may use (default 4096).")
    var loadMemoryLimit: Int?

    @Option(name: .customLong("download-rate"), help: ArgumentHelp("Limit each download to this many bytes per second.", visibility: .hidden))
    var downloadRate: Int?

    @Option(name: .customLong("log-level"), help: "The least severe log level written: trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?

    @Option(name: .customLong("log-format"), help: "How log lines are written: text or json (one object per line; default text).")
    var logFormat: String?

    @Option(name: .customLong("config"), help: "A JSON file of settings (keys in camel case, as in docs/cli.md).")
    var configFile: String?

    func run() async throws {
        let settings = try await ServeSettings.resolve(
            flags: flagValues, environment: ProcessInfo.processInfo.environment, configFile: configFile)
        let loadCheck = LoadCheck.isolated(IsolatedLoading(
            timeLimit: .milliseconds(Int64(settings.loadTimeLimit * 1000)), memoryLimit: settings.loadMemoryLimit << 20))
        let writeToken = try settings.tokenFile.map(readToken)
        let readToken = try settings.readTokenFile.map(readToken)
        var logger: Logger
        switch settings.logFormat {
        case .text: logger = Logger(label: "tensorio.serve") { StreamLogHandler.standardError(label: $0) }
        case .json: logger = Logger(label: "tensorio.serve") { JSONLogHandler(label: $0) }
        }
        logger.logLevel = settings.logLevel
        let configuration = RepositoryServerConfiguration(
            root: URL(fileURLWithPath: settings.root), host: settings.host, port: settings.port, writeToken: writeToken,
            readToken: readToken, maximumUploadBytes: Int64(settings.maximumUploadMegabytes) << 20,
            downloadBytesPerSecond: settings.downloadRate, loadCheck: loadCheck,
            database: settings.database.map(RepositoryDatabase.postgres) ?? .sqlite)
        let server = try RepositoryServer(configuration: configuration, logger: logger)
        let host = settings.host
        try await server.run { port in
            print("listening on http://\(host):\(port)")
            fflush(stdout)
        }
    }

    /// The flags given on the command line, for ``ServeSettings/resolve(flags:environment:configFile:)``.
    private var flagValues: [ServeSettings.Key: ConfigContent] {
        var values: [ServeSettings.Key: ConfigContent] = [:]
        values[.root] = root.map(ConfigContent.string)
        values[.host] = host.map(ConfigContent.string)
        values[.port] = port.map(ConfigContent.int)
        values[.tokenFile] = tokenFile.map(ConfigContent.string)
        values[.readTokenFile] = readTokenFile.map(ConfigContent.string)
        values[.maxUploadMb] = maximumUploadMegabytes.map(ConfigContent.int)
        values[.loadTimeLimit] = loadTimeLimit.map(ConfigContent.double)
        values[.loadMemoryLimit] = loadMemoryLimit.map(ConfigContent.int)
        values[.downloadRate] = downloadRate.map(ConfigContent.int)
        values[.logLevel] = logLevel.map(ConfigContent.string)
        values[.logFormat] = logFormat.map(ConfigContent.string)
        values[.database] = databaseURL.map(ConfigContent.string)
        return values
    }
}
