public import TensorIO

/// What a video's stream says of itself, checked against ``VideoLimits`` when the file was opened.
public struct VideoInfo: Sendable, Hashable {
    /// Width of the stored frames, in pixels (before ``orientation``).
    public let width: Int
    /// Height of the stored frames, in pixels (before ``orientation``).
    public let height: Int
    /// How the stored frames must be turned to be shown as the video is displayed, from the stream's
    /// display matrix (a phone's portrait video is stored sideways with a 90° turn); each frame's
    /// `PixelBuffer` carries it, so `orientedUpright()` gives the frame as a player shows it.
    public let orientation: ImageOrientation
    /// The average frame rate, in frames per second, when the container says.
    public let frameRate: Double?
    /// The same rate as the fraction the container states (30000/1001 rather than 29.97...), for writing a
    /// video at exactly the source's rate (``VideoWriter``).
    public let exactFrameRate: VideoFrameRate?
    /// How long the video stream lasts, when the container says.
    public let duration: Duration?
    /// How many frames the container says the stream holds (a claim, not a count: decoding gives what
    /// the stream actually holds).
    public let frameCount: Int?
    /// The codec, by FFmpeg's name: `h264`, `hevc`, `mpeg4`, `vp8`, `vp9`, `av1`, `mjpeg`, …
    public let codec: String
    /// The container, by the first of FFmpeg's names for its demuxer: `mov` (MP4 and MOV), `matroska`
    /// (Matroska and WebM) or `avi`.
    public let container: String

    /// Width and height of the frames as displayed, once ``orientation`` is applied.
    public var uprightSize: (width: Int, height: Int) {
        orientation.swapsDimensions ? (height, width) : (width, height)
    }

    /// The clockwise turn, in degrees (0, 90, 180 or 270), that shows the stored frames as displayed; a
    /// mirrored ``orientation`` (rare in video) also mirrors them left to right afterwards.
    public var rotation: Int { DisplayMatrix.clockwiseDegrees(orientation) }

    /// A placeholder before a stream is described.
    static let empty = VideoInfo(
        width: 0, height: 0, orientation: .up, frameRate: nil, exactFrameRate: nil, duration: nil, frameCount: nil, codec: "", container: ""
    )
}
