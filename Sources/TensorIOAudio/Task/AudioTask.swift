@_spi(Internal) public import TensorIO

/// The audio task: the `audio` entry (docs/model-json.md, "Audio") — which input takes sound, at what
/// sample rate and with how many channels — read, checked, inferred from AudioProperties metadata and
/// written back.
package enum AudioTask: ModelTask {
    package static let entryKey = "audio"

    package static func read(_ entry: JSONValue, layers: TaskLayers, reader: inout ModelJSONReader) -> AudioDescription? {
        reader.readAudio(entry, inputs: layers.inputs)
    }

    package static func infer(_ inference: inout TFLiteBundleInference) throws -> AudioDescription? {
        try inference.audio(inputs: inference.inputs, metadata: inference.inputMetadata)
    }
}

extension AudioDescription: TaskDescription {}

extension ModelBundle {
    /// Which input takes sound, and at what rate (`audio` in `model.json`), for audio models; `nil`
    /// otherwise.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError/Code/invalidBundle`) when the entry is wrong (read on
    ///   first use when the bundle was opened without the audio task registered).
    public var audio: AudioDescription? {
        get throws { try taskDescription(AudioTask.self) }
    }
}
