import Foundation
import TensorIO

/// A recording made ready for a model's audio input and cut into windows: mixed to the input's channels,
/// resampled to its rate, and split as MediaPipe's `AudioToTensorCalculator` splits a clip — full windows
/// every hop while one fits, then one last window, padded with silence, if samples remain.
struct AudioWindowing: Sendable {
    let description: AudioDescription
    /// The output whose scores answer, and its labels when it has none of its own (`"0"`, `"1"`, …).
    let output: String
    let samples: [Float]
    let windowFrames: Int
    let hopFrames: Int
    /// How many windows the recording makes; window `i` starts at frame `i × hopFrames`.
    let windowCount: Int
    /// Whether the model has inputs besides the audio one (each run then names it).
    let hasOtherInputs: Bool

    init(model: some Model, audio: AudioBuffer, options: AudioClassificationOptions) throws {
        let bundle = model.bundle
        let description = try bundle.requiredTaskDescription(AudioTask.self, missing: "audio input", registry: ".audio")
        guard let layer = bundle.inputs.first(where: { $0.name == description.input }),
              let windowFrames = description.windowFrames(of: layer)
        else {
            throw TensorIOError(.invalidInput, "input \"\(description.input)\" cannot take \(description.channels)-channel windows", location: "audio.input")
        }
        self.description = description
        self.output = try bundle.classificationOutputName()
        self.windowFrames = windowFrames
        self.hasOtherInputs = bundle.predictionInputs.count > 1
        // Mixing one channel into many multiplies the samples: held to the limit before it allocates.
        guard audio.frameCount <= options.limits.maximumSamples / description.channels else {
            throw TensorIOError(
                .limitExceeded, "mixed to \(description.channels) channels the recording would hold more than \(options.limits.maximumSamples) samples, the limit (AudioLimits.maximumSamples)"
            )
        }
        let prepared = try audio.mixed(toChannels: description.channels).resampled(to: description.sampleRate, limits: options.limits)
        // As long as MediaPipe's resampled clip: its filter's flushed tail, silence here.
        let frames = max(
            prepared.frameCount, ResampledLength.mediaPipe(frames: audio.frameCount, from: audio.sampleRate, to: description.sampleRate)
        )
        var samples = prepared.samples
        samples.append(contentsOf: repeatElement(0, count: max(0, frames - prepared.frameCount) * description.channels))
        self.samples = samples

        if let hop = options.hop {
            let seconds = Double(hop.components.seconds) + Double(hop.components.attoseconds) * 1e-18
            let hopFrames = (seconds * Double(description.sampleRate)).rounded()
            guard hopFrames >= 1, hopFrames <= Double(AudioDescription.supportedSampleRates.upperBound) * 3600 else {
                throw TensorIOError(.invalidInput, "a hop of \(hop) is not at least one frame at \(description.sampleRate) Hz (nor at most an hour)")
            }
            self.hopFrames = Int(hopFrames)
        } else {
            self.hopFrames = windowFrames
        }
        // Counted before any is made: a one-frame hop over a long recording would make millions.
        let fullWindows = frames >= windowFrames ? (frames - windowFrames) / hopFrames + 1 : 0
        let count = fullWindows + (fullWindows * hopFrames < frames ? 1 : 0)
        guard count <= options.limits.maximumWindows else {
            throw TensorIOError(.limitExceeded, "the recording makes \(count) windows, more than the limit of \(options.limits.maximumWindows) (AudioLimits.maximumWindows)")
        }
        self.windowCount = count
    }

    /// The input value of window `index`: its samples, the tail padded with silence.
    func input(window index: Int) -> InputValue {
        let channels = description.channels
        let start = index * hopFrames * channels
        let end = min(start + windowFrames * channels, samples.count)
        var window = Array(samples[start..<end])
        window.append(contentsOf: repeatElement(0, count: windowFrames * channels - window.count))
        let value = InputValue.numbers(.float32(window))
        return hasOtherInputs ? .named([description.input: value]) : value
    }

    /// Where window `index` starts, in microseconds: each hop adds its length rounded to the microsecond
    /// (MediaPipe's timestamps).
    func startMicroseconds(window index: Int) -> Int64 {
        let hop = (Double(hopFrames) / Double(description.sampleRate) * 1_000_000).rounded()
        return Int64(index) * Int64(hop)
    }

    /// Window `index`'s scores in a run's outputs.
    func window(_ index: Int, outputs: Outputs) throws -> AudioClassification.Window {
        AudioClassification.Window(
            startMicroseconds: startMicroseconds(window: index), scores: try outputs.classificationScores(of: output)
        )
    }

    func result(_ windows: [AudioClassification.Window]) -> AudioClassification {
        AudioClassification(output: output, sampleRate: description.sampleRate, windowFrames: windowFrames, windows: windows)
    }
}
