import Foundation
@_spi(Internal) import TensorIO
import TensorIOAudio
import TensorIOToolSupport

/// `tensorio classify` for a model with an `audio` entry: each file read, mixed, resampled and classified
/// window by window, the windows of one file running `jobs` at once.
struct AudioFileClassifier {
    let model: any Model
    let jobs: Int
    let top: Int
    let threshold: Float?
    let hop: Duration?

    /// The file extensions taken for audio (what libsndfile reads of WAV, FLAC and Ogg).
    static let extensions: Set<String> = ["wav", "wave", "flac", "ogg", "oga", "opus"]

    /// Classifies every file, printing each as soon as it is done (a table, or one JSON document); files
    /// that fail are reported together at the end.
    func run(paths: [String], json: Bool) async throws {
        var failures = InputFailures()
        var printed = 0
        if json { print("{\"audio\":[", terminator: "") }
        let options = AudioClassificationOptions(hop: hop, concurrency: jobs)
        for path in paths {
            let result: (audio: AudioBuffer, classification: AudioClassification)
            do {
                result = try await classify(path: path, options: options)
            } catch {
                failures.record(error, path: path)
                continue
            }
            if json {
                print((printed > 0 ? "," : "") + JSONText.render(jsonValue(path: path, result.audio, result.classification)), terminator: "")
            } else {
                printTable(path: path, result.audio, result.classification, first: printed == 0)
            }
            printed += 1
        }
        if json { print("]}") }
        if !failures.isEmpty { throw failures }
    }

    private func classify(path: String, options: AudioClassificationOptions) async throws -> (AudioBuffer, AudioClassification) {
        let url = try InputFileURL.checked(path, .audio)
        guard Self.extensions.contains(url.pathExtension.lowercased()) else {
            throw CLIError("\(path) is not a WAV, FLAC or Ogg file (the model takes audio; its file name ends in .\(Self.extensions.sorted().joined(separator: ", .")))")
        }
        let audio = try await RunThreads.shared.perform { _ in try AudioBuffer(contentsOf: url, limits: options.limits) }
        return (audio, try await model.classify(audio, options: options))
    }

    private func jsonValue(path: String, _ audio: AudioBuffer, _ result: AudioClassification) -> JSONText.Value {
        .object([
            ("path", .string(path)), ("sample_rate", .integer(Int64(audio.sampleRate))),
            ("windows", .array(result.windows.map { window in
                .object([
                    ("start_ms", .integer(window.startMilliseconds)),
                    ("classification", .array(window.top(top, threshold: threshold).map {
                        .object([("label", .string($0.label)), ("score", .float($0.score))])
                    })),
                ])
            })),
        ])
    }

    private func printTable(path: String, _ audio: AudioBuffer, _ result: AudioClassification, first: Bool) {
        if !first { print("") }
        let seconds = Double(audio.frameCount) / Double(audio.sampleRate)
        print("\(path)  \(audio.sampleRate) Hz, \(audio.channelCount) channel\(audio.channelCount == 1 ? "" : "s"), \(String(format: "%.2f", seconds)) s; \(result.windows.count) window\(result.windows.count == 1 ? "" : "s") of \(String(format: "%.0f", Double(result.windowFrames) * 1000 / Double(result.sampleRate))) ms")
        let width = String(result.windows.last?.startMilliseconds ?? 0).count
        for window in result.windows {
            let start = String(window.startMilliseconds)
            let entries = window.top(top, threshold: threshold)
            let text = entries.isEmpty
                ? "(no label above the threshold)"
                : entries.map { "\($0.label) \(String(format: "%.4f", $0.score))" }.joined(separator: ", ")
            print("  \(String(repeating: " ", count: width - start.count))\(start) ms  \(text)")
        }
    }
}
