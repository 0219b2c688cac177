import Foundation

/// The embedding task: the `embedding` entry (docs/model-json.md, "Embeddings") — which output holds
/// the vector, whether to L2-normalize and quantize it — shared by image and text embedders, so it is
/// the core's own and registered in ``ModelRegistry/builtIn``.
package enum EmbeddingTask: ModelTask {
    package static let entryKey = "embedding"
    /// After the image tasks: a detector or segmenter with one vector output is theirs.
    package static let infersLast = true

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> EmbeddingDescription? {
        reader.readEmbedding(entry, outputs: layers.outputs)
    }

    /// A photo in, one unlabelled vector out: no entry (the file cannot tell an embedder from a
    /// classifier whose labels are not known, and ``EmbeddingDescription/implied(byOutputs:)`` embeds the
    /// same without one), but the photo is prepared as MediaPipe's ImageEmbedder prepares it.
    package static func infer(_ inference: inout TFLiteBundleInference) throws -> EmbeddingDescription? {
        guard inference.imageTask == nil, inference.hasOneImageInput,
              let embedding = EmbeddingDescription.implied(byOutputs: inference.outputs)
        else { return nil }
        // MediaPipe's ImageEmbedder prepares its photos by the shared ImagePreprocessingGraph, which never
        // sets keep_aspect_ratio: the whole photo stretched with OpenCV's bilinear warp
        // (Tests/Fixtures/Embedding/README.md; the default centre crop and box filter put EfficientNet-Lite0's
        // feature vector at cosine 0.81 of MediaPipe's). MediaPipe's ImageClassifier prepares photos by the
        // same graph, so the stretch is right for such a classifier too.
        inference.imageTask = entryKey
        inference.inputs[0] = inference.inputs[0].withImageSettings(resizeMode: .stretch, scalingFilter: .bilinear)
        inference.note(.inferred, layer: inference.inputs[0].name, "the only output, \"\(embedding.output)\", is an unlabelled vector (an embedding, or scores without labels): photos are stretched to the input and sampled bilinearly (resize: stretch, scaling: bilinear), as MediaPipe's ImageEmbedder (and ImageClassifier) does")
        return nil
    }
}

extension EmbeddingDescription: TaskDescription {}

extension ModelBundle {
    /// How an output becomes an embedding (`embedding` in `model.json`), for embedders; `nil` otherwise.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidBundle``) when the entry is wrong (read on
    ///   first use when the bundle was opened without the task registered).
    public var embedding: EmbeddingDescription? {
        get throws { try taskDescription(EmbeddingTask.self) }
    }
}
