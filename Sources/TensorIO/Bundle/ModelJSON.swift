/// What `model.json` says, once it has passed the schema checks (labels not read yet).
struct ModelJSON: Sendable {
    /// `nil` when left out: the bundle's identifier stands in.
    var name: String?
    var details: String
    /// `nil` when left out: the bundle folder's name stands in.
    var identifier: String?
    var version: String
    var author: String
    var license: String
    var isPlaceholder: Bool
    var modelFile: ModelFileDescription
    var inputs: [LayerDescription]
    var outputs: [LayerDescription]
    var placeholders: [LayerDescription]
    var training: TrainingDescription?
    var options: ModelOptions
    /// The task entries (`detection`, `audio`, …): registered tasks' read, their files not read yet.
    var tasks = BundleTasks()
    /// The labels files `model.json` names, by output index: read when the bundle opens, which puts the
    /// labels on those outputs (``LayerDescription/Kind/array(quantization:labels:)``).
    var labelsFiles: [Int: String] = [:]
}
