import Foundation
import Testing
import TensorIO
import TensorIOAudio
import TensorIOTestSupport

/// Reading recordings (issue 29, point 1): WAV, FLAC and Ogg through libsndfile after TensorIO's own header
/// check, mixing and resampling with libsoxr.
@Suite("Audio: reading, mixing, resampling")
struct AudioBufferTests {
    static let audio = "task-models/tflite-support/audio/"

    @Test("speech.wav reads as 16-bit PCM becomes floats: its rate, channels and length", TestData.required(audio + "speech.wav"))
    func speech() throws {
        let speech = try AudioBuffer(contentsOf: TestData.url(Self.audio + "speech.wav"))
        #expect(speech.sampleRate == 16_000 && speech.channelCount == 1)
        #expect(speech.frameCount > 16_000)
        #expect(speech.samples.allSatisfy { (-1...1).contains($0) })
    }

    @Test("mixing averages channels into one and copies one into several")
    func mixing() throws {
        let stereo = try AudioBuffer(samples: [1, 0, 0.5, -0.5], channelCount: 2, sampleRate: 8000)
        #expect(try stereo.mixed(toChannels: 1).samples == [0.5, 0])
        let mono = try AudioBuffer(samples: [0.25, -1], sampleRate: 8000)
        #expect(try mono.mixed(toChannels: 3).samples == [0.25, 0.25, 0.25, -1, -1, -1])
        #expect(throws: TensorIOError.self) { try AudioBuffer(samples: Array(repeating: 0, count: 6), channelCount: 3, sampleRate: 8000).mixed(toChannels: 2) }
    }

    @Test("resampling keeps a tone's frequency and the length in time")
    func resampling() throws {
        let rate = 44_100
        let tone = (0..<rate).map { Float(sin(2 * Double.pi * 440 * Double($0) / Double(rate))) * 0.5 }
        let resampled = try AudioBuffer(samples: tone, sampleRate: rate).resampled(to: 16_000)
        #expect(resampled.sampleRate == 16_000 && resampled.frameCount == 16_000)
        // Away from the edges, the resampled tone is the same sine sampled at the new rate.
        var worst: Float = 0
        for index in 1000..<15_000 {
            let expected = Float(sin(2 * Double.pi * 440 * Double(index) / 16_000)) * 0.5
            worst = max(worst, abs(resampled.samples[index] - expected))
        }
        #expect(worst < 0.002)
    }
}
