import Foundation

/// A live video's frames as an `AsyncSequence` (see ``LiveVideo/frames(options:maximumQueued:)``): decoded
/// on a thread of their own as they arrive, the oldest waiting frame dropped when the consumer falls behind.
///
/// Each iterator opens the stream anew. The thread stops when the stream ends, when the iterator is released
/// (a `break` out of the loop), or when the consuming task is cancelled — at once, even while it waits on the
/// network or on standard input.
public struct LiveVideoFrames: AsyncSequence, Sendable {
    public typealias Element = LiveVideoFrame
    public typealias Failure = any Error

    let video: LiveVideo
    let sampling: VideoSampling
    let capacity: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: Consumer(video: video, sampling: sampling, capacity: capacity))
    }

    /// Gives the frames one by one; `for try await` uses it.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = LiveVideoFrame
        public typealias Failure = any Error

        let consumer: Consumer

        /// The newest frame not yet given, waiting for one if there is none.
        ///
        /// - Returns: The frame, or `nil` when the stream has ended.
        /// - Throws: `CancellationError` when the task is cancelled; the decoder's `TensorIOError` (`io` when
        ///   the stream cannot be reached or sends nothing for ``LiveVideo/timeout``).
        public mutating func next() async throws -> LiveVideoFrame? {
            try await consumer.next()
        }

        /// The next frame, for a caller isolated to `actor`.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The frame, or `nil` when the stream has ended.
        /// - Throws: As ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> LiveVideoFrame? {
            try await consumer.next()
        }
    }

    /// The consuming end: starts the thread on the first `next()`, stops it when released or cancelled.
    final class Consumer: Sendable {
        private let video: LiveVideo
        private let sampling: VideoSampling
        private let channel: FrameChannel<LiveVideoFrame>
        private let interrupt: LiveInterrupt
        private let started = LockedFlag()

        init(video: LiveVideo, sampling: VideoSampling, capacity: Int) {
            self.video = video
            self.sampling = sampling
            channel = FrameChannel(capacity: capacity, overflow: .dropOldest)
            interrupt = LiveInterrupt(timeout: video.timeout)
        }

        deinit {
            interrupt.cancel()
            channel.cancel()
        }

        func next() async throws -> LiveVideoFrame? {
            if started.setOnce() { startThread() }
            let (channel, interrupt) = (self.channel, self.interrupt)
            let delivery = await withTaskCancellationHandler {
                await channel.receive()
            } onCancel: {
                interrupt.cancel()
                channel.cancel()
            }
            guard let delivery else {
                try Task.checkCancellation()
                return nil
            }
            var frame = try delivery.element.get()
            frame.droppedBefore = delivery.dropped
            return frame
        }

        private func startThread() {
            let thread = Thread { [video, sampling, channel, interrupt] in
                ThreadName.setCurrent(LiveVideoFrames.threadName)
                // The timeout counts from the connection, not from when the iterator was made.
                interrupt.progressed()
                do {
                    let decoder = try video.open(sampling: sampling, interrupt: interrupt)
                    while !channel.isCancelled, let frame = try decoder.nextFrame() {
                        let live = LiveVideoFrame(frame: frame, info: decoder.info, received: .now, droppedBefore: 0)
                        guard channel.send(.success(live)) else { break }
                    }
                } catch {
                    if !channel.isCancelled { _ = channel.send(.failure(error)) }
                }
                channel.finish()
            }
            thread.name = LiveVideoFrames.threadName
            thread.start()
        }
    }

    /// The decoding thread's name (a file's is "TensorIO video").
    static let threadName = "TensorIO live"
}
