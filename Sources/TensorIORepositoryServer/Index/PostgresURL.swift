#if Server  // built with the Server trait only (Package.swift)
import Foundation
import NIOSSL
import PostgresNIO
import TensorIO

/// The parts of a `postgres://` URL the index connects with.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`, as libpq spells
/// it (`postgresql://` too). The password may instead come from `TENSORIO_POSTGRES_PASSWORD`, which
/// keeps it out of process listings. `sslmode` defaults to `prefer`, like libpq.
struct PostgresURL {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tls: PostgresClient.Configuration.TLS

    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidConfiguration`) naming the part that is wrong.
    init(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func invalid(_ problem: String) -> TensorIOError {
            TensorIOError(.invalidConfiguration, "the PostgreSQL URL \(Self.redacted(url)) \(problem); expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else { throw invalid("does not start with postgres://") }
        guard let host = components.host, !host.isEmpty else { throw invalid("names no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw invalid("names no database (the path after the host)") }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw invalid("has port \(port), not 1 to 65535") }
        self.host = host
        self.port = port
        self.user = user
        self.database = database
        password = components.password ?? environment["TENSORIO_POSTGRES_PASSWORD"]
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full": tls = .require(.makeClientConfiguration())
        case let other: throw invalid("has sslmode=\(other); use disable, prefer or require")
        }
        if let unknown = components.queryItems?.first(where: { $0.name != "sslmode" }) {
            throw invalid("has an unknown parameter \(unknown.name)")
        }
    }

    /// The URL without its password, for messages and logs.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.password != nil else {
            return url.absoluteString
        }
        components.password = "…"
        return components.string ?? "(the URL)"
    }
}
#endif
