import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
@testable import TensorIOAudio
import TensorIOTestSupport

/// The `audio` entry of model.json (issue 29, point 1): which input takes sound, at what rate, with how
/// many channels; refused at its JSON path when wrong.
@Suite("Audio: the audio entry of model.json")
struct AudioDescriptionTests {
    /// A bundle over the number model whose only input is `input` and whose `audio` entry is `audio`.
    /// Opened with the audio task registered (its entry read then), or with `.builtIn` and the entry read
    /// on first use (`firstUse`).
    static func bundle(
        _ audio: JSONObject?, input: JSONObject = ["name": "waveform", "type": "array", "shape": [1, 16], "dtype": "float32"],
        firstUse: Bool = false
    ) throws -> ModelBundle {
        var document = Fixtures.numberModelDocument()
        document["inputs"] = [input]
        if let audio { document["audio"] = audio }
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return try withBundle(json: String(decoding: data, as: UTF8.self)) { url in
            guard firstUse else { return try ModelBundle(at: url, registry: .everyTask) }
            let bundle = try ModelBundle(at: url)
            _ = try bundle.audio
            return bundle
        }
    }

    static func issues(_ audio: JSONObject, input: JSONObject = ["name": "waveform", "type": "array", "shape": [1, 16], "dtype": "float32"]) -> [String] {
        let error = #expect(throws: TensorIOError.self) { try bundle(audio, input: input) }
        // Opened without the audio task, the bundle keeps the entry; its first read finds the same problems.
        let later = #expect(throws: TensorIOError.self) { try bundle(audio, input: input, firstUse: true) }
        #expect(later?.issues == error?.issues)
        return error?.issues.map(\.path) ?? []
    }

    @Test("the entry reads and writes back; channels default to one")
    func reads() throws {
        let stereo = try #require(try Self.bundle(["input": "waveform", "sample_rate": 44_100, "channels": 2]).audio)
        #expect(stereo == (try AudioDescription(input: "waveform", sampleRate: 44_100, channels: 2)))
        #expect(stereo.windowFrames(of: try Self.bundle(nil).inputs[0]) == 8)
        #expect(stereo.modelJSON == .object([
            .init(key: "input", value: .string("waveform")), .init(key: "sample_rate", value: .integer(44_100)),
            .init(key: "channels", value: .integer(2)),
        ]))
        #expect(try Self.bundle(["input": "waveform", "sample_rate": 16_000]).audio?.channels == 1)
        #expect(try Self.bundle(nil).audio == nil)
    }

    @Test("a wrong entry is refused at its JSON path: rates of 0 or 10^9, channels, inputs that cannot take samples")
    func refused() {
        #expect(Self.issues(["input": "nothing", "sample_rate": 16_000]) == ["audio.input"])
        #expect(Self.issues(["sample_rate": 16_000]) == ["audio.input"])
        #expect(Self.issues(["input": "waveform"]) == ["audio.sample_rate"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 0]) == ["audio.sample_rate"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 1_000_000_000]) == ["audio.sample_rate"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 16_000.5]) == ["audio.sample_rate"])
        #expect(Self.issues(["input": "waveform", "sample_rate": "fast"]) == ["audio.sample_rate"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 16_000, "channels": 0]) == ["audio.channels"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 16_000, "channels": 65]) == ["audio.channels"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 16_000, "channels": 3]) == ["audio.input"])
        #expect(Self.issues(["input": "waveform", "sample_rate": 16_000, "gain": 2]) == ["audio.gain"])
        #expect(Self.issues(
            ["input": "waveform", "sample_rate": 16_000], input: ["name": "waveform", "type": "array", "shape": [16], "dtype": "int32"]
        ) == ["audio.input"])
        #expect(Self.issues(
            ["input": "waveform", "sample_rate": 16_000], input: ["name": "waveform", "type": "array", "shape": [4, 4], "dtype": "float32"]
        ) == ["audio.input"])
        #expect(throws: TensorIOError.self) { try AudioDescription(input: "x", sampleRate: 0) }
        #expect(throws: TensorIOError.self) { try AudioDescription(input: "x", sampleRate: 16_000, channels: 100) }
    }
}
