#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation

/// The answer to `DELETE /v1/models/{id}/versions/{v}`: what was deleted and what changed with it.
public struct VersionDeletion: Codable, Sendable, Hashable {
    /// The deleted version as it was.
    public var deleted: VersionDetails
    /// The model as it now is: its canonical version is `nil` when the deleted version was canonical,
    /// and it stays listed with no versions when the last one was deleted.
    public var model: ModelSummary
    /// Whether `force=true` overrode the version being in use.
    public var forced: Bool
    /// The versions whose `upgradeTo` named the deleted version and was cleared (a forced delete only).
    public var clearedUpgradeTo: [String]

    /// Creates the answer.
    public init(deleted: VersionDetails, model: ModelSummary, forced: Bool, clearedUpgradeTo: [String]) {
        self.deleted = deleted
        self.model = model
        self.forced = forced
        self.clearedUpgradeTo = clearedUpgradeTo
    }
}

/// The answer to `POST /v1/admin/collect-garbage`: the files under the server's root that no index row
/// names and that were removed, or left alone.
public struct GarbageReport: Codable, Sendable, Hashable {
    /// The grace period used, in seconds: younger files were kept.
    public var olderThan: Int
    /// Archives removed (`<model>/<file>`, relative to `archives/`): no version row names them.
    public var removedArchives: [String]
    /// Unfinished uploads removed from `incoming/`.
    public var removedIncoming: [String]
    /// Unindexed files kept because they are younger than the grace period (another instance may be
    /// placing them right now) or in use by an upload of this server.
    public var keptRecent: Int
    /// What was left alone because it is not a plain file or folder the server made: symbolic links
    /// (never followed, never removed) and other kinds of files, relative to the root.
    public var skipped: [String]
    /// `false` when a listing was longer than the collector reads in one run
    /// (``GarbageReport/maximumEntries``); run it again.
    public var complete: Bool

    /// The most directory entries one collection examines.
    public static let maximumEntries = 1_000_000

    /// Creates a report.
    public init(
        olderThan: Int, removedArchives: [String] = [], removedIncoming: [String] = [], keptRecent: Int = 0,
        skipped: [String] = [], complete: Bool = true
    ) {
        self.olderThan = olderThan
        self.removedArchives = removedArchives
        self.removedIncoming = removedIncoming
        self.keptRecent = keptRecent
        self.skipped = skipped
        self.complete = complete
    }
}
#endif
