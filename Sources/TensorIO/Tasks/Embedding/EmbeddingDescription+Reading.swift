/// Reads `model.json`'s `embedding` entry (docs/model-json.md, "Embeddings") into an
/// ``EmbeddingDescription``, recording every problem with its JSON path like the rest of the reader.
extension ModelJSONReader {
    mutating func readEmbedding(_ value: JSONValue?, outputs: [LayerDescription]) -> EmbeddingDescription? {
        guard let value else { return nil }
        let path = "embedding"
        guard let object = object(value, at: path) else { return nil }
        checkKeys(object, allowed: ["output", "normalize", "quantize"], at: path)
        let issuesBefore = issues.count
        let output = requiredString(object, "output", at: path)
        if let output {
            if let layer = outputs.first(where: { $0.name == output }) {
                if let problem = EmbeddingDescription.shapeProblem(layer.shape) { issue("\(path).output", "\"\(output)\" \(problem)") }
            } else {
                issue("\(path).output", "\"\(output)\" is not an output (outputs: \(quotedList(outputs.map(\.name))))")
            }
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
