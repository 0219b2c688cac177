public import Foundation
import GRDB
import TensorIODelivery

/// The SQLite index of models and versions (GRDB, WAL mode): which versions exist, their SHA-256 and size,
/// and each model's canonical version. Archives live beside it on disk; a version row exists only once its
/// archive is in place (see ``RepositoryStorage``). One server instance: several instances share a
/// ``PostgresIndex`` instead.
///
/// Its methods are synchronous (SQLite on local disk answers in microseconds) and witness the
/// asynchronous requirements of `RepositoryIndexing`.
public final class RepositoryIndex: RepositoryIndexing {
    var isShared: Bool { false }

    func withOpenIndex<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try await body()
    }

    let pool: DatabasePool

    /// Opens (and creates, and migrates) the index at `url`.
    ///
    /// - Parameter url: The SQLite file.
    /// - Throws: GRDB's error when the file cannot be opened or migrated.
    public init(url: URL) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: url.path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE model (
                    id TEXT PRIMARY KEY NOT NULL,
                    canonicalVersion TEXT,
                    createdAt DOUBLE NOT NULL,
                    updatedAt DOUBLE NOT NULL
                );
                CREATE TABLE version (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    modelId TEXT NOT NULL REFERENCES model(id),
                    version TEXT NOT NULL,
                    sha256 TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    createdAt DOUBLE NOT NULL,
                    notes TEXT,
                    upgradeTo TEXT,
                    bundleName TEXT NOT NULL,
                    UNIQUE (modelId, version)
                );
                """)
        }
        try migrator.migrate(pool)
    }

    // MARK: Reads

    func counts() throws -> (models: Int, versions: Int) {
        try pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM model") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM version") ?? 0)
        }
    }

    func models(limit: Int, after: String?) throws -> ModelPage {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT m.*, (SELECT COUNT(*) FROM version v WHERE v.modelId = m.id) AS versionCount
                FROM model m WHERE (? IS NULL OR m.id > ?) ORDER BY m.id LIMIT ?
                """, arguments: [after, after, limit + 1])
            let summaries = rows.prefix(limit).map(Self.summary)
            return ModelPage(models: Array(summaries), next: rows.count > limit ? summaries.last?.id : nil)
        }
    }

    func model(_ id: String) throws -> ModelSummary? {
        try pool.read { db in try Self.model(db, id) }
    }

    func versions(of modelId: String) throws -> VersionList? {
        try pool.read { db in
            guard let model = try Self.model(db, modelId) else { return nil }
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM version WHERE modelId = ? ORDER BY sequence", arguments: [modelId])
            return VersionList(
                modelId: modelId, canonicalVersion: model.canonicalVersion,
                versions: rows.map { Self.details($0, canonical: model.canonicalVersion) })
        }
    }

    func version(_ version: String, of modelId: String) throws -> VersionDetails? {
        try pool.read { db in try Self.version(db, version, of: modelId) }
    }

    /// Every indexed (model, version) with its archive size, for the start-up check.
    func allVersions() throws -> [(modelId: String, version: String, size: Int64)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT modelId, version, size FROM version").map {
                (modelId: $0["modelId"], version: $0["version"], size: $0["size"])
            }
        }
    }

    // MARK: Writes

    /// Inserts a version — and its model when new — and moves the canonical pointer when asked (or when
    /// the model had none), in one transaction. `place` runs first inside the same write, serialized with
    /// every other write: it puts the archive in place, and its effect is undone by `undo` if the
    /// transaction fails.
    ///
    /// - Returns: The inserted version, or `nil` when it exists already.
    func insert(_ new: NewVersion, place: () throws -> Bool, undo: () -> Void) throws -> VersionDetails? {
        var placed = false
        do {
            return try pool.write { db -> VersionDetails? in
                if try Self.version(db, new.version, of: new.modelId) != nil { return nil }
                guard try place() else { return nil }
                placed = true
                let now = Date().timeIntervalSince1970
                let existing = try Self.model(db, new.modelId)
                if existing == nil {
                    try db.execute(
                        sql: "INSERT INTO model (id, canonicalVersion, createdAt, updatedAt) VALUES (?, NULL, ?, ?)",
                        arguments: [new.modelId, now, now])
                }
                try db.execute(sql: """
                    INSERT INTO version (modelId, version, sha256, size, createdAt, notes, upgradeTo, bundleName)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [new.modelId, new.version, new.sha256, new.size, now, new.notes, new.upgradeTo, new.bundleName])
                let canonical = new.canonical || existing?.canonicalVersion == nil
                try db.execute(
                    sql: "UPDATE model SET updatedAt = ?, canonicalVersion = CASE WHEN ? THEN ? ELSE canonicalVersion END WHERE id = ?",
                    arguments: [now, canonical, new.version, new.modelId])
                return try Self.version(db, new.version, of: new.modelId)
            }
        } catch {
            if placed { undo() }
            throw error
        }
    }

    /// Moves the canonical pointer to an existing version.
    ///
    /// - Returns: The model as it now is; `nil` when the model or the version does not exist.
    func setCanonical(_ version: String, of modelId: String) throws -> ModelSummary? {
        try pool.write { db in
            guard try Self.version(db, version, of: modelId) != nil else { return nil }
            try db.execute(
                sql: "UPDATE model SET canonicalVersion = ?, updatedAt = ? WHERE id = ?",
                arguments: [version, Date().timeIntervalSince1970, modelId])
            return try Self.model(db, modelId)
        }
    }

    /// Sets or clears a version's `upgradeTo`.
    ///
    /// - Returns: The version as it now is; `nil` when it does not exist.
    func setUpgradeTo(_ upgradeTo: String?, version: String, of modelId: String) throws -> VersionDetails? {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE version SET upgradeTo = ? WHERE modelId = ? AND version = ?",
                arguments: [upgradeTo, modelId, version])
            if db.changesCount > 0 {
                try db.execute(sql: "UPDATE model SET updatedAt = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, modelId])
            }
            return try Self.version(db, version, of: modelId)
        }
    }

    // MARK: Lifecycle: deleting versions, collecting garbage (issue 13)

    /// Why a version is in use, so that deleting it needs `force`.
    enum VersionUse: Sendable, Hashable, CustomStringConvertible {
        /// It is the model's canonical version.
        case canonical
        /// These versions' `upgradeTo` names it.
        case upgradeTarget(of: [String])

        var description: String {
            switch self {
            case .canonical: "it is the canonical version"
            case .upgradeTarget(let versions):
                "the upgradeTo of version\(versions.count == 1 ? "" : "s") \(versions.joined(separator: ", ")) names it"
            }
        }
    }

    /// Every reason `version` of `modelId` is in use — the one place that answers "may this version go?".
    /// Empty when it may be deleted without `force`.
    static func versionUseReasons(_ db: Database, version: String, of modelId: String) throws -> [VersionUse] {
        var reasons: [VersionUse] = []
        let canonical = try String.fetchOne(db, sql: "SELECT canonicalVersion FROM model WHERE id = ?", arguments: [modelId])
        if canonical == version { reasons.append(.canonical) }
        let upgrading = try String.fetchAll(db, sql: """
            SELECT version FROM version WHERE modelId = ? AND upgradeTo = ? AND version != ? ORDER BY sequence
            """, arguments: [modelId, version, version])
        if !upgrading.isEmpty { reasons.append(.upgradeTarget(of: upgrading)) }
        // Rollout rules (issue 13, branch `rollouts`): a rule that assigns this version to devices is a use
        // too; add its case and its query here.
        return reasons
    }

    /// What ``deleteVersion(_:of:force:removeArchive:)`` did.
    enum DeletionOutcome: Sendable {
        /// No such version (or model).
        case notFound
        /// Refused: the version is in use and `force` was not given.
        case inUse([VersionUse])
        /// The row is gone (and `removeArchive` ran).
        case deleted(VersionDeletion)
    }

    /// Deletes a version's row unless it is in use (or `force`), then — after the commit, still serialized
    /// with every other write of this process — runs `removeArchive`.
    ///
    /// Row first, file second: a crash between the two leaves an archive that no row names, which the
    /// garbage collection (at start-up, or on demand) removes; the other order could leave a row whose
    /// archive is gone. A forced delete of the canonical version leaves the model with no canonical
    /// version (devices keep what they have; the next upload becomes canonical), and clears the
    /// `upgradeTo` of the versions that named it. The model row stays, even with no versions left.
    func deleteVersion(
        _ version: String, of modelId: String, force: Bool, removeArchive: () -> Void
    ) throws -> DeletionOutcome {
        try pool.writeWithoutTransaction { db in
            var outcome = DeletionOutcome.notFound
            try db.inTransaction {
                guard let details = try Self.version(db, version, of: modelId) else { return .commit }
                let reasons = try Self.versionUseReasons(db, version: version, of: modelId)
                if !reasons.isEmpty, !force {
                    outcome = .inUse(reasons)
                    return .commit
                }
                let cleared = try String.fetchAll(db, sql: """
                    SELECT version FROM version WHERE modelId = ? AND upgradeTo = ? AND version != ? ORDER BY sequence
                    """, arguments: [modelId, version, version])
                try db.execute(
                    sql: "UPDATE version SET upgradeTo = NULL WHERE modelId = ? AND upgradeTo = ?", arguments: [modelId, version])
                try db.execute(sql: "DELETE FROM version WHERE modelId = ? AND version = ?", arguments: [modelId, version])
                try db.execute(sql: """
                    UPDATE model SET updatedAt = ?,
                        canonicalVersion = CASE WHEN canonicalVersion = ? THEN NULL ELSE canonicalVersion END
                    WHERE id = ?
                    """, arguments: [Date().timeIntervalSince1970, version, modelId])
                guard let model = try Self.model(db, modelId) else { return .rollback }
                outcome = .deleted(VersionDeletion(deleted: details, model: model, forced: force && !reasons.isEmpty, clearedUpgradeTo: cleared))
                return .commit
            }
            if case .deleted = outcome { removeArchive() }
            return outcome
        }
    }

    /// Runs `body` with the archive paths the index names (`<model>/<version>.zip`), serialized with every
    /// write of this process: no upload of this server places an archive while `body` runs.
    func withIndexedArchives<T>(_ body: (Set<String>) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            let rows = try Row.fetchAll(db, sql: "SELECT modelId, version FROM version")
            let names = rows.map { row -> String in
                let modelId: String = row["modelId"]
                let version: String = row["version"]
                return "\(modelId)/\(version).zip"
            }
            return try body(Set(names))
        }
    }

    // MARK: Rows

    private static func model(_ db: Database, _ id: String) throws -> ModelSummary? {
        try Row.fetchOne(db, sql: """
            SELECT m.*, (SELECT COUNT(*) FROM version v WHERE v.modelId = m.id) AS versionCount
            FROM model m WHERE m.id = ?
            """, arguments: [id]).map(summary)
    }

    private static func version(_ db: Database, _ version: String, of modelId: String) throws -> VersionDetails? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT * FROM version WHERE modelId = ? AND version = ?", arguments: [modelId, version])
        else { return nil }
        let canonical = try String.fetchOne(db, sql: "SELECT canonicalVersion FROM model WHERE id = ?", arguments: [modelId])
        return details(row, canonical: canonical)
    }

    private static func summary(_ row: Row) -> ModelSummary {
        ModelSummary(
            id: row["id"], canonicalVersion: row["canonicalVersion"], versionCount: row["versionCount"],
            createdAt: Date(timeIntervalSince1970: row["createdAt"]), updatedAt: Date(timeIntervalSince1970: row["updatedAt"]))
    }

    private static func details(_ row: Row, canonical: String?) -> VersionDetails {
        let version: String = row["version"]
        return VersionDetails(
            modelId: row["modelId"], version: version, sha256: row["sha256"], size: row["size"],
            createdAt: Date(timeIntervalSince1970: row["createdAt"]), notes: row["notes"], upgradeTo: row["upgradeTo"],
            canonical: version == canonical, bundleName: row["bundleName"], sequence: row["sequence"])
    }
}
