public import Foundation
@_spi(Internal) public import TensorIO

extension Model {
    /// Classifies a recording window by window, as MediaPipe's `AudioClassifier` does a clip.
    ///
    /// The recording is mixed to the channels of the bundle's audio input (several averaged into one),
    /// resampled to its rate with libsoxr, and split into windows of the input's length, every
    /// ``AudioClassificationOptions/hop`` (back to back by default): full windows while one fits, then
    /// one last window padded with silence if samples remain. Each window's scores are the bundle's
    /// labelled output.
    ///
    /// ```swift
    /// let model = try ModelBundle(modelAt: URL(fileURLWithPath: "yamnet.tflite"), registry: .audio).makeModel()
    /// let result = try model.classify(try AudioBuffer(contentsOf: URL(fileURLWithPath: "speech.wav")))
    /// for window in result.windows {
    ///     print(window.startMilliseconds, window.top(3).map(\.label))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - audio: The recording, at any rate and with any number of channels.
    ///   - options: The hop between windows and the limits.
    /// - Returns: The windows' scores with their start times.
    /// - Throws: `TensorIOError`: `TensorIOError.Code.unsupported` when the bundle has no `audio`
    ///   entry or no classification output; `TensorIOError.Code.limitExceeded` past
    ///   ``AudioLimits/maximumSamples`` or ``AudioLimits/maximumWindows``; what running the model throws.
    public func classify(_ audio: AudioBuffer, options: AudioClassificationOptions = AudioClassificationOptions()) throws -> AudioClassification {
        let windowing = try AudioWindowing(model: self, audio: audio, options: options)
        let windows = try (0..<windowing.windowCount).map { index in
            try windowing.window(index, outputs: try run(windowing.input(window: index)))
        }
        return windowing.result(windows)
    }

    /// Classifies a recording window by window without blocking the calling task's thread, with up to
    /// ``AudioClassificationOptions/concurrency`` windows running at once; see `classify(_:options:)`.
    ///
    /// - Parameters:
    ///   - audio: The recording.
    ///   - options: The hop between windows, the windows run at once and the limits.
    /// - Returns: The windows' scores with their start times.
    /// - Throws: `CancellationError` when the task is cancelled; otherwise as the synchronous call.
    public func classify(_ audio: AudioBuffer, options: AudioClassificationOptions = AudioClassificationOptions()) async throws -> AudioClassification {
        let windowing = try await RunThreads.shared.perform { _ in try AudioWindowing(model: self, audio: audio, options: options) }
        var windows: [AudioClassification.Window] = []
        windows.reserveCapacity(windowing.windowCount)
        let concurrency = options.concurrency ?? configuration.maximumConcurrentRuns
        for await result in results(for: (0..<windowing.windowCount), concurrency: concurrency, perform: { index in
            try windowing.window(index, outputs: try self.run(windowing.input(window: index)))
        }) {
            windows.append(try result.get())
        }
        try Task.checkCancellation()
        return windowing.result(windows)
    }

    /// Classifies a WAV, FLAC or Ogg file window by window; see `classify(_:options:)`.
    ///
    /// - Parameters:
    ///   - url: The audio file.
    ///   - options: The hop between windows and the limits (the file's size and samples too).
    /// - Returns: The windows' scores with their start times.
    /// - Throws: What reading the file (``AudioBuffer/init(contentsOf:limits:)``) and classifying throw.
    public func classify(contentsOf url: URL, options: AudioClassificationOptions = AudioClassificationOptions()) throws -> AudioClassification {
        try classify(try AudioBuffer(contentsOf: url, limits: options.limits), options: options)
    }

    /// Classifies a WAV, FLAC or Ogg file window by window without blocking the calling task's thread.
    ///
    /// - Parameters:
    ///   - url: The audio file.
    ///   - options: The hop between windows, the windows run at once and the limits.
    /// - Returns: The windows' scores with their start times.
    /// - Throws: As the synchronous call, and `CancellationError`.
    public func classify(contentsOf url: URL, options: AudioClassificationOptions = AudioClassificationOptions()) async throws -> AudioClassification {
        let audio = try await RunThreads.shared.perform { _ in try AudioBuffer(contentsOf: url, limits: options.limits) }
        return try await classify(audio, options: options)
    }
}
