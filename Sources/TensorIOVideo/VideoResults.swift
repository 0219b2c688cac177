/// A video's frames, each with what a task made of it: an `AsyncSequence` of ``VideoFrameResult``, in the
/// order the frames are shown (see ``VideoReader/results(options:_:)``).
///
/// The frames are decoded on a thread of their own ahead of the task (``VideoFrames``); the task runs on
/// the consuming task, one frame after the other, so its answers come in frame order. Breaking out of the
/// loop, or cancelling the consuming task (the sequence then throws `CancellationError`), stops the
/// decoding thread and frees FFmpeg's decoder; the frame being worked on is finished first, since a
/// model's run is not interrupted midway.
public struct VideoResults<Result: Sendable>: AsyncSequence, Sendable {
    public typealias Element = VideoFrameResult<Result>
    public typealias Failure = any Error

    private let frames: VideoFrames
    private let task: @Sendable (VideoFrame) async throws -> Result

    init(frames: VideoFrames, task: @escaping @Sendable (VideoFrame) async throws -> Result) {
        self.frames = frames
        self.task = task
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(frames: frames.makeAsyncIterator(), task: task)
    }

    /// Gives the frames' results one by one; `for try await` uses it.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = VideoFrameResult<Result>
        public typealias Failure = any Error

        /// The frames; released when the sequence ends (at the end of the video or after an error), which
        /// stops the decoding thread at once rather than when this iterator goes.
        private var frames: VideoFrames.Iterator?
        private let task: @Sendable (VideoFrame) async throws -> Result

        init(frames: VideoFrames.Iterator, task: @escaping @Sendable (VideoFrame) async throws -> Result) {
            self.frames = frames
            self.task = task
        }

        /// The next frame with its result.
        ///
        /// - Returns: The next frame kept by the sampling and what the task made of it, or `nil` at the end
        ///   of the video.
        /// - Throws: `CancellationError` when the consuming task is cancelled; the decoder's
        ///   `TensorIOError`; what the task threw. The sequence then ends: later calls return `nil`.
        public mutating func next() async throws -> VideoFrameResult<Result>? {
            try await next(isolation: nil)
        }

        /// The next frame with its result, for a caller isolated to `actor`.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next frame and its result, or `nil` at the end of the video.
        /// - Throws: As ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> VideoFrameResult<Result>? {
            guard frames != nil else { return nil }
            do {
                guard let frame = try await frames?.next(isolation: actor) else {
                    frames = nil
                    return nil
                }
                let result = try await task(frame)
                // A cancellation that came while the task ran ends the sequence here rather than after the
                // next frame is decoded.
                try Task.checkCancellation()
                return VideoFrameResult(frame: frame, result: result)
            } catch {
                frames = nil
                throw error
            }
        }
    }
}

/// One frame of a video with what a task made of it (``VideoResults``).
public struct VideoFrameResult<Result: Sendable>: Sendable {
    /// The frame: its pixels, its index in the stream and its timestamp.
    public let frame: VideoFrame
    /// What the task made of it.
    public let result: Result

    /// The frame's position in the stream, from 0 (``VideoFrame/index``).
    public var index: Int { frame.index }

    /// When the frame is shown (``VideoFrame/timestamp``).
    public var timestamp: Duration { frame.timestamp }
}

extension VideoFrames {
    /// The frames, each with what `task` makes of it, in order.
    ///
    /// - Parameter task: Runs a model on one frame — a detector's `detect`, a landmarker's
    ///   `landmarks(in:)`, a classifier's run — on the consuming task.
    /// - Returns: The frames and their results, stopped with the decoder when the consumer stops.
    public func results<Result: Sendable>(_ task: @escaping @Sendable (VideoFrame) async throws -> Result) -> VideoResults<Result> {
        VideoResults(frames: self, task: task)
    }
}

extension VideoReader {
    /// The video's frames that `options` keeps, each with what `task` makes of it, in order.
    ///
    /// ```swift
    /// let video = try VideoReader(contentsOf: URL(fileURLWithPath: "clip.mp4"))
    /// let detector = try ModelBundle(at: URL(fileURLWithPath: "detector.tiobundle")).makeModel()
    /// for try await answer in video.results(options: VideoSampling(every: 5)) { frame in
    ///     try detector.detect(frame.image)
    /// } {
    ///     print(answer.index, answer.timestamp, answer.result.count)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: Which frames to give.
    ///   - task: Runs a model on one frame, on the consuming task.
    /// - Returns: The frames and their results; see ``VideoResults`` for how it stops.
    public func results<Result: Sendable>(
        options: VideoSampling = .all, _ task: @escaping @Sendable (VideoFrame) async throws -> Result
    ) -> VideoResults<Result> {
        frames(options: options).results(task)
    }
}
