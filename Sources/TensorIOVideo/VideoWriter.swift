public import Foundation
public import TensorIO

/// Writes frames into an MP4 file: H.264 (libx264) when FFmpeg has it, else MPEG-4 part 2.
///
/// Made with the frames' size and rate — a video's own, to write it back annotated — then given each
/// frame as a `PixelBuffer` (``write(_:position:)``) and finished (``finish()``), which drains the encoder
/// and writes the container's index: a file not finished does not play.
///
/// ```swift
/// let video = try VideoReader(contentsOf: URL(fileURLWithPath: "clip.mp4"))
/// let (width, height) = video.info.uprightSize
/// let writer = try VideoWriter(
///     url: URL(fileURLWithPath: "copy.mp4"), width: width, height: height,
///     frameRate: video.info.exactFrameRate ?? VideoFrameRate(30)!
/// )
/// for try await frame in video.frames() {
///     try writer.write(frame.image.orientedUpright(), position: frame.index)
/// }
/// try writer.finish()
/// ```
///
/// The frames are converted to YUV 4:2:0 with BT.601's matrix in limited range, which takes an even width
/// and height: an odd width loses its last column and an odd height its last row (``encodedWidth``,
/// ``encodedHeight``). The file is written in place (replaced if it is there). A writer is not
/// `Sendable`: use it from one task or thread at a time. Released before ``finish()``, it finishes the
/// file itself, ignoring errors.
public final class VideoWriter {
    /// The file written.
    public let url: URL
    /// The width of the frames ``write(_:position:)`` takes, as displayed.
    public let width: Int
    /// The height of the frames ``write(_:position:)`` takes, as displayed.
    public let height: Int
    /// The width written: ``width``, less one when it is odd.
    public let encodedWidth: Int
    /// The height written: ``height``, less one when it is odd.
    public let encodedHeight: Int
    /// The frame rate the video is written at; a frame at ``write(_:position:)``'s position N is shown at
    /// N / rate seconds.
    public let frameRate: VideoFrameRate
    /// The codec written, by FFmpeg's name: `h264` or `mpeg4`.
    public var codec: String { encoder.codecName }
    /// How many frames have been written.
    public private(set) var frameCount = 0

    private let encoder: FFmpegEncoder
    private let limits: VideoLimits
    /// The position the next frame takes when none is given; a given one must be at least this.
    private var nextPosition = 0

    /// Creates the file and prepares the encoder.
    ///
    /// - Parameters:
    ///   - url: The MP4 file to write; its folder must exist. Replaced if it is there.
    ///   - width: The frames' width as displayed; at least 2.
    ///   - height: The frames' height as displayed; at least 2.
    ///   - frameRate: The rate the frames are shown at (a source video's ``VideoInfo/exactFrameRate``).
    ///   - limits: The largest frame and frame rate accepted (those a ``VideoReader`` reads back).
    /// - Throws: `TensorIOError`, naming the file: `invalidInput` for a size below 2×2 or a frame rate past
    ///   ``VideoLimits/maximumFrameRate``, `limitExceeded` for a frame past the size limits, `io` when the
    ///   folder is missing or the file cannot be made, `invalidVideo` when FFmpeg cannot set up the encoder.
    public convenience init(url: URL, width: Int, height: Int, frameRate: VideoFrameRate, limits: VideoLimits = VideoLimits()) throws {
        try self.init(url: url, width: width, height: height, frameRate: frameRate, limits: limits, encoders: FFmpegEncoder.encoders)
    }

