import Foundation

/// A video's frames as an `AsyncSequence`, decoded on a thread of their own ahead of the consumer (see
/// ``VideoReader/frames(options:)``).
///
/// Each iterator decodes the video from its start with a decoder of its own. The thread stops when the
/// video ends, when the iterator is released (a `break` out of the loop), or when the consuming task is
/// cancelled.
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = VideoFrame
    public typealias Failure = any Error

    /// How many frames the thread decodes ahead of the consumer, at most.
    static let queueCapacity = 4
    /// The decoding thread's name (what `top -H` and a debugger show).
    static let threadName = "TensorIO video"

    /// Opens the decoder, on the decoding thread.
    private let open: @Sendable () throws -> VideoDecoder

    init(open: @escaping @Sendable () throws -> VideoDecoder) {
        self.open = open
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(open: open)
    }

    /// Gives the frames one by one; `for try await` uses it.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = VideoFrame
        public typealias Failure = any Error

        private let consumer: Consumer

        init(open: @escaping @Sendable () throws -> VideoDecoder) {
            consumer = Consumer(open: open)
        }

        /// The next frame.
        ///
        /// - Returns: The next frame, or `nil` at the end of the video.
        /// - Throws: `CancellationError` when the task is cancelled; the decoder's `TensorIOError`.
        public mutating func next() async throws -> VideoFrame? {
            try await consumer.next()
        }

        /// The next frame, for a caller isolated to `actor`.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The next frame, or `nil` at the end of the video.
        /// - Throws: `CancellationError` when the task is cancelled; the decoder's `TensorIOError`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> VideoFrame? {
            try await consumer.next()
        }
    }

    /// The consuming end, shared by copies of an iterator: starts the thread on the first `next()` and
    /// stops it when the last copy is released.
    final class Consumer: Sendable {
        private let open: @Sendable () throws -> VideoDecoder
        private let channel = FrameChannel<VideoFrame>(capacity: VideoFrames.queueCapacity)
        private let started = LockedFlag()

        init(open: @escaping @Sendable () throws -> VideoDecoder) {
            self.open = open
        }

        deinit { channel.cancel() }

        func next() async throws -> VideoFrame? {
            if started.setOnce() { startThread() }
            let channel = self.channel
            let element = await withTaskCancellationHandler {
                await channel.receive()?.element
            } onCancel: {
                channel.cancel()
            }
            switch element {
            case .success(let frame): return frame
            case .failure(let error): throw error
            case nil:
                try Task.checkCancellation()
                return nil
            }
        }

        private func startThread() {
            let thread = Thread { [open, channel] in
                // libavcodec's threads, started from this one, inherit the name.
                ThreadName.setCurrent(VideoFrames.threadName)
                // The decoder, and FFmpeg's threads with it, is freed before the consumer hears of the end.
                do {
                    let decoder = try open()
                    while !channel.isCancelled, let frame = try decoder.nextFrame() {
                        guard channel.send(.success(frame)) else { break }
                    }
                } catch {
                    _ = channel.send(.failure(error))
                }
                channel.finish()
            }
            thread.name = VideoFrames.threadName
            thread.start()
        }
    }
}

/// A flag set once, from any thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// Sets the flag; returns whether this call set it.
    func setOnce() -> Bool {
        lock.withLock {
            defer { isSet = true }
            return !isSet
        }
    }
}
