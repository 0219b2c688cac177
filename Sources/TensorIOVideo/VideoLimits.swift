/// Bounds on the video TensorIO reads: a crafted file cannot make it allocate, decode or loop without end.
///
/// Every size a file claims — its streams, each frame's width and height, its duration and frame rate —
/// is checked against these before memory is reserved for it: the stream's header when the file is opened,
/// each decoded frame again (a stream may change size midway), and libavcodec itself is told the largest
/// frame (its `max_pixels`) so that it refuses a bigger one before allocating it. Decoding stops with
/// `TensorIOError.Code.limitExceeded` when the frames actually read pass a limit, whatever the header said.
///
/// Two bounds are not settings: reading stops after 16 times the file's size in bytes (plus 1 MiB), so a
/// container whose index points at the same bytes again and again cannot make it read without end; and the
/// queue between the decoding thread and an `AsyncSequence`'s consumer holds at most 4 frames.
public struct VideoLimits: Sendable, Hashable {
    /// The largest video file read, in bytes (default 16 GiB). A file is read piece by piece as the
    /// decoder asks, never whole, so the size bounds time more than memory.
    public var maximumFileBytes: Int
    /// The most pixels in one frame (default 36 million: 8K UHD, 7680 × 4320, is 33.2 million).
    public var maximumPixels: Int
    /// The largest width or height of a frame, in pixels (default 16,384).
    public var maximumDimension: Int
    /// The most frames one pass over the video decodes, kept or not (default 2^21: 19 hours at 30 frames
    /// per second).
    public var maximumFrames: Int
    /// The longest video: a stream claiming more is refused, and decoding stops at a frame later than this
    /// (default 24 hours).
    public var maximumDuration: Duration
    /// The highest average frame rate a stream may claim, in frames per second (default 1,000).
    public var maximumFrameRate: Double
    /// The most streams (video, audio, subtitles, data) a container may hold (default 64).
    public var maximumStreams: Int
    /// The most packets read in a row without a decoded frame before decoding gives up (default 10,000):
    /// a stream of packets the decoder rejects or never completes a frame from ends there.
    public var maximumPacketsWithoutFrame: Int
    /// The most threads libavcodec may use for one video (frame and slice threads; default 4, and never
    /// more than the processor's active cores).
    public var maximumDecodingThreads: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumFileBytes: The largest video file read, in bytes.
    ///   - maximumPixels: The most pixels in one frame.
    ///   - maximumDimension: The largest width or height of a frame.
    ///   - maximumFrames: The most frames one pass decodes.
    ///   - maximumDuration: The longest video.
    ///   - maximumFrameRate: The highest average frame rate a stream may claim.
    ///   - maximumStreams: The most streams a container may hold.
    ///   - maximumPacketsWithoutFrame: The most packets read in a row without a decoded frame.
    ///   - maximumDecodingThreads: The most threads libavcodec may use for one video.
    public init(
        maximumFileBytes: Int = 1 << 34, maximumPixels: Int = 36_000_000, maximumDimension: Int = 16_384,
        maximumFrames: Int = 1 << 21, maximumDuration: Duration = .seconds(24 * 3600), maximumFrameRate: Double = 1000,
        maximumStreams: Int = 64, maximumPacketsWithoutFrame: Int = 10_000, maximumDecodingThreads: Int = 4
    ) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumPixels = maximumPixels
        self.maximumDimension = maximumDimension
        self.maximumFrames = maximumFrames
        self.maximumDuration = maximumDuration
        self.maximumFrameRate = maximumFrameRate
        self.maximumStreams = maximumStreams
        self.maximumPacketsWithoutFrame = maximumPacketsWithoutFrame
        self.maximumDecodingThreads = maximumDecodingThreads
    }

    /// Why a `width` × `height` frame is refused, or `nil` when it is within the limits.
    func frameSizeProblem(width: Int, height: Int) -> String? {
        guard width > 0, height > 0 else { return "a frame of \(width)×\(height) pixels has no pixels" }
        guard width <= maximumDimension, height <= maximumDimension else {
            return "a frame of \(width)×\(height) pixels is wider or taller than \(maximumDimension) (VideoLimits.maximumDimension)"
        }
        // Both are at most maximumDimension, so the product cannot overflow unless that limit is set absurdly.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            return "a frame of \(width)×\(height) pixels has more than \(maximumPixels) pixels (VideoLimits.maximumPixels)"
        }
        return nil
    }
}
