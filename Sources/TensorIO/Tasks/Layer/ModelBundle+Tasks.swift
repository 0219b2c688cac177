import Foundation

extension ModelBundle {
    /// A task's description of this bundle: the one read when it opened (a registered task) or inferred
    /// from the bare model, else its `model.json` entry read now — checked as opening would have, and
    /// kept, so later calls do not read it again.
    ///
    /// - Parameter task: The task.
    /// - Returns: The description; `nil` when the bundle has no entry for the task.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidBundle``) with every problem of the entry
    ///   and the files it names, at their JSON paths.
    package func taskDescription<Task: ModelTask>(_ task: Task.Type) throws -> Task.Description? {
        if let description = tasks.cached(task) { return description }
        guard let entry = tasks.entries[Task.entryKey] else { return nil }
        var reader = ModelJSONReader(knownBackends: [], limits: tasks.limits)
        let layers = TaskLayers(inputs: Array(inputs), outputs: Array(outputs))
        guard let read = Task.read(entry, layers: layers, reader: &reader), reader.issues.isEmpty else {
            // A reader records why it gives nothing; should one not, the entry is still named.
            throw TensorIOError.invalidBundle(
                reader.issues.isEmpty ? [BundleIssue(path: Task.entryKey, message: "cannot be read")] : reader.issues
            )
        }
        var assets = TaskAssets(bundleURL: url, limits: tasks.limits)
        let description = Task.readFiles(of: read, layers: layers, from: &assets)
        guard assets.issues.isEmpty else { throw TensorIOError.invalidBundle(assets.issues) }
        tasks.keep(description, for: task)
        return description
    }

    /// A task's description, or the one error every task's call throws when the bundle has none.
    ///
    /// - Parameters:
    ///   - task: The task.
    ///   - missing: What the bundle does not describe, for the message ("detection outputs").
    ///   - registry: The registry that infers the entry from a bare model, for the message (".vision").
    /// - Returns: The description.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``, at the entry's key) saying how to add
    ///   the entry — or, for a bare model, which registry infers it; what ``taskDescription(_:)`` throws.
    package func requiredTaskDescription<Task: ModelTask>(_ task: Task.Type, missing: String, registry: String) throws -> Task.Description {
        if let description = try taskDescription(task) { return description }
        let remedy = isInferred
            ? "open the model with a registry that infers its \"\(Task.entryKey)\" entry (registry: \(registry)), or let `tensorio init` write a bundle"
            : "add a \"\(Task.entryKey)\" entry to model.json (docs/model-json.md), or let `tensorio init` write it"
        throw TensorIOError(.unsupported, "\(url.lastPathComponent) describes no \(missing): \(remedy)", location: Task.entryKey)
    }
}
