internal import TensorIOSupport

/// The task entries a bundle carries: each as `model.json` wrote it, and checked descriptions of those
/// read so far.
///
/// Entries of registered tasks are read when the bundle opens (or inferred from a bare model); an entry
/// of a task that was not registered is read on its first use and kept, shared by every copy of the
/// bundle, so a detector's anchors are made once, not on every call. Two bundles are equal when their
/// entries and opening-time descriptions are.
package struct BundleTasks: Sendable, Hashable {
    /// Every task entry of `model.json`, by key, as written (empty for an inferred bundle).
    package private(set) var entries: [String: JSONValue] = [:]
    /// The descriptions read when the bundle opened or inferred from a bare model, by entry key.
    package private(set) var descriptions: [String: any TaskDescription] = [:]
    /// The limits the bundle was opened with, for the files an entry read later names.
    package private(set) var limits = ModelLimits()
    /// Descriptions of unregistered tasks' entries, read on first use.
    private let readLater = LockedValue<[String: any TaskDescription]>([:])

    package init(entries: [String: JSONValue] = [:], descriptions: [String: any TaskDescription] = [:], limits: ModelLimits = ModelLimits()) {
        self.entries = entries
        self.descriptions = descriptions
        self.limits = limits
    }

    /// The description read already for `task`'s entry, from opening or an earlier use.
    func cached<Task: ModelTask>(_ task: Task.Type) -> Task.Description? {
        if let description = descriptions[Task.entryKey] as? Task.Description { return description }
        return readLater.value[Task.entryKey] as? Task.Description
    }

    /// Keeps a description read on first use.
    func keep<Task: ModelTask>(_ description: Task.Description, for task: Task.Type) {
        readLater.withLock { $0[Task.entryKey] = description }
    }

    package static func == (lhs: BundleTasks, rhs: BundleTasks) -> Bool {
        lhs.entries == rhs.entries && lhs.limits == rhs.limits
            && lhs.descriptions.mapValues { AnyHashable($0) } == rhs.descriptions.mapValues { AnyHashable($0) }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
        hasher.combine(descriptions.mapValues { AnyHashable($0) })
    }
}

extension BundleTasks {
    /// Reads the files a registered task's description names, replacing the description with the one
    /// that holds them (opening's second phase).
    mutating func readFiles<Task: ModelTask>(of task: Task.Type, layers: TaskLayers, from assets: inout TaskAssets) {
        guard let description = descriptions[Task.entryKey] as? Task.Description else { return }
        descriptions[Task.entryKey] = Task.readFiles(of: description, layers: layers, from: &assets)
    }
}

extension ModelBundle {
    /// The task entries read when the bundle opened or inferred from a bare model, by key, each as its
    /// task writes it into `model.json` (`tensorio inspect` and `init` print them).
    @_spi(Internal) public var taskEntriesJSON: [String: OrderedJSON] { tasks.descriptions.mapValues(\.modelJSON) }
}
