public import Foundation
import TensorIO

/// A video file, opened and checked, ready to be decoded into frames.
///
/// Opening reads the container's header with libavformat (MP4, MOV, Matroska, WebM or AVI), chooses its
/// video stream, and checks what it claims against ``VideoLimits``; ``info`` says what it found. Each call
/// to ``frames(options:)`` or ``makeDecoder(options:)`` then reads the file again from its start, with a
/// decoder of its own, so a reader can be shared between tasks and used for several passes.
///
/// ```swift
/// let video = try VideoReader(contentsOf: URL(fileURLWithPath: "clip.mp4"))
/// print(video.info.uprightSize, video.info.frameRate ?? 0, video.info.codec)
/// for try await frame in video.frames(options: VideoSampling(maximumFramesPerSecond: 2)) {
///     let upright = frame.image.orientedUpright()  // as a player shows it
///     print(frame.timestampMilliseconds, upright.width, upright.height)
/// }
/// ```
///
/// The file is read through TensorIO's own read and seek functions, never by FFmpeg's file protocol, and
/// nothing else is opened: a reference to another file or URL inside the container is not followed.
public struct VideoReader: Sendable {
    private enum Source: Sendable {
        case file(URL)
        case data(Data)
    }

    private let source: Source
    /// The limits every pass over the video is held to.
    public let limits: VideoLimits
    /// What the video stream says of itself.
    public let info: VideoInfo

    /// Opens a video file.
    ///
    /// - Parameters:
    ///   - url: The video file; read piece by piece as the decoder asks, never whole.
    ///   - limits: The largest file, frame, duration, … accepted.
    /// - Throws: `TensorIOError`, naming the file: `io` when it cannot be read or is not a regular file,
    ///   `invalidVideo` when it is not a container or codec TensorIO reads or holds no video stream,
    ///   `limitExceeded` when it is past a limit.
    public init(contentsOf url: URL, limits: VideoLimits = VideoLimits()) throws {
        source = .file(url)
        self.limits = limits
        info = try Self.open(.file(url), limits: Self.opening(limits), sampling: .all).info
    }

    /// Opens a video held in memory; see ``init(contentsOf:limits:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - limits: The largest file, frame, duration, … accepted.
    /// - Throws: `TensorIOError`: `invalidVideo` when it is not a container or codec TensorIO reads or holds
    ///   no video stream, `limitExceeded` when it is past a limit.
    public init(data: Data, limits: VideoLimits = VideoLimits()) throws {
        guard data.count <= limits.maximumFileBytes else {
            throw TensorIOError(.limitExceeded, "the video is \(data.count) bytes, more than the limit of \(limits.maximumFileBytes) (VideoLimits.maximumFileBytes)")
        }
        source = .data(data)
        self.limits = limits
        info = try Self.open(.data(data), limits: Self.opening(limits), sampling: .all).info
    }

    /// A decoder over the video's frames, for the calling thread.
    ///
    /// - Parameter options: Which frames to give.
    /// - Returns: A decoder positioned before the first frame `options` keeps.
    /// - Throws: `TensorIOError`: `invalidInput` when `options` cannot be used; as
    ///   ``init(contentsOf:limits:)`` when the file cannot be opened again.
    public func makeDecoder(options: VideoSampling = .all) throws -> VideoDecoder {
        try Self.open(source, limits: limits, sampling: options)
    }

    /// The video's frames, decoded on a thread of TensorIO's own ahead of the consumer.
    ///
    /// The thread starts at the first `next()` and decodes at most 4 frames ahead: a slow consumer holds it
    /// back rather than letting frames pile up. It stops, and FFmpeg's decoder with its threads is freed,
    /// when the video ends, when the consumer stops iterating (a `break` out of `for try await`), or when
    /// the consuming task is cancelled (the sequence then throws `CancellationError`).
    ///
    /// - Parameter options: Which frames to give.
    /// - Returns: The frames, in presentation order.
    public func frames(options: VideoSampling = .all) -> VideoFrames {
        VideoFrames(open: { [source, limits] in try Self.open(source, limits: limits, sampling: options) })
    }

    /// The limits for opening: the decoder is opened too, so that a stream libavcodec cannot decode is
    /// refused at once, but on one thread (it decodes nothing, and frame threads would start for nothing).
    private static func opening(_ limits: VideoLimits) -> VideoLimits {
        var opening = limits
        opening.maximumDecodingThreads = 1
        return opening
    }

    private static func open(_ source: Source, limits: VideoLimits, sampling: VideoSampling) throws -> VideoDecoder {
        switch source {
        case .data(let data):
            return try VideoDecoder(source: VideoByteSource(data: data), limits: limits, sampling: sampling, location: nil)
        case .file(let url):
            let bytes: VideoByteSource
            do { bytes = try VideoByteSource(contentsOf: url, limit: limits.maximumFileBytes) } catch var error as TensorIOError {
                error.location = url.relativePath  // the path as the caller gave it
                throw error
            }
            return try VideoDecoder(source: bytes, limits: limits, sampling: sampling, location: url.relativePath)
        }
    }
}
