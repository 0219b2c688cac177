#if Server  // built with the Server trait only (Package.swift)
public import Foundation
import GRDB
import TensorIODelivery

/// The SQLite index of models and versions (GRDB, WAL mode): which versions exist, their SHA-256 and size,
/// and each model's canonical version. Archives live beside it on disk; a version row exists only once its
/// archive is in place (see ``RepositoryStorage``). One server instance: several instances share a
/// PostgreSQL index (`RepositoryDatabase.postgres(_:)`) instead.
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
        // A model's rollout rules (docs/repository-api.md, "Rollouts and targeting"): the rules as the
        // API's JSON, checked before they are written, and a revision that every change increments.
        migrator.registerMigration("v2-rules") { db in
            try db.execute(sql: """
                CREATE TABLE rollout (
                    modelId TEXT PRIMARY KEY NOT NULL REFERENCES model(id),
                    revision INTEGER NOT NULL,
                    paused BOOLEAN NOT NULL,
                    rules TEXT NOT NULL,
                    updatedAt DOUBLE NOT NULL
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
        /// These rules of the model's rollout assign it (as their version or one of their arms).
        case rolloutRules([String])

        var description: String {
            switch self {
            case .canonical: "it is the canonical version"
            case .upgradeTarget(let versions):
                "the upgradeTo of version\(versions.count == 1 ? "" : "s") \(versions.joined(separator: ", ")) names it"
            case .rolloutRules(let rules):
                "the rollout rule\(rules.count == 1 ? "" : "s") \(rules.joined(separator: ", ")) assign\(rules.count == 1 ? "s" : "") it"
            }
        }

        /// The names of the rules of `rollout` that assign `version`.
        static func rules(of rollout: Rollout, naming version: String) -> [String] {
            rollout.rules.filter { rule in
                rule.version == version || (rule.split ?? []).contains { $0.version == version }
            }.map(\.name)
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
        let rules = VersionUse.rules(of: try rollout(db, modelId), naming: version)
        if !rules.isEmpty { reasons.append(.rolloutRules(rules)) }
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


    // MARK: Rollouts

    /// What a rollout change did.
    enum RolloutWrite: Sendable {
        /// The rollout as it now is (the same revision when the change changed nothing).
        case done(Rollout)
        /// The model does not exist.
        case unknownModel
        /// The changed rules, or the canonical move, name a version the model does not have.
        case unknownVersion(String)
        /// The change was based on another revision than the rollout's.
        case staleRevision(current: Int64)
    }

    /// A model's rollout; a revision-0 rollout without rules when it never had one, `nil` when the model
    /// does not exist. Read from the index every time: with several instances on one database, a change
    /// through any of them is what the next request sees.
    func rollout(of modelId: String) throws -> Rollout? {
        try pool.read { db in
            guard try Self.model(db, modelId) != nil else { return nil }
            return try Self.rollout(db, modelId)
        }
    }

    /// Changes a model's rollout in one serialized write: `change` edits the rollout as it is (or throws,
    /// leaving everything as it was), and `canonical`, when given, moves the canonical pointer in the same
    /// transaction. When the rules changed, every version they name must exist; when anything changed, the
    /// revision is incremented and the time stamped.
    ///
    /// - Parameters:
    ///   - modelId: The model.
    ///   - expectedRevision: When given, the change is refused unless the rollout is at this revision.
    ///   - canonical: A version to make canonical.
    ///   - change: Edits the rollout; a pure function of it.
    /// - Returns: What happened.
    func updateRollout(
        of modelId: String, expectedRevision: Int64? = nil, moveCanonicalTo canonical: String? = nil,
        _ change: (inout Rollout) throws -> Void
    ) throws -> RolloutWrite {
        try pool.write { db in
            guard let model = try Self.model(db, modelId) else { return .unknownModel }
            let before = try Self.rollout(db, modelId)
            if let expectedRevision, expectedRevision != before.revision { return .staleRevision(current: before.revision) }
            var after = before
            try change(&after)
            let required = (after.rules != before.rules ? after.namedVersions : []).union(canonical.map { [$0] } ?? [])
            for version in required.sorted() where try Self.version(db, version, of: modelId) == nil {
                return .unknownVersion(version)
            }
            let movesCanonical = canonical != nil && canonical != model.canonicalVersion
            guard after.rules != before.rules || after.paused != before.paused || movesCanonical else { return .done(before) }
            let now = Date()
            if let canonical, movesCanonical {
                try db.execute(
                    sql: "UPDATE model SET canonicalVersion = ?, updatedAt = ? WHERE id = ?",
                    arguments: [canonical, now.timeIntervalSince1970, modelId])
            }
            after.revision = before.revision + 1
            after.updatedAt = now
            let rules = String(decoding: try RepositoryAPI.makeEncoder().encode(after.rules), as: UTF8.self)
            try db.execute(sql: """
                INSERT INTO rollout (modelId, revision, paused, rules, updatedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (modelId) DO UPDATE SET revision = excluded.revision, paused = excluded.paused,
                    rules = excluded.rules, updatedAt = excluded.updatedAt
                """, arguments: [modelId, after.revision, after.paused, rules, now.timeIntervalSince1970])
            return .done(after)
        }
    }

    /// What an assignment needs, read in one transaction: the model's canonical version, its rollout, and
    /// the installed version's `upgradeTo`. `nil` when the model does not exist.
    func assignmentInputs(of modelId: String, installedVersion: String?) throws -> (canonical: String?, rollout: Rollout, installedUpgradeTo: String?)? {
        try pool.read { db in
            guard let canonical = try Row.fetchOne(db, sql: "SELECT canonicalVersion FROM model WHERE id = ?", arguments: [modelId]) else {
                return nil
            }
            let upgradeTo = try installedVersion.flatMap {
                try String.fetchOne(db, sql: "SELECT upgradeTo FROM version WHERE modelId = ? AND version = ?", arguments: [modelId, $0])
            }
            return (canonical["canonicalVersion"], try Self.rollout(db, modelId), upgradeTo)
        }
    }

    /// The versions a model's rollout rules name: a version in this set must not be deleted without
    /// `force`, or the rules would name a version that does not exist.
    func versionsNamedByRollout(modelId: String) throws -> Set<String> {
        try rollout(of: modelId)?.namedVersions ?? []
    }

    private static func rollout(_ db: Database, _ modelId: String) throws -> Rollout {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM rollout WHERE modelId = ?", arguments: [modelId]) else {
            return Rollout(modelId: modelId)
        }
        let text: String = row["rules"]
        // Written by this server after its checks; decoded leniently (no unknown-key refusal) so that rules
        // written by a newer version of the server still read.
        let rules = try RepositoryAPI.makeDecoder().decode([RolloutRule].self, from: Data(text.utf8))
        return Rollout(
            modelId: modelId, revision: row["revision"], paused: row["paused"], rules: rules,
            updatedAt: Date(timeIntervalSince1970: row["updatedAt"]))
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
#endif