    /// ``init(url:width:height:frameRate:limits:)`` with the encoders to try, by FFmpeg's names, in order
    /// (the tests' way to the MPEG-4 encoder on a build that has libx264).
    init(url: URL, width: Int, height: Int, frameRate: VideoFrameRate, limits: VideoLimits, encoders: [String]) throws {
        self.url = url
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.limits = limits
        encodedWidth = width & ~1
        encodedHeight = height & ~1
        let location = url.relativePath
        do {
            guard width >= 2, height >= 2 else {
                throw TensorIOError(.invalidInput, "a video's frames must be at least 2×2 pixels, not \(width)×\(height)")
            }
            if let problem = limits.frameSizeProblem(width: width, height: height) {
                throw TensorIOError.videoLimit("cannot write \(problem)")
            }
            guard frameRate.framesPerSecond <= limits.maximumFrameRate else {
                throw TensorIOError(.invalidInput, "a frame rate of \(frameRate) is more than \(limits.maximumFrameRate) frames per second (VideoLimits.maximumFrameRate)")
            }
            var isFolder: ObjCBool = false
            let folder = url.deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw TensorIOError(.io, "cannot write the video: the folder \(folder.relativePath) does not exist")
            }
            encoder = try FFmpegEncoder(
                path: url.path, width: encodedWidth, height: encodedHeight,
                rate: frameRate, encoders: encoders,
                threads: min(limits.maximumDecodingThreads, ProcessInfo.processInfo.activeProcessorCount)
            )
        } catch var error as TensorIOError {
            error.location = error.location ?? location
            throw error
        }
    }

    /// Encodes a frame.
    ///
    /// - Parameters:
    ///   - image: The frame; it is written as displayed (`orientedUpright()`), and must then be
    ///     ``width`` × ``height``. Any pixel format; alpha is ignored.
    ///   - position: Where the frame stands, in frames at ``frameRate``: it is shown at position / rate
    ///     seconds, and held until the next frame's. More than the last frame's; `nil` for the one right
    ///     after it (the first frame: 0). A source frame's ``VideoFrame/index`` keeps the source's timing
    ///     when only some of its frames are written.
    /// - Throws: `TensorIOError`, naming the file: `invalidInput` for a frame of another size or a position
    ///   not after the last, `limitExceeded` for a position past ``VideoLimits/maximumDuration`` or more
    ///   frames than ``VideoLimits/maximumFrames``, `invalidVideo` when the encoder fails or the writer is
    ///   finished, `io` when the file cannot be written.
    public func write(_ image: PixelBuffer, position: Int? = nil) throws {
        do {
            let upright = image.orientedUpright()
            guard upright.width == width, upright.height == height else {
                throw TensorIOError(.invalidInput, "a \(upright.width)×\(upright.height) frame given to a video of \(width)×\(height)")
            }
            let position = position ?? nextPosition
            guard position >= nextPosition else {
                throw TensorIOError(.invalidInput, frameCount == 0
                    ? "frame position \(position) is negative"
                    : "frame position \(position) is not after the last one written (\(nextPosition - 1))")
            }
            // In doubles: a position from a file may be anything, and Int arithmetic would trap.
            let seconds = Double(position) * Double(frameRate.denominator) / Double(frameRate.numerator)
            guard seconds <= Double(limits.maximumDuration.components.seconds) else {
                throw TensorIOError.videoLimit("frame position \(position) is later than \(limits.maximumDuration) into the video (VideoLimits.maximumDuration)")
            }
            guard frameCount < limits.maximumFrames else {
                throw TensorIOError.videoLimit("the video would hold more than \(limits.maximumFrames) frames (VideoLimits.maximumFrames)")
            }
            let bgra = upright.format == .bgra ? upright : upright.converted(to: .bgra)
            try encoder.encode(bgra: bgra.bytes, rowBytes: bgra.bytesPerRow, position: Int64(position))
            frameCount += 1
            nextPosition = position + 1
        } catch var error as TensorIOError {
            error.location = error.location ?? url.relativePath
            throw error
        }
    }

    /// Drains the encoder, writes the container's index and closes the file. Once: later calls do nothing.
    ///
    /// - Throws: `TensorIOError`, naming the file: `invalidVideo` when the encoder fails, `io` when the file
    ///   cannot be written.
    public func finish() throws {
        do {
            try encoder.finish()
        } catch var error as TensorIOError {
            error.location = error.location ?? url.relativePath
            throw error
        }
    }
}

@available(*, unavailable)
extension VideoWriter: Sendable {}
