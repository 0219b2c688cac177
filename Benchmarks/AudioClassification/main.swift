// audio-classification-benchmark MODEL RECORDING RUNS [--threads N] [--concurrent-runs N]: TensorIO's side of
// run-audio-benchmarks.py.
//
// Loads MODEL (a bundle or a bare .tflite whose metadata describes an audio classifier) with N threads per
// run and up to N runs at once (ModelConfiguration(threadCount:maximumConcurrentRuns:)), warms up with one
// whole pass, then times RUNS iterations of each, interleaved so that a slow spell of the shared machine
// hits all alike:
//   recording  read the file (AudioBuffer(contentsOf:)) and classify it with the async call at the
//              model's concurrency: mix to the model's channels, resample to its rate, every window. What
//              an app pays per recording (MediaPipe's read + AudioClassifier.classify is timed the same
//              way on the Python side); its two parts are reported too (decode_us, classify_us)
//   mix        the decoded recording mixed to the model's channels, alone
//   resample   the mixed recording resampled to the model's rate (libsoxr), alone
//   inference  the recording already at the model's rate and channels classified: the windows and the
//              model's runs, nothing to mix or resample
// Prints one JSON object with the medians in microseconds, the window count and, per window of the last
// pass, the indices of the categories with the top score (several when tied).
import Foundation
import TensorIO
import TensorIOAudio
import BenchmarkStatistics

/// The indices of the highest score of a window (NaN never counts as one).
func topIndices(_ scores: [Float]) -> [Int] {
    guard let best = scores.filter({ !$0.isNaN }).max() else { return [] }
    return scores.indices.filter { scores[$0] == best }
}

/// The measurements, as one JSON object. In a function of its own: in top-level code the synchronous
/// classify would be chosen over the async one.
func measure(model path: String, recording: URL, runs: Int, threads: Int, concurrentRuns: Int) async throws -> [String: Any] {
    let url = URL(fileURLWithPath: path)
    let bundle = ModelBundle.isBareModel(url) ? try ModelBundle(modelAt: url, registry: .audio) : try ModelBundle(at: url, registry: .audio)
    guard let description = try bundle.audio else { throw TensorIOError(.unsupported, "\(url.lastPathComponent) has no audio input") }
    let model = try bundle.makeModel(configuration: ModelConfiguration(threadCount: threads, maximumConcurrentRuns: concurrentRuns))
    try model.load()
    // The model's own concurrency (options.concurrency nil): `concurrentRuns` windows at once.
    let options = AudioClassificationOptions()

    // Warm-up: one whole pass (the file in the page cache, every compiled copy of the model run).
    var audio = try AudioBuffer(contentsOf: recording)
    var last = try await model.classify(audio, options: options)

    var whole: [Double] = [], decode: [Double] = [], classify: [Double] = []
    var mix: [Double] = [], resample: [Double] = [], inference: [Double] = []
    for _ in 0..<runs {
        let start = now()
        audio = try AudioBuffer(contentsOf: recording)
        let decoded = now()
        last = try await model.classify(audio, options: options)
        let end = now()
        whole.append(microseconds(from: start, to: end))
        decode.append(microseconds(from: start, to: decoded))
        classify.append(microseconds(from: decoded, to: end))

        let mixStart = now()
        let mixed = try audio.mixed(toChannels: description.channels)
        let mixEnd = now()
        let prepared = try mixed.resampled(to: description.sampleRate)
        let resampleEnd = now()
        mix.append(microseconds(from: mixStart, to: mixEnd))
        resample.append(microseconds(from: mixEnd, to: resampleEnd))

        let inferenceStart = now()
        let result = try await model.classify(prepared, options: options)
        inference.append(microseconds(from: inferenceStart, to: now()))
        guard result.windows.count == last.windows.count else {
            throw TensorIOError(.unsupported, "the prepared recording made \(result.windows.count) windows, the file \(last.windows.count)")
        }
    }
    let result: [String: Any] = [
        "recording_us": median(whole), "decode_us": median(decode), "classify_us": median(classify),
        "mix_us": median(mix), "resample_us": median(resample), "inference_us": median(inference),
        "runs": runs, "threads": threads, "concurrent_runs": concurrentRuns,
        "frames": audio.frameCount, "channels": audio.channelCount, "sample_rate": audio.sampleRate,
        "windows": last.windows.count,
        "window_start_ms": last.windows.map { Int($0.startMilliseconds) },
        "top": last.windows.map { topIndices($0.scores.scores) },
    ]
    return result
}

let (arguments, runs) = benchmarkArguments(usage: "audio-classification-benchmark MODEL RECORDING RUNS [--threads N] [--concurrent-runs N]")
let threads = option("--threads", in: arguments) ?? 1
let concurrentRuns = option("--concurrent-runs", in: arguments) ?? 1

do {
    try printJSON(await measure(
        model: arguments[0], recording: URL(fileURLWithPath: arguments[1]), runs: runs, threads: threads, concurrentRuns: concurrentRuns
    ))
} catch {
    fail("audio-classification-benchmark", error)
}
