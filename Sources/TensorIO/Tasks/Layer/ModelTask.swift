import Foundation

/// A task: what a bundle's own `model.json` entry adds to running the model — detection, segmentation,
/// embedding, audio, text. The core knows tasks only through this protocol and ``TaskRegistry``, as it
/// knows backends only through `BackendEngine`: each task's folder (in `TensorIOVision`, `TensorIOAudio`,
/// `TensorIOText`) holds its entry's reading, checking, inference and writing beside its decoder and its
/// public API (docs/architecture.md, "Add a task").
///
/// Opening a bundle with a registry that has the task reads its entry then; a task module's API reads
/// it on first use otherwise (``ModelBundle/taskDescription(_:)``), so the same checks and the same
/// JSON paths apply either way.
package protocol ModelTask: Sendable {
    /// What the entry says, checked: the value the task's decoder works from.
    associatedtype Description: TaskDescription

    /// The entry's key at the top level of `model.json` ("detection", "audio", …).
    static var entryKey: String { get }

    /// Reads the entry from the document alone, recording every problem on `reader` with its JSON path
    /// (under ``entryKey``).
    ///
    /// - Returns: The description, or `nil` when the reader recorded a problem.
    static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> Description?

    /// Reads the files the description names from the bundle's assets (labels, anchors, a vocabulary),
    /// recording problems on `assets`.
    static func readFiles(of description: Description, layers: TaskLayers, from assets: inout TaskAssets) -> Description

    /// What a bare `.tflite` model implies: the description, or `nil` when the model is not one of this
    /// task's. The task may also settle its image input's preparation (as MediaPipe prepares photos for
    /// it) and note what it inferred. Tasks infer in the registry's order.
    ///
    /// - Throws: ``TensorIOError`` when the model's metadata describes the task wrongly.
    static func infer(_ inference: inout TFLiteBundleInference) throws -> Description?

    /// Whether the task infers only after every other (a fallback rule, such as embeddings' "one
    /// unlabelled vector"), whatever the registration order.
    static var infersLast: Bool { get }
}

extension ModelTask {
    package static func readFiles(of description: Description, layers: TaskLayers, from assets: inout TaskAssets) -> Description {
        description
    }

    package static func infer(_ inference: inout TFLiteBundleInference) throws -> Description? { nil }

    package static var infersLast: Bool { false }
}

/// A task's checked entry: what the bundle holds for it, and how `tensorio init` writes it back.
package protocol TaskDescription: Sendable, Hashable {
    /// The entry as `model.json` spells it, in the documented key order.
    var modelJSON: OrderedJSON { get }
}

/// The layers a task's entry refers to, as `model.json` declares them.
package struct TaskLayers: Sendable {
    package var inputs: [LayerDescription]
    package var outputs: [LayerDescription]
}
