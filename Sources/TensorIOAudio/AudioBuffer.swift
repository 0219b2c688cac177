public import Foundation
@_spi(Internal) import TensorIO
internal import TensorIOSupport

/// A recording: float samples, several channels interleaved, and the rate they were taken at.
///
/// Read one from a WAV, FLAC or Ogg (Vorbis, Opus) file with ``init(contentsOf:limits:)``, or wrap samples
/// you have with ``init(samples:channelCount:sampleRate:)``. ``resampled(to:limits:)`` (libsoxr) and
/// ``mixed(toChannels:)`` bring it to what a model takes; `Model.classify(_:options:)` does both itself.
///
/// ```swift
/// let speech = try AudioBuffer(contentsOf: URL(fileURLWithPath: "speech.wav"))
/// print(speech.sampleRate, speech.channelCount, speech.duration)
/// ```
public struct AudioBuffer: Sendable, Hashable {
    /// The samples, frame by frame: a frame holds one sample per channel.
    public let samples: [Float]
    /// Channels per frame.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int

    /// Wraps samples.
    ///
    /// - Parameters:
    ///   - samples: The samples, channels interleaved frame by frame, each a finite number (nominally −1…1).
    ///   - channelCount: Channels per frame, 1 to `AudioDescription.maximumChannels`.
    ///   - sampleRate: Frames per second, within `AudioDescription.supportedSampleRates`.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidAudio`) when the rate or channel count is
    ///   out of range, the samples are not whole frames, or one is not finite.
    public init(samples: [Float], channelCount: Int = 1, sampleRate: Int) throws {
        if let problem = Self.sampleRateProblem(sampleRate) ?? Self.channelsProblem(channelCount) {
            throw TensorIOError.invalidAudio(problem)
        }
        guard samples.count % channelCount == 0 else {
            throw TensorIOError.invalidAudio("\(samples.count) samples are not whole frames of \(channelCount) channels")
        }
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw TensorIOError.invalidAudio("sample \(index) is not a finite number")
        }
        self.init(unchecked: samples, channelCount: channelCount, sampleRate: sampleRate)
    }

    init(unchecked samples: [Float], channelCount: Int, sampleRate: Int) {
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
    }

    /// Reads a WAV (PCM or IEEE float), FLAC or Ogg (Vorbis or Opus) file with libsndfile.
    ///
    /// The header is checked before the codec sees the file; integer samples become floats in −1…1
    /// (divided by 2^(bits−1), so 16-bit samples by 32768).
    ///
    /// - Parameters:
    ///   - url: The audio file.
    ///   - limits: The largest file and the most samples accepted.
    /// - Throws: `TensorIOError`, naming the file: `TensorIOError.Code.io` when it cannot be read,
    ///   `TensorIOError.Code.invalidAudio` when it is not a readable WAV, FLAC or Ogg file or a sample is
    ///   not finite, `TensorIOError.Code.limitExceeded` past a limit.
    public init(contentsOf url: URL, limits: AudioLimits = AudioLimits()) throws {
        do {
            let data = try UntrustedFile.read(
                url, limit: limits.maximumFileBytes, name: "the audio file", limitName: "AudioLimits.maximumFileBytes"
            )
            self = try AudioDecoder.decode(data, limits: limits)
        } catch var error as TensorIOError {
            error.location = url.relativePath  // the path as the caller gave it
            throw error
        }
    }

    /// Decodes a WAV, FLAC or Ogg file held in memory; see ``init(contentsOf:limits:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - limits: The most samples accepted.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.invalidAudio` when it is not a readable WAV, FLAC
    ///   or Ogg file, `TensorIOError.Code.limitExceeded` past a limit.
    public init(data: Data, limits: AudioLimits = AudioLimits()) throws {
        guard data.count <= limits.maximumFileBytes else {
            throw TensorIOError(.limitExceeded, "the audio is \(data.count) bytes, more than the limit of \(limits.maximumFileBytes) (AudioLimits.maximumFileBytes)")
        }
        self = try AudioDecoder.decode(data, limits: limits)
    }

    /// Frames: samples per channel.
    public var frameCount: Int { samples.count / channelCount }

    /// How long the recording lasts.
    public var duration: Duration { .seconds(Double(frameCount) / Double(sampleRate)) }

    /// Why `rate` cannot be a recording's sample rate, or `nil` when it can.
    static func sampleRateProblem(_ rate: Int) -> String? { AudioDescription.sampleRateProblem(rate) }

    /// Why `channels` cannot be a recording's channel count, or `nil` when it can.
    static func channelsProblem(_ channels: Int) -> String? { AudioDescription.channelsProblem(channels) }
}
