import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio classify` on audio (issue 29, point 2), and `tensorio init` writing the audio entry (point 1).
@Suite("CLI: classify audio")
struct AudioCommandTests {
    static let yamnet = TestData.path("task-models/tflite-support/audio/yamnet_audio_classifier_with_metadata.tflite")
    static let speech = TestData.path("task-models/tflite-support/audio/speech.wav")

    @Test("--json: each file's path, its own sample rate, and its windows with start times and top labels", TestData.required(paths: yamnet, speech))
    func json() async throws {
        let result = try await CLI.run(
            "classify", Self.yamnet, Self.speech, "Tests/Fixtures/AudioFormats/phrase-stereo.flac", "--top", "3", "--json"
        )
        #expect(result.status == 0 && result.stdoutLines.count == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try #require(document["audio"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == [Self.speech, "Tests/Fixtures/AudioFormats/phrase-stereo.flac"])
        #expect(files.map { $0["sample_rate"] as? Int } == [16_000, 44_100])
        let windows = try #require(files[0]["windows"] as? [[String: Any]])
        #expect(windows.map { $0["start_ms"] as? Int } == [0, 975, 1950, 2925, 3900])
        let first = try #require(windows[0]["classification"] as? [[String: Any]])
        #expect(first.count == 3 && first[0]["label"] as? String == "Speech" && (first[0]["score"] as? Double ?? 0) > 0.9)
    }

    @Test("the table; --hop overlaps windows; a file that is not audio is one line naming it, the others still printed", TestData.required(paths: yamnet, speech))
    func table() async throws {
        let result = try await CLI.run("classify", Self.yamnet, Self.speech, "README.md", "--top", "1", "--hop", "0.5")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("\(Self.speech)  16000 Hz, 1 channel, 4.27 s; 8 windows of 975 ms"), "\(result.stdout)")
        #expect(result.stdoutLines.contains { $0.hasPrefix("     0 ms  Speech ") } && result.stdoutLines.contains { $0.hasPrefix("   500 ms  ") })
        #expect(result.stderr.contains("README.md") && result.stderr.contains("not a WAV, FLAC or Ogg"), "\(result.stderr)")
        let hop = try await CLI.run("classify", "Examples/efficientnet-lite0-float32.tiobundle", "Examples/photos/cat.jpg", "--hop", "1")
        #expect(hop.status != 0 && hop.stderr.contains("--hop is for audio models"), "\(hop)")
    }

    @Test("init writes the audio entry from AudioProperties; the bundle classifies as the bare model", TestData.required(paths: yamnet, speech))
    func initWritesAudio() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("yamnet.tiobundle")
            #expect(try await CLI.run("init", Self.yamnet, "-o", bundle.path).status == 0)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("model.json"))) as? [String: Any])
            let audio = try #require(document["audio"] as? [String: Any])
            #expect(audio["sample_rate"] as? Int == 16_000 && audio["channels"] as? Int == 1 && audio["input"] as? String != nil)
            let fromBundle = try await CLI.run("classify", bundle.path, Self.speech, "--json")
            let fromModel = try await CLI.run("classify", Self.yamnet, Self.speech, "--json")
            #expect(fromBundle.status == 0 && fromBundle.stdout == fromModel.stdout, "\(fromBundle)")
        }
    }
}
