@_spi(Internal) public import TensorIO

/// Which input of a bundle takes sound, and how it was sampled: the `audio` entry of `model.json`
/// (docs/model-json.md, "Audio").
///
/// The input is a float32 array of samples, `[samples]` or `[1, samples]`, several channels interleaved.
/// The description says the rate the samples are taken at (`sampleRate`) and how many channels they
/// hold (`channels`): the TensorIOAudio library resamples and mixes a recording to match, splits it into
/// windows of the input's length and classifies each (its `Model.classify(_:options:)`), as MediaPipe's
/// `AudioClassifier` does from a model's `AudioProperties` metadata.
public struct AudioDescription: Sendable, Hashable {
    /// The input that takes the samples.
    public let input: String
    /// Samples per second per channel (`sample_rate`).
    public let sampleRate: Int
    /// Channels, interleaved in the input (`channels`, default 1).
    public let channels: Int

    /// Creates an audio description.
    ///
    /// - Parameters:
    ///   - input: The input that takes the samples.
    ///   - sampleRate: Samples per second per channel, within `supportedSampleRates`.
    ///   - channels: Channels, from 1 to `maximumChannels`.
    /// - Throws: `TensorIOError` with code `TensorIOError/Code/invalidInput` when the rate or the
    ///   channel count is out of range.
    public init(input: String, sampleRate: Int, channels: Int = 1) throws {
        if let problem = Self.sampleRateProblem(sampleRate) ?? Self.channelsProblem(channels) {
            throw TensorIOError(.invalidInput, problem)
        }
        self.init(unchecked: input, sampleRate: sampleRate, channels: channels)
    }

    init(unchecked input: String, sampleRate: Int, channels: Int) {
        self.input = input
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The sample rates a model may take: 1 Hz to 768 kHz (the fastest rate audio interfaces offer).
    public static let supportedSampleRates = 1...768_000
    /// The most channels a model's input may interleave.
    public static let maximumChannels = 64

    /// Why `rate` cannot be a model's sample rate, or `nil` when it can.
    package static func sampleRateProblem(_ rate: Int) -> String? {
        supportedSampleRates.contains(rate)
            ? nil : "\(rate) Hz is not a sample rate TensorIO takes (\(supportedSampleRates.lowerBound) to \(supportedSampleRates.upperBound) Hz)"
    }

    /// Why `channels` cannot be a model's channel count, or `nil` when it can.
    package static func channelsProblem(_ channels: Int) -> String? {
        (1...maximumChannels).contains(channels) ? nil : "\(channels) channels: an audio input has 1 to \(maximumChannels)"
    }

    /// Samples per channel in one window: the input's element count (its batch dimension left out)
    /// divided by `channels`; `nil` when the layer cannot take this description's samples.
    ///
    /// - Parameter layer: The input layer `input` names.
    /// - Returns: The window's length in frames.
    public func windowFrames(of layer: LayerDescription) -> Int? {
        Self.shapeProblem(layer.shape, channels: channels) == nil ? Self.samples(in: layer.shape) / channels : nil
    }

    /// Why an input of `shape` cannot hold `channels` interleaved channels of samples — `[samples]` or
    /// `[1, samples]`, a multiple of `channels`, no `-1` but a batch dimension — or `nil` when it can.
    static func shapeProblem(_ shape: [Int], channels: Int) -> String? {
        let vector = shape.count == 2 && [1, -1].contains(shape[0]) ? [shape[1]] : shape
        guard vector.count == 1, vector[0] > 0 else {
            return "has shape \(shape); an audio input is a vector of samples, [samples] or [1, samples]"
        }
        guard vector[0] % channels == 0 else {
            return "has \(vector[0]) samples, not a whole number of frames of \(channels) channels"
        }
        return nil
    }

    private static func samples(in shape: [Int]) -> Int { shape.last ?? 0 }

    /// The `audio` entry of `model.json` that reads back as this description.
    package var modelJSON: OrderedJSON {
        .object([
            .init(key: "input", value: .string(input)), .init(key: "sample_rate", value: .integer(sampleRate)),
            .init(key: "channels", value: .integer(channels)),
        ])
    }
}
