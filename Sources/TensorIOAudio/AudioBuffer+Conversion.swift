import CSoxr
import TensorIO

extension AudioBuffer {
    /// This recording at another sample rate, resampled by libsoxr (its "high quality" setting: a
    /// linear-phase low-pass with 20-bit precision, passband to 91% of the lower Nyquist frequency).
    ///
    /// - Parameters:
    ///   - rate: Frames per second, within `AudioDescription.supportedSampleRates`.
    ///   - limits: The most samples the result may hold.
    /// - Returns: The resampled recording, `frameCount × rate / sampleRate` frames rounded to the nearest;
    ///   this recording itself when the rates are equal.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.invalidAudio` when `rate` is out of range,
    ///   `TensorIOError.Code.limitExceeded` when the result would pass ``AudioLimits/maximumSamples``.
    public func resampled(to rate: Int, limits: AudioLimits = AudioLimits()) throws -> AudioBuffer {
        if let problem = Self.sampleRateProblem(rate) { throw TensorIOError.invalidAudio(problem) }
        guard rate != sampleRate else { return self }
        // Both rates are at most 768 kHz and frames at most 2^27·64: the product fits in Int64 comfortably.
        let frames = (frameCount * rate + sampleRate / 2) / sampleRate
        guard frames <= limits.maximumSamples / channelCount else {
            throw TensorIOError(
                .limitExceeded, "resampled to \(rate) Hz the recording would hold more than \(limits.maximumSamples) samples, the limit (AudioLimits.maximumSamples)"
            )
        }
        guard frames > 0 else { return AudioBuffer(unchecked: [], channelCount: channelCount, sampleRate: rate) }
        var output = [Float](repeating: 0, count: frames * channelCount)
        var produced = 0
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var runtime = soxr_runtime_spec(1)
        let error = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                soxr_oneshot(
                    Double(sampleRate), Double(rate), UInt32(channelCount), input.baseAddress, frameCount, nil,
                    output.baseAddress, frames, &produced, &io, &quality, &runtime
                )
            }
        }
        if let error { throw TensorIOError.invalidAudio("resampling failed: \(String(cString: error))") }
        // soxr gives every frame asked for when it has the whole input; a shortfall stays silence.
        _ = produced
        return AudioBuffer(unchecked: output, channelCount: channelCount, sampleRate: rate)
    }

    /// This recording with `channels` channels: several mixed into one by averaging each frame, one
    /// copied into each of several; this recording itself when the counts are equal.
    ///
    /// - Parameter channels: The channel count wanted.
    /// - Returns: The mixed recording.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.unsupported`) for other changes (5.1 to stereo,
    ///   say), which need a layout this buffer does not carry.
    public func mixed(toChannels channels: Int) throws -> AudioBuffer {
        if channels == channelCount { return self }
        if let problem = Self.channelsProblem(channels) { throw TensorIOError.invalidAudio(problem) }
        let frames = frameCount
        var output = [Float](repeating: 0, count: frames * channels)
        if channels == 1 {
            let scale = 1 / Float(channelCount)
            samples.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    if channelCount == 2 {
                        // Stereo, the common case: a loop the compiler vectorizes.
                        for frame in 0..<frames { output[frame] = (input[2 * frame] + input[2 * frame + 1]) * 0.5 }
                        return
                    }
                    for frame in 0..<frames {
                        var sum: Float = 0
                        for channel in 0..<channelCount { sum += input[frame * channelCount + channel] }
                        output[frame] = sum * scale
                    }
                }
            }
        } else if channelCount == 1 {
            for frame in 0..<frames {
                for channel in 0..<channels { output[frame * channels + channel] = samples[frame] }
            }
        } else {
            throw TensorIOError(
                .unsupported, "cannot mix \(channelCount) channels into \(channels): TensorIO mixes any number into one, or one into several"
            )
        }
        return AudioBuffer(unchecked: output, channelCount: channels, sampleRate: sampleRate)
    }
}
