import Foundation
import Testing
import TensorIO
import TensorIOAudio
import TensorIOTestSupport

/// Every container and sample format TensorIOAudio reads (issue 29, point 1), each compared with the
/// recording it was made from (`Tests/Fixtures/AudioFormats/`: from 0.5 s into the wake-phrase WAV).
@Suite("Audio: formats")
struct AudioFormatTests {
    static func read(_ name: String) throws -> AudioBuffer {
        try AudioBuffer(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/AudioFormats/" + name))
    }

    /// The recording's samples from 0.5 s on.
    static func recording(frames: Int) throws -> [Float] {
        let phrase = try AudioBuffer(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Audio/wake_phrase_fr_44100.wav"))
        #expect(phrase.sampleRate == 44_100 && phrase.channelCount == 1)
        return Array(phrase.samples[22_050..<(22_050 + frames)])
    }

    /// Channel `channel` of `audio`.
    static func channel(_ channel: Int, of audio: AudioBuffer) -> [Float] {
        stride(from: channel, to: audio.samples.count, by: audio.channelCount).map { audio.samples[$0] }
    }

    @Test("FLAC, 16-bit stereo: each channel is the recording, sample for sample; mixed down, too")
    func flac() throws {
        let audio = try Self.read("phrase-stereo.flac")
        #expect(audio.sampleRate == 44_100 && audio.channelCount == 2 && audio.frameCount == 17_640)
        let expected = try Self.recording(frames: 17_640)
        #expect(Self.channel(0, of: audio) == expected && Self.channel(1, of: audio) == expected)
        #expect(try audio.mixed(toChannels: 1).samples == expected)
    }

    @Test("WAV with 32-bit float samples: the recording's 16-bit samples divided by 32768, exactly")
    func float() throws {
        let audio = try Self.read("phrase-float.wav")
        #expect(audio.sampleRate == 44_100 && audio.channelCount == 1 && audio.frameCount == 8820)
        #expect(audio.samples == (try Self.recording(frames: 8820)))
    }

    @Test("WAVE_FORMAT_EXTENSIBLE, 24-bit, 3 channels: each channel the recording")
    func extensible() throws {
        let audio = try Self.read("phrase-3ch-24bit.wav")
        #expect(audio.sampleRate == 44_100 && audio.channelCount == 3 && audio.frameCount == 4410)
        let expected = try Self.recording(frames: 4410)
        #expect((0..<3).allSatisfy { Self.channel($0, of: audio) == expected })
    }

    @Test("Ogg Vorbis, mono at 22.05 kHz: the recording resampled, within the codec's loss")
    func oggVorbis() throws {
        let audio = try Self.read("phrase-22050.ogg")
        #expect(audio.sampleRate == 22_050 && audio.channelCount == 1)
        #expect(abs(audio.frameCount - 8820) < 64)
        let expected = try AudioBuffer(samples: try Self.recording(frames: 17_640), sampleRate: 44_100).resampled(to: 22_050).samples
        let range = 100..<(min(expected.count, audio.frameCount) - 100)
        let difference = range.reduce(0.0) { $0 + pow(Double(audio.samples[$1] - expected[$1]), 2) }
        let signal = range.reduce(0.0) { $0 + pow(Double(expected[$1]), 2) }
        let distance = (difference / signal).squareRoot()
        print("audio-formats | Ogg Vorbis: relative RMS difference from the recording resampled: \(String(format: "%.4f", distance))")
        #expect(distance < 0.2)
    }
}
