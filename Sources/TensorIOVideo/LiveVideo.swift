public import Foundation
import TensorIO

/// A live video — a network stream libavformat opens (`rtsp://`, `http://`, `https://`, `udp://`, `tcp://`,
/// `rtp://`) or a stream on standard input — decoded as its frames arrive, as MediaPipe's LIVE_STREAM mode
/// takes them.
///
/// A file waits for its consumer; a live stream does not. When the consumer falls behind, the frames it had
/// no time for are dropped and the newest kept, so that a result is never more than one frame's work behind
/// the stream; each ``LiveVideoFrame`` says when it arrived and how many were dropped before it.
///
/// ```swift
/// let camera = try LiveVideo(url: URL(string: "rtsp://192.168.1.20:8554/stream")!)
/// for try await live in camera.frames() {
///     let people = try landmarker.landmarks(in: live.frame.image)
///     print(live.frame.timestampMilliseconds, people.count, live.latency, live.droppedBefore)
/// }
/// ```
///
/// What a stream sends is held to ``limits`` as a file's contents are (the frame size, the frame rate it
/// claims, frames, duration, streams), and to ``timeout``: a stream that sends nothing that long, while
/// connecting or between packets, ends the sequence with an error. Only MPEG-TS, RTSP and the file
/// containers (MP4, Matroska/WebM, AVI) are demuxed, and only the decoders a file may use run.
public struct LiveVideo: Sendable {
    enum Source: Sendable, Hashable {
        case url(String)
        case standardInput
        /// A descriptor the caller keeps open (tests feed a pipe).
        case descriptor(Int32)
    }

    /// The URL schemes a live stream may have.
    public static let schemes: Set<String> = ["http", "https", "rtsp", "udp", "tcp", "rtp"]

    let source: Source
    /// The limits the stream is held to.
    public let limits: VideoLimits
    /// How long the stream may send nothing, while connecting or between packets, before it is given up.
    public let timeout: Duration

    /// A stream at a URL.
    ///
    /// - Parameters:
    ///   - url: An `http`, `https`, `rtsp`, `udp`, `tcp` or `rtp` URL. Nothing is opened yet: the
    ///     connection is made by the first frame's `next()`, on the decoding thread.
    ///   - limits: The largest frame, frame rate, … accepted.
    ///   - timeout: How long the stream may send nothing (10 s unless said).
    /// - Throws: `TensorIOError` (`invalidInput`) for another scheme, or a timeout that is not positive.
    public init(url: URL, limits: VideoLimits = VideoLimits(), timeout: Duration = .seconds(10)) throws {
        let scheme = url.scheme?.lowercased() ?? ""
        guard Self.schemes.contains(scheme) else {
            throw TensorIOError(
                .invalidInput,
                "\(url.absoluteString) is not a live stream TensorIO opens (its scheme must be one of \(Self.schemes.sorted().joined(separator: ", ")))")
        }
        try self.init(source: .url(url.absoluteString), limits: limits, timeout: timeout)
    }

    /// The stream on the process's standard input (MPEG-TS, Matroska/WebM, or MP4 written with its index
    /// first), read as it comes; the sequence ends when standard input does.
    ///
    /// - Parameters:
    ///   - limits: The largest frame, frame rate, … accepted.
    ///   - timeout: How long standard input may send nothing (10 s unless said).
    /// - Returns: The stream.
    /// - Throws: `TensorIOError` (`invalidInput`) for a timeout that is not positive.
    public static func standardInput(limits: VideoLimits = VideoLimits(), timeout: Duration = .seconds(10)) throws -> LiveVideo {
        try LiveVideo(source: .standardInput, limits: limits, timeout: timeout)
    }

    init(source: Source, limits: VideoLimits, timeout: Duration) throws {
        guard timeout > .zero else { throw TensorIOError(.invalidInput, "a live stream's timeout must be positive (it is \(timeout))") }
        self.source = source
        self.limits = limits
        self.timeout = timeout
    }

    /// The stream's name in errors: its URL, or "standard input".
    public var name: String {
        switch source {
        case .url(let url): url
        case .standardInput: "standard input"
        case .descriptor(let descriptor): "descriptor \(descriptor)"
        }
    }

    /// The stream's frames as they arrive, decoded on a thread of TensorIO's own.
    ///
    /// The thread connects at the first `next()`, then decodes without waiting for the consumer: at most
    /// `maximumQueued` frames wait for it, the oldest dropped when another arrives. It stops when the stream
    /// ends, when the consumer stops iterating, or when the consuming task is cancelled (which also gives up
    /// a wait on the network at once).
    ///
    /// - Parameters:
    ///   - options: Which frames to give (``VideoSampling/every`` and
    ///     ``VideoSampling/maximumFramesPerSecond`` by the stream's timestamps; no seeking).
    ///   - maximumQueued: Frames kept for a consumer that has fallen behind (1: the newest only).
    /// - Returns: The frames, in the stream's order, some dropped when the consumer is slower than the stream.
    public func frames(options: VideoSampling = .all, maximumQueued: Int = 1) -> LiveVideoFrames {
        LiveVideoFrames(video: self, sampling: options, capacity: max(1, maximumQueued))
    }

    /// Opens the stream and its decoder; on the decoding thread, since connecting waits on the network.
    func open(sampling: VideoSampling, interrupt: LiveInterrupt) throws -> VideoDecoder {
        var sampling = sampling
        sampling.start = nil  // a live stream cannot seek; it starts where it is
        return try VideoDecoder(limits: limits, sampling: sampling, location: name, lowDelay: true) {
            switch source {
            case .url(let url):
                return try FFmpegInput(url: url, limits: limits, interrupt: interrupt)
            case .standardInput:
                return try FFmpegInput(VideoByteSource(streamDescriptor: 0) { interrupt.shouldStop }, limits: limits, interrupt: interrupt)
            case .descriptor(let descriptor):
                return try FFmpegInput(VideoByteSource(streamDescriptor: descriptor) { interrupt.shouldStop }, limits: limits, interrupt: interrupt)
            }
        }
    }
}
