public import TensorIO

/// One decoded frame of a video: its pixels, where it stands in the stream and when it is shown.
public struct VideoFrame: Sendable, Hashable {
    /// The frame's pixels, BGRA (the layout TensorIO's image pipeline works in, so a model takes it without
    /// a conversion), at the stored size, with the stream's ``VideoInfo/orientation``: `orientedUpright()`
    /// gives the frame as displayed, as a photo's EXIF orientation does.
    public let image: PixelBuffer
    /// The frame's position in the stream, from 0, counting every decoded frame whether sampling kept it
    /// or not. After a seek to ``VideoSampling/start`` the frames before it are not decoded, and the index
    /// is worked out from the timestamp and the frame rate: exact for a constant frame rate.
    public let index: Int
    /// When the frame is shown, in microseconds: its presentation timestamp (FFmpeg's best effort) in the
    /// stream's time, usually 0 for the first frame.
    public let timestampMicroseconds: Int64

    /// When the frame is shown.
    public var timestamp: Duration { .microseconds(timestampMicroseconds) }

    /// When the frame is shown, in milliseconds (rounded down).
    public var timestampMilliseconds: Int64 { timestampMicroseconds / 1000 }
}
