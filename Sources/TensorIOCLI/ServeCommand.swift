#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import ArgumentParser
import Foundation
import Logging
import TensorIO
import TensorIORepositoryServer

/// `tensorio serve --root DIR [--host H] [--port P] [--token-file F] [--read-token-file F]`
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a model repository server (HTTP JSON API under /v1).",
        discussion: """
            Stores bundle versions as zip archives under --root with a SQLite index. Prints \
            "listening on http://HOST:PORT" on stdout once ready; stops on SIGINT or SIGTERM. Without \
            --token-file the server is read-only. An upload is acknowledged only after its model loaded and \
            ran once in a separate process (tensorio-load-check, next to tensorio) within the load limits; \
            otherwise the answer is 422 naming the problem.
            """
    )

    @Option(help: "The folder holding the index and the archives (created if missing).")
    var root: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A PostgreSQL index shared by several servers: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require].",
            discussion: "Every server on one database needs the same --root (a shared folder). Without it the index is SQLite in --root. The password may come from TENSORIO_POSTGRES_PASSWORD instead."))
    var databaseURL: String?

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(name: .customLong("token-file"), help: "A file holding the bearer token that uploads need.")
    var tokenFile: String?

    @Option(name: .customLong("read-token-file"), help: "A file holding a token that reads need too (the write token also works).")
    var readTokenFile: String?

    @Option(name: .customLong("max-upload-mb"), help: "The largest upload, in MiB.")
    var maximumUploadMegabytes = 512

    @Option(name: .customLong("load-time-limit"), help: "The seconds an upload's model may take to load and run once.")
    var loadTimeLimit: Double = 60

    @Option(name: .customLong("load-memory-limit"), help: "The MiB of private memory loading an upload's model may use.")
    var loadMemoryLimit = 4096

    @Option(name: .customLong("download-rate"), help: ArgumentHelp("Limit each download to this many bytes per second.", visibility: .hidden))
    var downloadRate: Int?

    func run() async throws {
        guard (0...65535).contains(port) else { throw CLIError("--port must be from 0 to 65535") }
        guard maximumUploadMegabytes > 0 else { throw CLIError("--max-upload-mb must be positive") }
        guard loadTimeLimit > 0, loadTimeLimit <= 86_400 else {
            throw CLIError("--load-time-limit must be between 0 and 86400 seconds, not \(loadTimeLimit)")
        }
        guard loadMemoryLimit >= 16, loadMemoryLimit <= 1 << 30 else {
            throw CLIError("--load-memory-limit must be at least 16 MiB, not \(loadMemoryLimit)")
        }
        let loadCheck = LoadCheck.isolated(IsolatedLoading(
            timeLimit: .milliseconds(Int64(loadTimeLimit * 1000)), memoryLimit: loadMemoryLimit << 20))
        var database = RepositoryDatabase.sqlite
        if let databaseURL {
            guard let url = URL(string: databaseURL), url.scheme != nil else {
                throw CLIError("--database must be a postgres:// URL, not \"\(databaseURL)\"")
            }
            database = .postgres(url)
        }
        let writeToken = try tokenFile.map(readToken)
        let readToken = try readTokenFile.map(readToken)
        var logger = Logger(label: "tensorio.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .notice
        let configuration = RepositoryServerConfiguration(
            root: URL(fileURLWithPath: root), host: host, port: port, writeToken: writeToken, readToken: readToken,
            maximumUploadBytes: Int64(maximumUploadMegabytes) << 20, downloadBytesPerSecond: downloadRate,
            loadCheck: loadCheck, database: database)
        let server = try RepositoryServer(configuration: configuration, logger: logger)
        let host = self.host
        try await server.run { port in
            print("listening on http://\(host):\(port)")
            fflush(stdout)
        }
    }
}
