@_spi(Internal) import TensorIO

/// Reads `model.json`'s `text` entry (docs/model-json.md, "Text") into a ``TextDescription``, recording
/// every problem with its JSON path like the rest of the reader. The tokenizer's files are checked when
/// the bundle opens (`ModelBundleValidator`).
extension ModelJSONReader {
    mutating func readText(_ value: JSONValue?, inputs: [LayerDescription]) -> TextDescription? {
        guard let value else { return nil }
        let path = "text"
        guard let object = object(value, at: path) else { return nil }
        let issuesBefore = issues.count
        let kind = requiredString(object, "tokenizer", at: path)
        var allowed: Set<String> = ["tokenizer", "ids"]
        switch kind {
        case "regex": allowed.formUnion(["pattern", "vocabulary"])
        case "wordpiece": allowed.formUnion(["vocabulary", "mask", "segment_ids"])
        case "sentencepiece": allowed.formUnion(["model", "mask", "segment_ids"])
        case nil: break
        case let other?: issue("\(path).tokenizer", "\"\(other)\" is not one of \"regex\", \"wordpiece\", \"sentencepiece\"")
        }
        checkKeys(object, allowed: allowed, at: path)
        func file(_ key: String) -> String? {
            let name = requiredString(object, key, at: path)
            if let name { checkRelativePath(name, at: "\(path).\(key)") }
            return name
        }
        var tokenizer: TextDescription.Tokenizer?
        switch kind {
        case "regex":
            let pattern = requiredString(object, "pattern", at: path)
            if let pattern, pattern.isEmpty || pattern.utf8.count > TextDescription.maximumPatternBytes {
                issue("\(path).pattern", "must have 1 to \(TextDescription.maximumPatternBytes) bytes")
            }
            if let pattern, let vocabulary = file("vocabulary") { tokenizer = .regex(pattern: pattern, vocabulary: vocabulary) }
        case "wordpiece": if let vocabulary = file("vocabulary") { tokenizer = .wordPiece(vocabulary: vocabulary) }
        case "sentencepiece": if let model = file("model") { tokenizer = .sentencePiece(model: model) }
        default: break
        }
        let ids = requiredString(object, "ids", at: path)
        let isBERT = tokenizer?.isBERT ?? false
        let mask = isBERT ? requiredString(object, "mask", at: path) : nil
        let segmentIDs = isBERT ? requiredString(object, "segment_ids", at: path) : nil
        var lengths: Set<Int> = []
        for (key, name) in [("ids", ids), ("mask", mask), ("segment_ids", segmentIDs)] {
            guard let name else { continue }
            guard let layer = inputs.first(where: { $0.name == name }) else {
                issue("\(path).\(key)", "\"\(name)\" is not an input (inputs: \(quotedList(inputs.map(\.name))))")
                continue
            }
            guard case .array(nil, _) = layer.kind, [nil, .int32].contains(layer.declaredDataType) else {
                issue("\(path).\(key)", "\"\(name)\" is not an array of int32 (text inputs are array layers with dtype int32, without quantize)")
                continue
            }
            if let problem = TextDescription.shapeProblem(layer.shape) {
                issue("\(path).\(key)", "\"\(name)\" \(problem)")
            } else {
                lengths.insert(TextDescription.sequenceLength(layer.shape))
            }
        }
        if lengths.count > 1 { issue(path, "the text inputs have different lengths (\(lengths.sorted().map(String.init).joined(separator: ", ")))") }
        if Set([ids, mask, segmentIDs].compactMap { $0 }).count < [ids, mask, segmentIDs].compactMap({ $0 }).count {
            issue(path, "ids, mask and segment_ids must name three different inputs")
        }
        guard issues.count == issuesBefore, let tokenizer, let ids else { return nil }
        return TextDescription(tokenizer: tokenizer, ids: ids, mask: mask, segmentIDs: segmentIDs)
    }
}
