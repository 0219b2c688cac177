#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import TensorIO
import TensorIODelivery
import TensorIOSupport

/// The index in PostgreSQL, for several server instances sharing one database and one archive folder.
///
/// The same rows as the SQLite ``RepositoryIndex``, in tables named `tensorio_model` and
/// `tensorio_version` (so the database can hold other things). Writes that must not interleave across
/// instances lock the model's row (`SELECT … FOR UPDATE`): two uploads of one version through two
/// instances are serialized, and the second finds the first's row and answers 409. Every read goes to the
/// database, so what one instance wrote is what the next request to any instance sees.
final class PostgresIndex: RepositoryIndexing {
    let isShared = true
    private let client: PostgresClient
    private let location: String
    private let logger: Logger

    /// How long start-up waits for the database before it gives up with an error.
    static let connectTimeout: Duration = .seconds(20)

    /// Makes the client; nothing connects until ``withOpenIndex(_:)``.
    ///
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
    ///   - logger: Where the client's background messages go.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidConfiguration`) naming what is wrong with the URL.
    init(url: URL, logger: Logger) throws {
        let settings = try PostgresURL(url)
        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password,
            database: settings.database, tls: settings.tls)
        configuration.options.connectTimeout = .seconds(10)
        // Each instance serves many downloads at once, but the index queries are short: a handful of
        // connections per instance keeps a shared database within its default 100 connections.
        configuration.options.maximumConnections = 16
        // PostgresNIO reports every failed connection attempt at info, several a second while the database
        // is down: below debug they go, and start-up's own error (or a request's) says what is wrong once.
        var background = logger
        if background.logLevel > .debug { background.logLevel = max(background.logLevel, .error) }
        client = PostgresClient(configuration: configuration, backgroundLogger: background)
        location = "\(settings.host):\(settings.port)/\(settings.database)"
        self.logger = logger
    }

    func withOpenIndex<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            let client = self.client
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            try await migrate()
            return try await body()
        }
    }

    // MARK: Schema

    /// Creates or upgrades the schema, once for all instances: a transaction-scoped advisory lock makes a
    /// second instance starting at the same moment wait, then find the migrations applied.
    private func migrate() async throws {
        let migrations: [(name: String, statements: [PostgresQuery])] = [
            ("v1", [
                """
                CREATE TABLE tensorio_model (
                    id TEXT PRIMARY KEY COLLATE "C",
                    canonical_version TEXT,
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE tensorio_version (
                    sequence BIGSERIAL PRIMARY KEY,
                    model_id TEXT NOT NULL REFERENCES tensorio_model(id),
                    version TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    size BIGINT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    notes TEXT,
                    upgrade_to TEXT,
                    bundle_name TEXT NOT NULL,
                    UNIQUE (model_id, version)
                )
                """,
            ]),
            ("v2-rules", [
                """
                CREATE TABLE tensorio_rollout (
                    model_id TEXT PRIMARY KEY REFERENCES tensorio_model(id),
                    revision BIGINT NOT NULL,
                    paused BOOLEAN NOT NULL,
                    rules TEXT NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL
                )
                """,
            ]),
        ]
        do {
            try await withDeadline(Self.connectTimeout) { [client, logger] in
                try await client.withTransaction(logger: logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(7365436914)", logger: logger)
                    try await connection.query("""
                        CREATE TABLE IF NOT EXISTS tensorio_migration (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)
                        """, logger: logger)
                    var applied = Set<String>()
                    for try await name in try await connection.query("SELECT name FROM tensorio_migration", logger: logger).decode(String.self) {
                        applied.insert(name)
                    }
                    for migration in migrations where !applied.contains(migration.name) {
                        for statement in migration.statements { try await connection.query(statement, logger: logger) }
                        try await connection.query(
                            "INSERT INTO tensorio_migration (name, applied_at) VALUES (\(migration.name), \(Date().timeIntervalSince1970))",
                            logger: logger)
                    }
                }
            }
        } catch is DeadlineExceeded {
            throw TensorIOError(.io, "cannot reach the PostgreSQL index at \(location) within \(Self.connectTimeout): is the server running, and does it accept this user from here?")
        } catch {
            throw TensorIOError(.io, "cannot open the PostgreSQL index at \(location): \(Self.describe(error))")
        }
    }

    // MARK: Reads

    func counts() async throws -> (models: Int, versions: Int) {
        try await run("count models and versions") { client, logger in
            let rows = try await client.query(
                "SELECT (SELECT COUNT(*) FROM tensorio_model), (SELECT COUNT(*) FROM tensorio_version)", logger: logger)
            for try await (models, versions) in rows.decode((Int, Int).self) { return (models, versions) }
            return (0, 0)
        }
    }

    func models(limit: Int, after: String?) async throws -> ModelPage {
        try await run("list models") { client, logger in
            let rows = try await client.query("""
                SELECT \(unescaped: Self.modelColumns) FROM tensorio_model m
                WHERE (\(after)::text IS NULL OR m.id > \(after)::text) ORDER BY m.id LIMIT \(limit + 1)
                """, logger: logger)
            var summaries: [ModelSummary] = []
            for try await row in rows.decode(ModelRow.self) { summaries.append(Self.summary(row)) }
            let page = Array(summaries.prefix(limit))
            return ModelPage(models: page, next: summaries.count > limit ? page.last?.id : nil)
        }
    }

    func model(_ id: String) async throws -> ModelSummary? {
        try await run("read model \(id)") { client, logger in
            try await Self.model(id, on: client, logger: logger)
        }
    }

    func versions(of modelId: String) async throws -> VersionList? {
        try await run("list the versions of \(modelId)") { client, logger in
            try await client.withConnection { connection in
                guard let model = try await Self.model(modelId, on: connection, logger: logger) else { return nil }
                let rows = try await connection.query("""
                    SELECT \(unescaped: Self.versionColumns) FROM tensorio_version v JOIN tensorio_model m ON m.id = v.model_id
                    WHERE v.model_id = \(modelId) ORDER BY v.sequence
                    """, logger: logger)
                var versions: [VersionDetails] = []
                for try await row in rows.decode(VersionRow.self) { versions.append(Self.details(row)) }
                return VersionList(modelId: modelId, canonicalVersion: model.canonicalVersion, versions: versions)
            }
        }
    }

    func version(_ version: String, of modelId: String) async throws -> VersionDetails? {
        try await run("read version \(version) of \(modelId)") { client, logger in
            try await Self.version(version, of: modelId, on: client, logger: logger)
        }
    }

    func allVersions() async throws -> [(modelId: String, version: String, size: Int64)] {
        try await run("list every version") { client, logger in
            var all: [(modelId: String, version: String, size: Int64)] = []
            let rows = try await client.query("SELECT model_id, version, size FROM tensorio_version", logger: logger)
            for try await (modelId, version, size) in rows.decode((String, String, Int64).self) {
                all.append((modelId, version, size))
            }
            return all
        }
    }

    // MARK: Writes

    func insert(_ new: NewVersion, place: () throws -> Bool, undo: () -> Void) async throws -> VersionDetails? {
        var placed = false
        do {
            return try await client.withTransaction(logger: logger) { connection -> VersionDetails? in
                let now = Date().timeIntervalSince1970
                try await connection.query("""
                    INSERT INTO tensorio_model (id, canonical_version, created_at, updated_at)
                    VALUES (\(new.modelId), NULL, \(now), \(now)) ON CONFLICT (id) DO NOTHING
                    """, logger: logger)
                // The model's row lock: uploads of this model through any instance wait here in turn.
                var canonicalBefore: String?
                let locked = try await connection.query(
                    "SELECT canonical_version FROM tensorio_model WHERE id = \(new.modelId) FOR UPDATE", logger: logger)
                for try await canonical in locked.decode(String?.self) { canonicalBefore = canonical }
                let inserted = try await connection.query("""
                    INSERT INTO tensorio_version (model_id, version, sha256, size, created_at, notes, upgrade_to, bundle_name)
                    VALUES (\(new.modelId), \(new.version), \(new.sha256), \(new.size), \(now), \(new.notes), \(new.upgradeTo), \(new.bundleName))
                    ON CONFLICT (model_id, version) DO NOTHING RETURNING sequence
                    """, logger: logger)
                var sequence: Int64?
                for try await value in inserted.decode(Int64.self) { sequence = value }
                guard sequence != nil else { return nil }
                guard try place() else { throw NotPlaced() }
                placed = true
                let canonical = new.canonical || canonicalBefore == nil
                try await connection.query("""
                    UPDATE tensorio_model SET updated_at = \(now),
                        canonical_version = CASE WHEN \(canonical) THEN \(new.version) ELSE canonical_version END
                    WHERE id = \(new.modelId)
                    """, logger: logger)
                return try await Self.version(new.version, of: new.modelId, on: connection, logger: logger)
            }
        } catch where Self.unwrap(error) is NotPlaced {
            return nil
        } catch {
            if placed { undo() }
            throw TensorIOError(.io, "cannot index \(new.modelId) version \(new.version) in PostgreSQL: \(Self.describe(error))")
        }
    }

    func setCanonical(_ version: String, of modelId: String) async throws -> ModelSummary? {
        try await run("move the canonical version of \(modelId)") { client, logger in
            try await client.withTransaction(logger: logger) { connection -> ModelSummary? in
                let updated = try await connection.query("""
                    UPDATE tensorio_model SET canonical_version = \(version), updated_at = \(Date().timeIntervalSince1970)
                    WHERE id = \(modelId)
                      AND EXISTS (SELECT 1 FROM tensorio_version WHERE model_id = \(modelId) AND version = \(version))
                    RETURNING id
                    """, logger: logger)
                var found = false
                for try await _ in updated.decode(String.self) { found = true }
                guard found else { return nil }
                return try await Self.model(modelId, on: connection, logger: logger)
            }
        }
    }

    func setUpgradeTo(_ upgradeTo: String?, version: String, of modelId: String) async throws -> VersionDetails? {
        try await run("set upgradeTo of \(modelId) version \(version)") { client, logger in
            try await client.withTransaction(logger: logger) { connection -> VersionDetails? in
                let updated = try await connection.query("""
                    UPDATE tensorio_version SET upgrade_to = \(upgradeTo)
                    WHERE model_id = \(modelId) AND version = \(version) RETURNING sequence
                    """, logger: logger)
                var found = false
                for try await _ in updated.decode(Int64.self) { found = true }
                guard found else { return nil }
                try await connection.query(
                    "UPDATE tensorio_model SET updated_at = \(Date().timeIntervalSince1970) WHERE id = \(modelId)", logger: logger)
                return try await Self.version(version, of: modelId, on: connection, logger: logger)
            }
        }
    }

    // MARK: Lifecycle

    func deleteVersion(
        _ version: String, of modelId: String, force: Bool, removeArchive: () -> Void
    ) async throws -> RepositoryIndex.DeletionOutcome {
        try await run("delete version \(version) of \(modelId)") { client, logger in
            try await client.withTransaction(logger: logger) { connection -> RepositoryIndex.DeletionOutcome in
                // The model's row lock, as uploads take it: no upload of this version can place its archive
                // until this deletion has committed.
                var exists = false
                let locked = try await connection.query(
                    "SELECT id FROM tensorio_model WHERE id = \(modelId) FOR UPDATE", logger: logger)
                for try await _ in locked.decode(String.self) { exists = true }
                guard exists, let details = try await Self.version(version, of: modelId, on: connection, logger: logger) else {
                    return .notFound
                }
                let reasons = try await Self.versionUseReasons(version, of: modelId, on: connection, logger: logger)
                if !reasons.isEmpty, !force { return .inUse(reasons) }
                let cleared = try await Self.versionsUpgrading(to: version, of: modelId, on: connection, logger: logger)
                try await connection.query("""
                    UPDATE tensorio_version SET upgrade_to = NULL WHERE model_id = \(modelId) AND upgrade_to = \(version)
                    """, logger: logger)
                try await connection.query(
                    "DELETE FROM tensorio_version WHERE model_id = \(modelId) AND version = \(version)", logger: logger)
                try await connection.query("""
                    UPDATE tensorio_model SET updated_at = \(Date().timeIntervalSince1970),
                        canonical_version = CASE WHEN canonical_version = \(version) THEN NULL ELSE canonical_version END
                    WHERE id = \(modelId)
                    """, logger: logger)
                guard let model = try await Self.model(modelId, on: connection, logger: logger) else {
                    throw TensorIOError(.io, "model \(modelId) vanished while its version was deleted")
                }
                // Inside the transaction, under the lock: RepositoryStorage only moves the archive aside here
                // and moves it back if the commit fails.
                removeArchive()
                return .deleted(VersionDeletion(
                    deleted: details, model: model, forced: force && !reasons.isEmpty, clearedUpgradeTo: cleared))
            }
        }
    }

    func withIndexedArchives(_ body: (Set<String>) throws -> Void) async throws {
        try await run("list the indexed archives") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                // SHARE mode waits for every uncommitted insert (an upload whose archive may already be
                // linked) and holds off new ones until the collection is done, on every instance.
                try await connection.query("LOCK TABLE tensorio_version IN SHARE MODE", logger: logger)
                var names = Set<String>()
                let rows = try await connection.query("SELECT model_id, version FROM tensorio_version", logger: logger)
                for try await (modelId, version) in rows.decode((String, String).self) { names.insert("\(modelId)/\(version).zip") }
                try body(names)
            }
        }
    }

    /// Every reason a version is in use (the PostgreSQL side of `RepositoryIndex.versionUseReasons`).
    private static func versionUseReasons(
        _ version: String, of modelId: String, on connection: some PostgresQuerying, logger: Logger
    ) async throws -> [RepositoryIndex.VersionUse] {
        var reasons: [RepositoryIndex.VersionUse] = []
        let canonical = try await connection.query(
            "SELECT canonical_version FROM tensorio_model WHERE id = \(modelId)", logger: logger)
        for try await value in canonical.decode(String?.self) where value == version { reasons.append(.canonical) }
        let upgrading = try await versionsUpgrading(to: version, of: modelId, on: connection, logger: logger)
        if !upgrading.isEmpty { reasons.append(.upgradeTarget(of: upgrading)) }
        let rules = RepositoryIndex.VersionUse.rules(of: try await rollout(modelId, on: connection, logger: logger), naming: version)
        if !rules.isEmpty { reasons.append(.rolloutRules(rules)) }
        return reasons
    }

    private static func versionsUpgrading(
        to version: String, of modelId: String, on connection: some PostgresQuerying, logger: Logger
    ) async throws -> [String] {
        let rows = try await connection.query("""
            SELECT version FROM tensorio_version
            WHERE model_id = \(modelId) AND upgrade_to = \(version) AND version <> \(version) ORDER BY sequence
            """, logger: logger)
        var versions: [String] = []
        for try await value in rows.decode(String.self) { versions.append(value) }
        return versions
    }

    // MARK: Rollouts

    func rollout(of modelId: String) async throws -> Rollout? {
        try await run("read the rollout of \(modelId)") { client, logger in
            try await client.withConnection { connection in
                guard try await Self.model(modelId, on: connection, logger: logger) != nil else { return nil }
                return try await Self.rollout(modelId, on: connection, logger: logger)
            }
        }
    }

    func updateRollout(
        of modelId: String, expectedRevision: Int64?, moveCanonicalTo canonical: String?,
        _ change: (inout Rollout) throws -> Void
    ) async throws -> RepositoryIndex.RolloutWrite {
        do {
            return try await client.withTransaction(logger: logger) { connection -> RepositoryIndex.RolloutWrite in
                // The model's row lock serializes rollout changes (and uploads) across instances.
                var found = false
                var canonicalBefore: String?
                let locked = try await connection.query(
                    "SELECT canonical_version FROM tensorio_model WHERE id = \(modelId) FOR UPDATE", logger: logger)
                for try await value in locked.decode(String?.self) {
                    found = true
                    canonicalBefore = value
                }
                guard found else { return .unknownModel }
                let before = try await Self.rollout(modelId, on: connection, logger: logger)
                if let expectedRevision, expectedRevision != before.revision { return .staleRevision(current: before.revision) }
                var after = before
                try change(&after)
                let required = (after.rules != before.rules ? after.namedVersions : []).union(canonical.map { [$0] } ?? [])
                for version in required.sorted() where try await Self.version(version, of: modelId, on: connection, logger: logger) == nil {
                    return .unknownVersion(version)
                }
                let movesCanonical = canonical != nil && canonical != canonicalBefore
                guard after.rules != before.rules || after.paused != before.paused || movesCanonical else { return .done(before) }
                let now = Date()
                if let canonical, movesCanonical {
                    try await connection.query("""
                        UPDATE tensorio_model SET canonical_version = \(canonical), updated_at = \(now.timeIntervalSince1970)
                        WHERE id = \(modelId)
                        """, logger: logger)
                }
                after.revision = before.revision + 1
                after.updatedAt = now
                let rules = String(decoding: try RepositoryAPI.makeEncoder().encode(after.rules), as: UTF8.self)
                try await connection.query("""
                    INSERT INTO tensorio_rollout (model_id, revision, paused, rules, updated_at)
                    VALUES (\(modelId), \(after.revision), \(after.paused), \(rules), \(now.timeIntervalSince1970))
                    ON CONFLICT (model_id) DO UPDATE SET revision = EXCLUDED.revision, paused = EXCLUDED.paused,
                        rules = EXCLUDED.rules, updated_at = EXCLUDED.updated_at
                    """, logger: logger)
                return .done(after)
            }
        } catch where Self.unwrap(error) is RolloutInvalid {
            throw Self.unwrap(error)  // the change's own refusal, for the route to answer 400
        } catch {
            throw TensorIOError(.io, "cannot change the rollout of \(modelId) in the PostgreSQL index: \(Self.describe(error))")
        }
    }

    func assignmentInputs(
        of modelId: String, installedVersion: String?
    ) async throws -> (canonical: String?, rollout: Rollout, installedUpgradeTo: String?)? {
        try await run("read the assignment inputs of \(modelId)") { client, logger in
            // One round trip: the canonical version, the installed version's upgradeTo and the rollout.
            let rows = try await client.query("""
                SELECT m.canonical_version,
                    (SELECT upgrade_to FROM tensorio_version WHERE model_id = m.id AND version = \(installedVersion)::text),
                    r.revision, r.paused, r.rules, r.updated_at
                FROM tensorio_model m LEFT JOIN tensorio_rollout r ON r.model_id = m.id WHERE m.id = \(modelId)
                """, logger: logger)
            for try await (canonical, upgradeTo, revision, paused, rules, updatedAt)
                in rows.decode((String?, String?, Int64?, Bool?, String?, Double?).self) {
                let rollout = try Self.rollout(modelId, revision: revision, paused: paused, rules: rules, updatedAt: updatedAt)
                return (canonical, rollout, upgradeTo)
            }
            return nil
        }
    }

    private static func rollout(_ modelId: String, on connection: some PostgresQuerying, logger: Logger) async throws -> Rollout {
        let rows = try await connection.query(
            "SELECT revision, paused, rules, updated_at FROM tensorio_rollout WHERE model_id = \(modelId)", logger: logger)
        for try await (revision, paused, rules, updatedAt) in rows.decode((Int64, Bool, String, Double).self) {
            return try rollout(modelId, revision: revision, paused: paused, rules: rules, updatedAt: updatedAt)
        }
        return Rollout(modelId: modelId)
    }

    /// A rollout from its row's columns; the empty revision-0 rollout when there is no row. The rules were
    /// written by a server after its checks and are decoded leniently, as `RepositoryIndex` does.
    private static func rollout(
        _ modelId: String, revision: Int64?, paused: Bool?, rules: String?, updatedAt: Double?
    ) throws -> Rollout {
        guard let revision, let paused, let rules, let updatedAt else { return Rollout(modelId: modelId) }
        return Rollout(
            modelId: modelId, revision: revision, paused: paused,
            rules: try RepositoryAPI.makeDecoder().decode([RolloutRule].self, from: Data(rules.utf8)),
            updatedAt: Date(timeIntervalSince1970: updatedAt))
    }

    // MARK: Rows

    private typealias ModelRow = (String, String?, Double, Double, Int)
    private static let modelColumns = """
        m.id, m.canonical_version, m.created_at, m.updated_at,
        (SELECT COUNT(*) FROM tensorio_version v WHERE v.model_id = m.id)
        """

    private typealias VersionRow = (Int64, String, String, String, Int64, Double, String?, String?, String, String?)
    private static let versionColumns = """
        v.sequence, v.model_id, v.version, v.sha256, v.size, v.created_at, v.notes, v.upgrade_to, v.bundle_name,
        m.canonical_version
        """

    private static func model(_ id: String, on connection: some PostgresQuerying, logger: Logger) async throws -> ModelSummary? {
        let rows = try await connection.query(
            "SELECT \(unescaped: modelColumns) FROM tensorio_model m WHERE m.id = \(id)", logger: logger)
        for try await row in rows.decode(ModelRow.self) { return summary(row) }
        return nil
    }

    private static func version(
        _ version: String, of modelId: String, on connection: some PostgresQuerying, logger: Logger
    ) async throws -> VersionDetails? {
        let rows = try await connection.query("""
            SELECT \(unescaped: versionColumns) FROM tensorio_version v JOIN tensorio_model m ON m.id = v.model_id
            WHERE v.model_id = \(modelId) AND v.version = \(version)
            """, logger: logger)
        for try await row in rows.decode(VersionRow.self) { return details(row) }
        return nil
    }

    private static func summary(_ row: ModelRow) -> ModelSummary {
        ModelSummary(
            id: row.0, canonicalVersion: row.1, versionCount: row.4,
            createdAt: Date(timeIntervalSince1970: row.2), updatedAt: Date(timeIntervalSince1970: row.3))
    }

    private static func details(_ row: VersionRow) -> VersionDetails {
        VersionDetails(
            modelId: row.1, version: row.2, sha256: row.3, size: row.4, createdAt: Date(timeIntervalSince1970: row.5),
            notes: row.6, upgradeTo: row.7, canonical: row.2 == row.9, bundleName: row.8, sequence: row.0)
    }

    // MARK: Errors

    /// Runs one index operation, turning PostgreSQL's errors into `TensorIOError` that say what failed.
    private func run<Result>(
        _ what: @autoclosure () -> String, _ body: (PostgresClient, Logger) async throws -> Result
    ) async throws -> Result {
        do {
            return try await body(client, logger)
        } catch {
            throw TensorIOError(.io, "cannot \(what()) in the PostgreSQL index: \(Self.describe(error))")
        }
    }

    /// PSQLError's own description hides everything (to keep secrets out of logs); the server's message
    /// and SQL state are what an operator needs, and hold no credentials.
    static func describe(_ error: any Error) -> String {
        let error = unwrap(error)
        if let error = error as? TensorIOError { return error.message }
        guard let error = error as? PSQLError else { return SystemErrorText.reason(of: error) }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + state
        }
        if let underlying = error.underlying { return "\(error.code): \(SystemErrorText.reason(of: underlying))" }
        return "\(error.code)"
    }

    /// What went wrong inside `withTransaction`, which wraps every error in a `PostgresTransactionError`:
    /// the body's own error first, else the commit's or the BEGIN's.
    static func unwrap(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.closureError ?? transaction.commitError ?? transaction.beginError ?? error
    }

    /// Thrown inside the insert's transaction to roll it back when the archive could not be placed.
    private struct NotPlaced: Error {}
}

/// What both `PostgresClient` and `PostgresConnection` can run queries on.
protocol PostgresQuerying: Sendable {
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger, file: String, line: Int) async throws -> PostgresRowSequence
}

extension PostgresQuerying {
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger, file: file, line: line)
    }
}

extension PostgresClient: PostgresQuerying {
    func query(_ query: PostgresQuery, logger: Logger, file: String, line: Int) async throws -> PostgresRowSequence {
        try await self.query(query, logger: Optional(logger), file: file, line: line)
    }
}

extension PostgresConnection: PostgresQuerying {}
#endif
