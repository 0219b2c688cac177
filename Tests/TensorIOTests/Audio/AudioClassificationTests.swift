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

    @Test("YAMNet's audio input is inferred from its AudioProperties: 16 kHz mono, 15,600 frames a window", TestData.required(yamnet))
    func inferred() throws {
        let inferred = try ModelBundle.infer(fromModelAt: TestData.url(Self.yamnet), registry: .everyTask)
        let audio = try #require(inferred.bundle.audio)
        #expect(audio.sampleRate == 16_000 && audio.channels == 1)
        let layer = try #require(inferred.bundle.inputs.first { $0.name == audio.input })
        #expect(audio.windowFrames(of: layer) == 15_600)
    }

    @Test("speech.wav: windows every 975 ms, the last padded, speech heard", TestData.required(yamnet, AudioBufferTests.audio + "speech.wav"))
    func speech() async throws {
        let model = try ModelBundle(modelAt: TestData.url(Self.yamnet), registry: .everyTask).makeModel()
        let speech = try AudioBuffer(contentsOf: TestData.url(AudioBufferTests.audio + "speech.wav"))
        func classifySynchronously() throws -> AudioClassification { try model.classify(speech) }
        let result = try classifySynchronously()
        #expect(result.windows.count == (speech.frameCount + 15_599) / 15_600)
        #expect(result.windows.map(\.startMilliseconds) == result.windows.indices.map { Int64($0) * 975 })
        #expect(result.windows[0].top(1).first?.label == "Speech")
        let concurrent = try await model.classify(speech, options: AudioClassificationOptions(concurrency: 2))
        #expect(concurrent == result)
    }
}

extension AudioClassificationTests {
    @Test("NaN scores (the wake-phrase model's answer to a silent stretch) rank last, whatever their place")
    func nanLast() throws {
        let scores = try LabeledScores(labels: ["a", "b", "c", "d"], scores: [.nan, 0.2, .nan, 0.7])
        #expect(scores.top(4).map(\.label) == ["d", "b", "a", "c"])
        #expect(scores.top(1, threshold: 0.1).map(\.label) == ["d"])
    }

    @Test("the hop: overlapping windows every 250 ms, one last padded window after the full ones; a hop under one frame is refused", TestData.required(yamnet))
    func hop() throws {
        let model = try ModelBundle(modelAt: TestData.url(Self.yamnet), registry: .everyTask).makeModel()
        let second = try AudioBuffer(samples: Array(repeating: 0.1, count: 20_000), sampleRate: 16_000)
        let result = try model.classify(second, options: AudioClassificationOptions(hop: .milliseconds(250)))
        // Full windows start at 0 and 4000 (4000 + 15,600 ≤ 20,000); then one at 8000 holding the rest.
        #expect(result.windows.map(\.startMilliseconds) == [0, 250, 500])
        #expect(throws: TensorIOError.self) { try model.classify(second, options: AudioClassificationOptions(hop: .microseconds(10))) }
        let tooMany = #expect(throws: TensorIOError.self) {
            try model.classify(second, options: AudioClassificationOptions(hop: .milliseconds(1), limits: AudioLimits(maximumWindows: 10)))
        }
        #expect(tooMany?.code == .limitExceeded)
    }
}
