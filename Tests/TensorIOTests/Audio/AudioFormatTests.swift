import Foundation
import Testing
import TensorIO
import TensorIOAudio
import TensorIOTestSupport

/// Every container and sample format TensorIOAudio reads (issue 29, point 1), each compared with the
/// recording it was made from (`Tests/Fixtures/AudioFormats/`).
@Suite("Audio: formats")
struct AudioFormatTests {
    static func read(_ name: String) throws -> AudioBuffer {
        try AudioBuffer(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/AudioFormats/" + name))
    }

    static let speech = Result { try AudioBuffer(contentsOf: Fixtures.repositoryURL(AudioBufferTests.audio + "speech.wav")) }

    /// The root-mean-square difference between `audio`, mixed to mono and resampled to 16 kHz, and
    /// speech.wav's first samples, relative to speech.wav's own (edges left out).
    static func distance(_ audio: AudioBuffer) throws -> Double {
        let speech = try Self.speech.get()
        let mono = try audio.mixed(toChannels: 1).resampled(to: 16_000)
        let range = 200..<(min(mono.frameCount, speech.frameCount) - 200)
        let difference = range.reduce(0.0) { $0 + pow(Double(mono.samples[$1] - speech.samples[$1]), 2) }
        let signal = range.reduce(0.0) { $0 + pow(Double(speech.samples[$1]), 2) }
        let distance = (difference / signal).squareRoot()
        print("audio-formats | relative RMS difference from speech.wav: \(String(format: "%.4f", distance))")
        return distance
    }

    // Resampled up by sox and down by libsoxr, speech.wav loses what lies above 91% of its 8 kHz band (2.2%
    // of its energy): 7% RMS (sox's own round trip loses the same). One sample early or late would be 77%.
    @Test("FLAC, 16-bit stereo at 44.1 kHz: mixed and resampled, it is speech.wav again, aligned")
    func flac() throws {
        let audio = try Self.read("speech-stereo-44100.flac")
        #expect(audio.sampleRate == 44_100 && audio.channelCount == 2 && audio.frameCount == 52_920)
        #expect(try Self.distance(audio) < 0.08)
    }

    @Test("Ogg Vorbis, mono at 22.05 kHz (lossy): close to speech.wav")
    func oggVorbis() throws {
        let audio = try Self.read("speech-22050.ogg")
        #expect(audio.sampleRate == 22_050 && audio.channelCount == 1)
        #expect(abs(audio.frameCount - 26_460) < 100)
        #expect(try Self.distance(audio) < 0.2)
    }

    @Test("WAV with float samples: exactly speech.wav's")
    func float() throws {
        let audio = try Self.read("speech-float.wav")
        #expect(audio.sampleRate == 16_000 && audio.channelCount == 1 && audio.frameCount == 8000)
        #expect(Array(audio.samples) == Array(try Self.speech.get().samples.prefix(8000)))
    }

    @Test("WAVE_FORMAT_EXTENSIBLE, 24-bit, 3 channels at 8 kHz")
    func extensible() throws {
        let audio = try Self.read("speech-3ch-8000-24bit.wav")
        #expect(audio.sampleRate == 8000 && audio.channelCount == 3 && audio.frameCount == 2400)
        #expect(audio.samples[300] == audio.samples[301] && audio.samples[301] == audio.samples[302])
    }
}
