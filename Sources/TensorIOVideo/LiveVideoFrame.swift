/// A frame of a ``LiveVideo``, with when it arrived and how many frames were dropped before it.
public struct LiveVideoFrame: Sendable {
    /// The frame: its pixels (with the stream's display orientation), index and timestamp.
    public let frame: VideoFrame
    /// What the stream says of itself.
    public let info: VideoInfo
    /// When the frame had been decoded, on the process's continuous clock.
    public let received: ContinuousClock.Instant
    /// Frames of the stream decoded but dropped since the previous frame the consumer got, because it was
    /// still busy.
    public internal(set) var droppedBefore: Int

    /// How long ago the frame was decoded: the delay a result computed now has behind the stream (as
    /// MediaPipe's LIVE_STREAM results are timed, from the frame's arrival).
    public var latency: Duration { ContinuousClock.now - received }
}
