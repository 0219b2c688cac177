public import Foundation

extension Model {
    /// The embedding of a photo: runs the model and reads the vector the bundle's `embedding` description
    /// names (docs/model-json.md, "Embeddings"), L2-normalized and quantized as the description or
    /// `options` say.
    ///
    /// - Parameters:
    ///   - photo: The photo, in any format and orientation.
    ///   - options: Whether to normalize and quantize, when not as the bundle says.
    /// - Returns: The embedding.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/unsupported`` when the bundle describes no
    ///   embedding; ``TensorIOError/Code/outputMismatch`` when the output is not a vector; what
    ///   ``run(_:)-(InputValue)`` throws.
    public func embed(_ photo: PixelBuffer, options: EmbeddingOptions = EmbeddingOptions()) throws -> Embedding {
        let description = try EmbeddingDescription.required(by: bundle)
        return try Self.embedding(in: try run(.image(photo)), description: description, options: options)
    }

    /// The embedding of a photo, without blocking the calling task's thread; see `embed(_:options:)`.
    ///
    /// - Parameters:
    ///   - photo: The photo.
    ///   - options: Whether to normalize and quantize.
    /// - Returns: The embedding.
    /// - Throws: As the synchronous call.
    public func embed(_ photo: PixelBuffer, options: EmbeddingOptions = EmbeddingOptions()) async throws -> Embedding {
        let description = try EmbeddingDescription.required(by: bundle)
        return try Self.embedding(in: try await run(.image(photo), placeholders: [:]), description: description, options: options)
    }

    /// The embedding of a JPEG or PNG photo file.
    ///
    /// - Parameters:
    ///   - url: The photo file.
    ///   - options: Whether to normalize and quantize.
    /// - Returns: The embedding.
    /// - Throws: What decoding the file throws and what `embed(_:options:)` throws.
    public func embed(contentsOf url: URL, options: EmbeddingOptions = EmbeddingOptions()) throws -> Embedding {
        try embed(try PixelBuffer(contentsOf: url, limits: configuration.limits), options: options)
    }

    package static func embedding(in outputs: Outputs, description: EmbeddingDescription, options: EmbeddingOptions) throws -> Embedding {
        let output = try outputs[description.output]
        let values = try output.values(as: Float.self)
        guard EmbeddingDescription.shapeProblem(try output.shape) == nil, (1...EmbeddingDescription.maximumDimensions).contains(values.count) else {
            throw TensorIOError.outputMismatch(
                "output \"\(description.output)\" has shape \(try output.shape); an embedding is a vector, [1, n] or [n]", output: description.output
            )
        }
        return Embedding(
            raw: values, normalizing: options.normalizes ?? description.normalizes, quantizing: options.quantizes ?? description.quantizes
        )
    }
}
