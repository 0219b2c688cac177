public import TensorIO

/// What a model hears in a recording, window by window: the answer of `Model.classify(_:options:)`.
public struct AudioClassification: Sendable, Hashable {
    /// One window of the recording and the model's scores for it.
    public struct Window: Sendable, Hashable {
        /// Where the window starts in the recording, in microseconds, as MediaPipe counts it: each hop
        /// adds the hop's length rounded to the microsecond.
        public let startMicroseconds: Int64
        /// The scores of the classification output, one per label (labels `"0"`, `"1"`, … when the
        /// output has none).
        public let scores: LabeledScores

        /// Where the window starts in the recording.
        public var start: Duration { .microseconds(startMicroseconds) }

        /// Where the window starts, in whole milliseconds (MediaPipe's `timestamp_ms`).
        public var startMilliseconds: Int64 { startMicroseconds / 1000 }

        /// The best `count` labels of the window, best first; see `LabeledScores.top(_:threshold:)`.
        ///
        /// - Parameters:
        ///   - count: How many labels at most.
        ///   - threshold: Only scores greater than this are kept.
        /// - Returns: At most `count` entries sorted by descending score.
        public func top(_ count: Int, threshold: Float? = nil) -> [LabeledScores.Entry] {
            scores.top(count, threshold: threshold)
        }
    }

    /// The output whose scores the windows hold.
    public let output: String
    /// The model's sample rate: the recording was resampled to it before it was split.
    public let sampleRate: Int
    /// Frames in each window, at ``sampleRate`` (the last window is padded with silence).
    public let windowFrames: Int
    /// The windows, in time order. A recording with no samples has none.
    public let windows: [Window]
}
