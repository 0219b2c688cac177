/// Which of a video's frames to decode into pixels: every frame, every Nth, at most so many a second,
/// between a start and an end time.
///
/// The rules apply in this order: frames before ``start`` are skipped (decoding begins at the key frame
/// before it, after a seek) and decoding stops at the first frame at or after ``end``; of the frames
/// between, the first and then every ``every``th is considered; of those, a frame is kept when it starts a
/// new 1/``maximumFramesPerSecond`` interval since the first kept frame, by timestamp. Frames skipped are
/// still decoded (a compressed frame depends on the ones before it) but never converted to pixels.
///
/// ```swift
/// // Two frames a second from the tenth second to the twentieth.
/// let sampling = VideoSampling(maximumFramesPerSecond: 2, start: .seconds(10), end: .seconds(20))
/// ```
public struct VideoSampling: Sendable, Hashable {
    /// Keep the first frame and then every `every`th (1: every frame).
    public var every: Int
    /// Keep at most this many frames per second of video, by their timestamps; `nil` for no such bound.
    public var maximumFramesPerSecond: Double?
    /// Skip frames whose timestamps are before this; `nil` to start at the beginning.
    public var start: Duration?
    /// Stop at the first frame whose timestamp is at or after this; `nil` to read to the end.
    public var end: Duration?

    /// Creates sampling rules.
    ///
    /// - Parameters:
    ///   - every: Keep the first frame and then every `every`th; at least 1.
    ///   - maximumFramesPerSecond: At most this many frames per second of video; more than 0.
    ///   - start: Skip frames before this time; at least 0.
    ///   - end: Stop at this time; after `start`.
    public init(every: Int = 1, maximumFramesPerSecond: Double? = nil, start: Duration? = nil, end: Duration? = nil) {
        self.every = every
        self.maximumFramesPerSecond = maximumFramesPerSecond
        self.start = start
        self.end = end
    }

    /// Every frame, from the first to the last.
    public static let all = VideoSampling()

    /// Why these rules cannot be used, or `nil` when they can.
    var problem: String? {
        if every < 1 { return "VideoSampling.every is \(every); it must be at least 1" }
        if let rate = maximumFramesPerSecond, !(rate > 0 && rate.isFinite) {
            return "VideoSampling.maximumFramesPerSecond is \(rate); it must be a number above 0"
        }
        if let start, start < .zero { return "VideoSampling.start is \(start); it must not be negative" }
        if let end, end <= (start ?? .zero) { return "VideoSampling.end (\(end)) must come after its start (\(start ?? .zero))" }
        return nil
    }
}
