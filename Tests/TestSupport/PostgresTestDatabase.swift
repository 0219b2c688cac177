import Foundation

/// A database of its own on the throwaway PostgreSQL server that `scripts/with-postgres.sh` starts for
/// the test command (it exports `TENSORIO_TEST_POSTGRES_URL`).
public enum PostgresTestDatabase {
    /// The server's maintenance database, or nil outside `with-postgres.sh`.
    public static let serverURL: String? = ProcessInfo.processInfo.environment["TENSORIO_TEST_POSTGRES_URL"]

    /// Whether the PostgreSQL tests run: with a server, and always in CI, where a missing server is a
    /// failure (`make test` starts one), not a reason to skip.
    public static var runs: Bool { serverURL != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    /// Creates an empty database and returns its URL.
    public static func make() throws -> String {
        guard let serverURL, var components = URLComponents(string: serverURL) else {
            throw TestFailure("no PostgreSQL server: run the tests through scripts/with-postgres.sh (make test does)")
        }
        let name = "tensorio_test_\(UUID().uuidString.prefix(8).lowercased())"
        try psql(serverURL, "CREATE DATABASE \(name)")
        components.path = "/\(name)"
        return components.string!
    }

    /// Runs one SQL statement with `psql`.
    public static func psql(_ url: String, _ statement: String) throws {
        let result = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-c", statement],
            timeLimit: .seconds(60))
        guard result.exited, result.status == 0 else {
            throw TestFailure("psql \(statement): \(result.stderr)")
        }
    }
}
