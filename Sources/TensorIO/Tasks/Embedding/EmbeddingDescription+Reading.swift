/// Reads `model.json`'s `embedding` entry (docs/model-json.md, "Embeddings") into an
/// ``EmbeddingDescription``, recording every problem with its JSON path like the rest of the reader.
extension ModelJSONReader {
    mutating func readEmbedding(_ value: JSONValue?, outputs: [LayerDescription]) -> EmbeddingDescription? {
        let path = "embedding"
        guard let object = taskEntry(value, at: path, allowed: ["output", "normalize", "quantize"]) else { return nil }
        let issuesBefore = issues.count
        let output = readLayerName(object, "output", in: outputs, role: "output", at: path) {
            EmbeddingDescription.shapeProblem($0.shape)
        }
        let normalizes = optionalBool(object, "normalize", at: path) ?? false
        let quantizes = optionalBool(object, "quantize", at: path) ?? false
        guard issues.count == issuesBefore, let output else { return nil }
        return EmbeddingDescription(output: output, normalizes: normalizes, quantizes: quantizes)
    }
}

extension EmbeddingDescription {
    /// Why an output of `shape` cannot hold an embedding — a vector, `[n]` or `[1, n]`, of at most
    /// ``maximumDimensions`` values — or `nil` when it can. A size of -1 is left to the run.
    static func shapeProblem(_ shape: [Int]) -> String? {
        let vector = shape.count == 2 && [1, -1].contains(shape[0]) ? [shape[1]] : shape
        guard vector.count == 1 else { return "has shape \(shape); an embedding is a vector, [1, n] or [n]" }
        if vector[0] != -1, !(1...maximumDimensions).contains(vector[0]) {
            return "has \(vector[0]) values; an embedding has 1 to \(maximumDimensions)"
        }
        return nil
    }
}
