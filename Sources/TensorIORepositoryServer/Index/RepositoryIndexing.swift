#if Server  // built with the Server trait only (Package.swift)
import Foundation
import TensorIODelivery

/// What the server needs from its index of models and versions, whichever database holds it: SQLite on
/// the server's own disk (``RepositoryIndex``, the default) or PostgreSQL shared by several server
/// instances (``PostgresIndex``).
///
/// Every answer comes from the database at the time of the call (no cache), so that with several
/// instances on one database an upload, a canonical move or a rule change through one instance is what
/// the next request to any instance sees.
protocol RepositoryIndexing: Sendable {
    /// Whether other server instances may use the same index and archive folder at the same time. Start-up
    /// recovery then removes only files old enough that no instance can still be placing them.
    var isShared: Bool { get }

    /// Runs `body` while the index is usable: a database client that needs a running connection pool
    /// runs it around `body`, and creates or migrates the schema first.
    func withOpenIndex<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result

    func counts() async throws -> (models: Int, versions: Int)
    func models(limit: Int, after: String?) async throws -> ModelPage
    func model(_ id: String) async throws -> ModelSummary?
    func versions(of modelId: String) async throws -> VersionList?
    func version(_ version: String, of modelId: String) async throws -> VersionDetails?
    /// Every indexed (model, version) with its archive size, for the start-up check.
    func allVersions() async throws -> [(modelId: String, version: String, size: Int64)]

    /// Inserts a version — and its model when new — and moves the canonical pointer when asked (or when
    /// the model had none), atomically. `place` puts the archive in place while the new row is not yet
    /// visible to anyone and no other writer can insert the same version; if the insert then fails,
    /// `undo` removes the archive again.
    ///
    /// - Returns: The inserted version, or `nil` when it exists already.
    func insert(_ new: NewVersion, place: () throws -> Bool, undo: () -> Void) async throws -> VersionDetails?

    /// Moves the canonical pointer to an existing version; `nil` when the model or version does not exist.
    func setCanonical(_ version: String, of modelId: String) async throws -> ModelSummary?
    /// Sets or clears a version's `upgradeTo`; `nil` when the version does not exist.
    func setUpgradeTo(_ upgradeTo: String?, version: String, of modelId: String) async throws -> VersionDetails?

    /// Deletes a version's row unless it is in use (or `force`), and runs `removeArchive` while no other
    /// writer can place or delete that version (see `RepositoryIndex.deleteVersion(_:of:force:removeArchive:)`).
    func deleteVersion(
        _ version: String, of modelId: String, force: Bool, removeArchive: () -> Void
    ) async throws -> RepositoryIndex.DeletionOutcome

    /// Runs `body` with the archive paths the index names (`<model>/<version>.zip`) while no upload, of
    /// this instance or another on the same database, can place an archive.
    func withIndexedArchives(_ body: (Set<String>) throws -> Void) async throws

    /// A model's rollout (revision 0 and no rules when it never had one); `nil` when the model does not
    /// exist.
    func rollout(of modelId: String) async throws -> Rollout?

    /// Changes a model's rollout atomically (see `RepositoryIndex.updateRollout(of:expectedRevision:moveCanonicalTo:_:)`).
    func updateRollout(
        of modelId: String, expectedRevision: Int64?, moveCanonicalTo canonical: String?,
        _ change: (inout Rollout) throws -> Void
    ) async throws -> RepositoryIndex.RolloutWrite

    /// What an assignment needs, read at once: the canonical version, the rollout and the installed
    /// version's `upgradeTo`; `nil` when the model does not exist.
    func assignmentInputs(
        of modelId: String, installedVersion: String?
    ) async throws -> (canonical: String?, rollout: Rollout, installedUpgradeTo: String?)?
}

/// A version about to be inserted into the index.
struct NewVersion: Sendable {
    var modelId: String
    var version: String
    var sha256: String
    var size: Int64
    var notes: String?
    var upgradeTo: String?
    var bundleName: String
    var canonical: Bool
}
#endif
