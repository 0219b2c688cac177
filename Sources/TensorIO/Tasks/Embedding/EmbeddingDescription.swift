import Foundation

/// How a bundle's output becomes an ``Embedding``: the `embedding` entry of `model.json`
/// (docs/model-json.md, "Embeddings").
///
/// The output is a vector (`[1, n]` or `[n]`, any fixed size): a photo's features, to compare with another
/// photo's. The description says whether the vector is scaled to length 1 (``normalizes``) and whether its
/// values are scalar-quantized to bytes (``quantizes``), as MediaPipe's embedders do; a call's
/// ``EmbeddingOptions`` can change both.
public struct EmbeddingDescription: Sendable, Hashable {
    /// The output holding the vector.
    public let output: String
    /// Whether the vector is divided by its L2 norm (`normalize`, default false: MediaPipe's default).
    public let normalizes: Bool
    /// Whether each value becomes a byte, `clamp(round(v × 128), −128, 127)` (`quantize`, default false).
    public let quantizes: Bool

    /// The most values an embedding may have.
    public static let maximumDimensions = 1 << 20
}

extension EmbeddingDescription {
    /// The bundle's `embedding` description, or — for a bundle without one whose only output is an
    /// unlabelled vector (a bare feature-vector model) — that output, neither normalized nor quantized;
    /// `nil` when neither.
    package static func implied(by bundle: ModelBundle) throws -> EmbeddingDescription? {
        try bundle.embedding ?? implied(byOutputs: bundle.outputs)
    }

    /// The embedding that outputs without an `embedding` entry imply: their only output when it is an
    /// unlabelled vector an embedding can hold, neither normalized nor quantized; `nil` otherwise. (The
    /// bundle inference prepares such a model's photos as MediaPipe's ImageEmbedder does by this rule.)
    static func implied(byOutputs outputs: some Collection<LayerDescription>) -> EmbeddingDescription? {
        guard outputs.count == 1, let output = outputs.first, output.labels == nil, shapeProblem(output.shape) == nil else { return nil }
        return EmbeddingDescription(output: output.name, normalizes: false, quantizes: false)
    }

    /// The bundle's embedding, as ``implied(by:)`` finds it, or the one error every way of embedding throws
    /// without one.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``, at `embedding`) when the bundle has no
    ///   `embedding` entry and its only output is not an unlabelled vector.
    @_spi(Internal) public static func required(by bundle: ModelBundle) throws -> EmbeddingDescription {
        if let description = try implied(by: bundle) { return description }
        throw TensorIOError(
            .unsupported,
            "\(bundle.url.lastPathComponent) describes no embedding output: add an \"embedding\" entry to model.json (docs/model-json.md) naming the output that holds the vector, or give a model whose only output is an unlabelled vector",
            location: "embedding"
        )
    }

    /// The `embedding` entry of `model.json` that reads back as this description.
    package var modelJSON: OrderedJSON {
        .object([
            .init(key: "output", value: .string(output)), .init(key: "normalize", value: .bool(normalizes)),
            .init(key: "quantize", value: .bool(quantizes)),
        ])
    }
}
