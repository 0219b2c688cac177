import Foundation
import Testing
import TensorIO
import TensorIOAudio
import TensorIOTestSupport

/// Audio classification over time (issue 29, point 2): the audio input inferred from AudioProperties, the
/// recording split into windows as MediaPipe's AudioClassifier splits a clip.
@Suite("Audio: classification over time")
struct AudioClassificationTests {
    static let yamnet = AudioBufferTests.audio + "yamnet_audio_classifier_with_metadata.tflite"

    @Test("YAMNet's audio input is inferred from its AudioProperties: 16 kHz mono, 15,600 frames a window")
    func inferred() throws {
        let inferred = try ModelBundle.infer(fromModelAt: Fixtures.repositoryURL(Self.yamnet))
        let audio = try #require(inferred.bundle.audio)
        #expect(audio.sampleRate == 16_000 && audio.channels == 1)
        let layer = try #require(inferred.bundle.inputs.first { $0.name == audio.input })
        #expect(audio.windowFrames(of: layer) == 15_600)
    }

    @Test("speech.wav: windows every 975 ms, the last padded, speech heard")
    func speech() async throws {
        let model = try ModelBundle(modelAt: Fixtures.repositoryURL(Self.yamnet)).makeModel()
        let speech = try AudioBuffer(contentsOf: Fixtures.repositoryURL(AudioBufferTests.audio + "speech.wav"))
        func classifySynchronously() throws -> AudioClassification { try model.classify(speech) }
        let result = try classifySynchronously()
        #expect(result.windows.count == (speech.frameCount + 15_599) / 15_600)
        #expect(result.windows.map(\.startMilliseconds) == result.windows.indices.map { Int64($0) * 975 })
        #expect(result.windows[0].top(1).first?.label == "Speech")
        let concurrent = try await model.classify(speech, options: AudioClassificationOptions(concurrency: 2))
        #expect(concurrent == result)
    }
}
