/// The tasks whose `model.json` entries are read when a bundle opens and inferred from bare models: a
/// value the caller builds (through ``ModelRegistry``), not process-wide state.
///
/// Registered tasks are read, in registration order, when a bundle opens (every problem reported with
/// the rest of `model.json`'s) and infer their entries from a bare model. A bundle may also carry the
/// entry of a task that is not registered when one of ``wellKnownKeys`` names it: the bundle keeps it
/// and the task's module reads it on first use — the way `model.backend` may name a backend the
/// registry cannot run and still validate.
package struct TaskRegistry: Sendable {
    /// The task entries TensorIO's task modules read, accepted at the top level of `model.json` whether
    /// or not their task is registered.
    package static let wellKnownKeys: Set<String> = ["detection", "segmentation", "landmarks", "embedding", "audio", "text", "classifier_head"]

    /// The registered tasks, in registration order.
    package private(set) var tasks: [any ModelTask.Type] = []

    package init() {}

    /// Registers a task; a task already registered (by its entry key) is replaced in its place.
    package mutating func register(_ task: any ModelTask.Type) {
        if let index = tasks.firstIndex(where: { $0.entryKey == task.entryKey }) {
            tasks[index] = task
        } else {
            tasks.append(task)
        }
    }

    /// The registered tasks in the order they infer: registration order, fallbacks last.
    package var inferenceOrder: [any ModelTask.Type] {
        tasks.filter { !$0.infersLast } + tasks.filter { $0.infersLast }
    }

    /// The entry keys `model.json` may use: the well-known ones and the registered ones.
    package var knownKeys: Set<String> {
        Self.wellKnownKeys.union(tasks.map { $0.entryKey })
    }
}
