@_spi(Internal) public import TensorIO

/// A model that reads text: a `TensorIO/Model` and the tokenizer its bundle's `text` entry describes,
/// read once when the text model is made and held with the model for as long as it lives. It classifies and
/// embeds texts as MediaPipe's `TextClassifier` and `TextEmbedder` do from a model's tokenizer metadata.
///
/// ```swift
/// let reviews = try TextModel(bundle: ModelBundle(modelAt: URL(fileURLWithPath: "movie_review.tflite"), registry: .text))
/// print(try reviews.classify(text: "An absolute masterpiece.").top(1))
/// ```
///
/// The tokenizer belongs to the model, as its weights do: reading a vocabulary costs milliseconds and a run
/// on a short text microseconds, so it is read once, here, and nothing is looked up or checked per text. A
/// text model is a value over two objects that are safe to share: one serves every thread and task.
public struct TextModel: Sendable {
    /// The model the texts run on.
    public let model: any Model
    /// The tokenizer of the model's bundle: what the texts become before they run.
    public let tokenizer: TextTokenizer

    /// Makes the model a bundle describes and reads its tokenizer.
    ///
    /// - Parameters:
    ///   - bundle: A bundle with a `text` entry (a bare model's is inferred from its tokenizer metadata when
    ///     it is opened with `registry: .text`).
    ///   - configuration: Threads, the logger and other runtime settings of the model.
    ///   - registry: The backends and custom model types to choose from (the built-in backends by default).
    ///   - limits: The largest text, vocabulary and SentencePiece model accepted.
    /// - Throws: `TensorIOError`: what `ModelBundle.makeModel(configuration:registry:)` throws, and what
    ///   ``TextTokenizer/init(bundle:limits:)`` throws (`TensorIOError.Code.unsupported` when the bundle has
    ///   no `text` entry).
    public init(
        bundle: ModelBundle, configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .builtIn,
        limits: TextLimits = TextLimits()
    ) throws {
        try self.init(model: try bundle.makeModel(configuration: configuration, registry: registry), limits: limits)
    }

    /// Reads the tokenizer of a model's bundle, for a model made another way.
    ///
    /// - Parameters:
    ///   - model: A model whose bundle has a `text` entry.
    ///   - limits: The largest text, vocabulary and SentencePiece model accepted.
    /// - Throws: What ``TextTokenizer/init(bundle:limits:)`` throws.
    public init(model: any Model, limits: TextLimits = TextLimits()) throws {
        self.model = model
        tokenizer = try TextTokenizer(bundle: model.bundle, limits: limits)
    }

    /// Classifies a text: the scores of the bundle's first labelled output.
    ///
    /// - Parameter text: Any text, up to ``TextLimits/maximumTextBytes``; what is beyond the inputs' length in
    ///   tokens is not read (``TextClassification/isTruncated``).
    /// - Returns: The classification output's scores.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsupported` when the bundle has no classification
    ///   output; what ``TextTokenizer/tokenize(_:)`` and running throw.
    public func classify(text: String) throws -> TextClassification {
        let output = try model.bundle.classificationOutputName()
        let tokens = try tokenizer.tokenize(text)
        let outputs = try model.run(tokenizer.input(tokens))
        return TextClassification(output: output, scores: try outputs.classificationScores(of: output), isTruncated: tokens.isTruncated)
    }

    /// Classifies a text without blocking the calling task's thread; see `classify(text:)`.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The classification output's scores.
    /// - Throws: As the synchronous call, and `CancellationError`.
    public func classify(text: String) async throws -> TextClassification {
        try await RunThreads.shared.perform { _ in try self.classify(text: text) }
    }

    /// The embedding of a text: the bundle's `embedding` output (or its only output), L2-normalized and
    /// quantized as the description or `options` say, as MediaPipe's `TextEmbedder` gives it.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - options: Whether to normalize and quantize, when not as the bundle says.
    /// - Returns: The embedding.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsupported` when the bundle describes no embedding;
    ///   what ``TextTokenizer/tokenize(_:)`` and running throw.
    public func embed(text: String, options: EmbeddingOptions = EmbeddingOptions()) throws -> Embedding {
        let description = try EmbeddingDescription.required(by: model.bundle)
        let outputs = try model.run(tokenizer.input(try tokenizer.tokenize(text)))
        return try type(of: model).embedding(in: outputs, description: description, options: options)
    }

    /// The embedding of a text without blocking the calling task's thread; see `embed(text:options:)`.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - options: Whether to normalize and quantize.
    /// - Returns: The embedding.
    /// - Throws: As the synchronous call, and `CancellationError`.
    public func embed(text: String, options: EmbeddingOptions = EmbeddingOptions()) async throws -> Embedding {
        try await RunThreads.shared.perform { _ in try self.embed(text: text, options: options) }
    }
}
