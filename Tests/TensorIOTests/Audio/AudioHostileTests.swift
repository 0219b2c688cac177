import Foundation
import Testing
import TensorIO
import TensorIOAudio
import TensorIOTestSupport

/// Hostile audio (issue 29, point 7): truncated, lying and huge headers, empty audio, rates of 0 and 10^9,
/// byte flips in every container: one clear error or a bounded result, never a crash or a hang.
@Suite("Audio: hostile files")
struct AudioHostileTests {
    /// A PCM WAV file: `fmt ` with these fields, then a `data` chunk claiming `dataSize` bytes and holding
    /// `samples`.
    static func wav(
        channels: UInt16 = 1, rate: UInt32 = 16_000, bits: UInt16 = 16, format: UInt16 = 1, dataSize: UInt32? = nil,
        samples: [Int16] = [0, 1000, -1000, 32767]
    ) -> Data {
        var data = Data()
        func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * 2
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + payload)); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(format); u16(channels); u32(rate)
        u32(rate &* UInt32(channels) &* UInt32(bits / 8)); u16(channels &* (bits / 8)); u16(bits)
        data.append(contentsOf: Array("data".utf8)); u32(dataSize ?? UInt32(payload))
        for sample in samples { u16(UInt16(bitPattern: sample)) }
        return data
    }

    static func error(_ data: Data, limits: AudioLimits = AudioLimits()) -> TensorIOError? {
        #expect(throws: TensorIOError.self) { try AudioBuffer(data: data, limits: limits) }
    }

    @Test("a plain WAV reads: 16-bit samples divided by 32768")
    func plain() throws {
        let audio = try AudioBuffer(data: Self.wav())
        let expected: [Float] = [0, 1000, -1000, 32767].map { $0 / 32768 }
        #expect(audio.samples == expected)
    }

    @Test("a data chunk claiming 2^32 − 1 bytes reads the samples the file holds")
    func lyingSize() throws {
        let audio = try AudioBuffer(data: Self.wav(dataSize: .max))
        #expect(audio.frameCount <= 4)
    }

    @Test("zero-length audio: an empty file is an error; a WAV with no samples has no frames and no windows", TestData.required(AudioClassificationTests.yamnet))
    func empty() throws {
        #expect(Self.error(Data())?.message.contains("empty") == true)
        let silent = try AudioBuffer(data: Self.wav(samples: []))
        #expect(silent.frameCount == 0)
        let model = try ModelBundle(modelAt: TestData.url(AudioClassificationTests.yamnet), registry: .everyTask).makeModel()
        #expect(try model.classify(silent).windows.isEmpty)
    }

    @Test("rates of 0 and 10^9, 0 or 1000 channels, 12-bit PCM, ADPCM and block-align lies are refused by the header check",
          arguments: [
              wav(rate: 0), wav(rate: 1_000_000_000), wav(channels: 0), wav(channels: 1000), wav(bits: 12), wav(format: 2),
              wav(bits: 16, format: 3),
          ])
    func refusedHeaders(_ data: Data) {
        #expect(Self.error(data)?.code == .invalidAudio)
    }

    @Test("files that are none of the three containers are refused before the codec sees them")
    func otherContainers() {
        for bytes in ["FORM\0\0\0\u{4}AIFF", ".snd\0\0\0\u{18}", "ID3\u{3}\0\0\0\0\0\0", "not audio at all"] {
            #expect(Self.error(Data(bytes.utf8))?.message.contains("not a WAV, FLAC or Ogg") == true)
        }
    }

    @Test("the sample limit stops decoding, whatever the header says")
    func sampleLimit() {
        let error = Self.error(Self.wav(samples: Array(repeating: 5, count: 1000)), limits: AudioLimits(maximumSamples: 100))
        #expect(error?.code == .limitExceeded)
        let resampling = #expect(throws: TensorIOError.self) {
            try AudioBuffer(samples: Array(repeating: 0, count: 100), sampleRate: 8000).resampled(to: 768_000, limits: AudioLimits(maximumSamples: 1000))
        }
        #expect(resampling?.code == .limitExceeded)
    }

    @Test("every prefix and byte flips of each container: an error or a bounded result, never a crash",
          arguments: ["phrase-stereo.flac", "phrase-22050.ogg", "phrase-float.wav", "phrase-3ch-24bit.wav"])
    func mutations(_ name: String) throws {
        let original = try Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/AudioFormats/" + name))
        let limits = AudioLimits(maximumSamples: 1 << 20)
        var prefixes = Array(stride(from: 0, to: min(original.count, 512), by: 1))
        prefixes += stride(from: 512, to: original.count, by: original.count / 64)
        var generator = SeededGenerator(seed: 29)
        for length in prefixes {
            _ = try? AudioBuffer(data: original.prefix(length), limits: limits)
        }
        for _ in 0..<300 {
            var mutated = original
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<min(mutated.count, 4096), using: &generator)
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if let audio = try? AudioBuffer(data: mutated, limits: limits) {
                #expect(audio.samples.count <= limits.maximumSamples && audio.samples.allSatisfy(\.isFinite))
            }
        }
    }
}

extension AudioHostileTests {
    @Test("fuzzing's finding: an Ogg Vorbis stream whose header fails to parse is one error (libsndfile leaks 6 KB on it, suppressed in make fuzz)")
    func vorbisHeader() throws {
        let data = try Data(contentsOf: Fixtures.hostileDirectory.appendingPathComponent("vorbis-header-leak.ogg"))
        #expect(Self.error(data)?.message == "Ogg: Supported file format but file is malformed.")
    }

    @Test("libsndfile's reason for a failed open survives decodes on other threads (it keeps it in one global)")
    func reasonUnderConcurrency() async throws {
        let broken = try Data(contentsOf: Fixtures.hostileDirectory.appendingPathComponent("vorbis-header-leak.ogg"))
        let good = try Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/AudioFormats/phrase-22050.ogg"))
        let messages = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    (0..<300).compactMap { _ in
                        if worker.isMultiple(of: 2) { _ = try? AudioBuffer(data: good); return nil }
                        do { _ = try AudioBuffer(data: broken); return "decoded" } catch { return (error as? TensorIOError)?.message }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(messages.count == 600)
        #expect(Set(messages) == ["Ogg: Supported file format but file is malformed."])
    }
}

extension AudioHostileTests {
    @Test("a mono recording mixed into a many-channel input is held to the sample limit before it is copied")
    func mixingLimit() throws {
        var document = Fixtures.numberModelDocument()
        document["inputs"] = [["name": "waveform", "type": "array", "shape": [1, 64], "dtype": "float32"]]
        document["audio"] = ["input": "waveform", "sample_rate": 8000, "channels": 64]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        let error = try withBundle(json: String(decoding: data, as: UTF8.self)) { url in
            let model = try ModelBundle(at: url).makeModel()
            let mono = try AudioBuffer(samples: Array(repeating: 0.1, count: 1000), sampleRate: 8000)
            return #expect(throws: TensorIOError.self) { try model.classify(mono, options: AudioClassificationOptions(limits: AudioLimits(maximumSamples: 10_000))) }
        }
        #expect(error?.code == .limitExceeded)
    }
}
