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
    /// How the outputs become detections (`detection`), its files not read yet.
    var detection: DetectionDescription?
    /// How an output becomes a segmentation mask (`segmentation`), its labels not read yet.
    var segmentation: SegmentationDescription? = nil
    /// How an output becomes an embedding (`embedding`).
    var embedding: EmbeddingDescription? = nil
    /// Which input takes sound, and at what rate (`audio`).
    var audio: AudioDescription? = nil
    /// How the inputs take text (`text`), its files not checked yet.
    var text: TextDescription? = nil
    /// The labels files `model.json` names, by output index: read when the bundle opens, which puts the
    /// labels on those outputs (``LayerDescription/Kind/array(quantization:labels:)``).
    var labelsFiles: [Int: String] = [:]
}
