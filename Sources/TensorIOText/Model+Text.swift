import Foundation
public import TensorIO

extension Model {
    /// Classifies a text with the tokenizer the bundle's `text` entry describes, as MediaPipe's
    /// `TextClassifier` does from a model's tokenizer metadata: the scores of the first labelled output.
    ///
    /// ```swift
    /// let model = try ModelBundle(modelAt: URL(fileURLWithPath: "movie_review.tflite"), registry: .text).makeModel()
    /// print(try model.classify(text: "An absolute masterpiece.").top(1))
    /// ```
    ///
    /// The tokenizer is read once per bundle and kept (its files' size and date are checked each call).
    ///
    /// - Parameter text: Any text, up to ``TextLimits/maximumTextBytes``; what is beyond the inputs' length in
    ///   tokens is not read (``TextClassification/isTruncated``).
    /// - Returns: The classification output's scores.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsupported` when the bundle has no `text` entry
    ///   or no classification output; what ``TextTokenizer/init(bundle:limits:)`` and running throw.
    public func classify(text: String) throws -> TextClassification {
        let tokenizer = try TokenizerCache.tokenizer(for: bundle)
        let output = try ClassificationOutput.name(in: bundle)
        let tokens = try tokenizer.tokenize(text)
        let outputs = try run(tokenizer.input(tokens))
        return TextClassification(output: output, scores: try ClassificationOutput.scores(of: output, in: outputs), isTruncated: tokens.isTruncated)
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
    /// - Throws: As `classify(text:)`, and `TensorIOError.Code.unsupported` when the bundle describes no
    ///   embedding.
    public func embed(text: String, options: EmbeddingOptions = EmbeddingOptions()) throws -> Embedding {
        let description = try EmbeddingDescription.required(by: bundle)
        let tokenizer = try TokenizerCache.tokenizer(for: bundle)
        return try Self.embedding(in: try run(tokenizer.input(try tokenizer.tokenize(text))), description: description, options: options)
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
