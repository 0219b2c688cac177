@_spi(Internal) import TensorIO

/// Reads `model.json`'s `audio` entry (docs/model-json.md, "Audio") into an ``AudioDescription``,
/// recording every problem with its JSON path like the rest of the reader.
extension ModelJSONReader {
    mutating func readAudio(_ value: JSONValue?, inputs: [LayerDescription]) -> AudioDescription? {
        let path = "audio"
        guard let object = taskEntry(value, at: path, allowed: ["input", "sample_rate", "channels"]) else { return nil }
        let issuesBefore = issues.count
        let sampleRate = integer(object, "sample_rate", at: path, required: true) { AudioDescription.sampleRateProblem($0) }
        let channels = integer(object, "channels", at: path, required: false) { AudioDescription.channelsProblem($0) } ?? 1
        let input = readLayerName(object, "input", in: inputs, role: "input", at: path) { layer in
            guard case .array(nil, _) = layer.kind, [nil, .float32].contains(layer.declaredDataType) else {
                return "is not an array of float32 samples (an audio input is an array layer with dtype float32, without quantize)"
            }
            return AudioDescription.shapeProblem(layer.shape, channels: channels)
        }
        guard issues.count == issuesBefore, let input, let sampleRate else { return nil }
        return AudioDescription(unchecked: input, sampleRate: sampleRate, channels: channels)
    }

    /// An integer member, checked by `problem`; an issue at `path.key` when it is not an integer or
    /// `problem` names one.
    private mutating func integer(
        _ object: [String: JSONValue], _ key: String, at path: String, required: Bool, problem: (Int) -> String?
    ) -> Int? {
        guard object[key] != nil else {
            if required { issue("\(path).\(key)", "required") }
            return nil
        }
        guard let number = number(object, key, at: path) else { return nil }
        guard number.rounded() == number, abs(number) < 1e15 else {
            issue("\(path).\(key)", "expected an integer, got \(number)")
            return nil
        }
        if let message = problem(Int(number)) {
            issue("\(path).\(key)", message)
            return nil
        }
        return Int(number)
    }
}
