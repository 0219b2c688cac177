import TensorIO
internal import TensorIOMetadata

/// The `audio` entry of a bundle inferred from a bare model: the input whose metadata carries
/// `AudioProperties` (sample rate and channels), as MediaPipe's `AudioClassifier` finds it.
extension TFLiteBundleInference {
    /// The audio description of the one input the metadata marks as audio, or `nil` when none is.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidModelFile`) when the metadata's sample
    ///   rate or channel count is out of range, or the input cannot hold its samples, or several inputs
    ///   are audio.
    mutating func audio(inputs: [LayerDescription], metadata: [TFLiteMetadata.TensorMetadata?]) throws -> AudioDescription? {
        var found: AudioDescription?
        for (layer, metadata) in zip(inputs, metadata) {
            guard case .audio(let properties)? = metadata?.content else { continue }
            func invalid(_ message: String) -> TensorIOError {
                TensorIOError(.invalidModelFile, "input \"\(layer.name)\": its AudioProperties metadata says \(message)", location: "model.file")
            }
            guard found == nil else { throw invalid("it is audio, but so is input \"\(found?.input ?? "")\": TensorIO takes one audio input") }
            // Too large for Int only on 32-bit platforms; the ranges below reject it then.
            let rate = Int(exactly: properties.sampleRate) ?? Int.max
            let channels = Int(exactly: properties.channels) ?? Int.max
            if let problem = AudioDescription.sampleRateProblem(rate) { throw invalid("sample_rate \(properties.sampleRate): \(problem)") }
            if let problem = AudioDescription.channelsProblem(channels) { throw invalid("channels \(properties.channels): \(problem)") }
            guard case .array(nil, _) = layer.kind, layer.declaredDataType == .float32 else {
                throw invalid("it is audio, but it holds \(layer.declaredDataType.map { "\($0)" } ?? "unknown") values, not float32 samples")
            }
            if let problem = AudioDescription.shapeProblem(layer.shape, channels: channels) { throw invalid("it is audio, but it \(problem)") }
            let description = AudioDescription(unchecked: layer.name, sampleRate: rate, channels: channels)
            note(.inferred, layer: layer.name, "audio: \(rate) Hz, \(channels) channel\(channels == 1 ? "" : "s"), \(description.windowFrames(of: layer) ?? 0) frames a window (AudioProperties)")
            found = description
        }
        return found
    }
}
