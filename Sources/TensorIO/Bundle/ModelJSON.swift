/// What `model.json` says, once it has passed the schema checks (labels not read yet).
struct ModelJSON: Sendable {
    var name: String
    var details: String
    var identifier: String
    var version: String
    var author: String
    var license: String
    var isPlaceholder: Bool
    var model: ModelInfo
    var inputs: [LayerDescription]
    var outputs: [LayerDescription]
    var placeholders: [LayerDescription]
    var training: TrainingDescription?
    var options: ModelOptions
}
