import TensorIO

/// A video decoded frame by frame on the calling thread: ``nextFrame()`` until it returns `nil`.
///
/// Made by ``VideoReader/makeDecoder(options:)``; ``VideoReader/frames(options:)`` runs one on a thread
/// of its own. A decoder holds the file open and FFmpeg's decoder with its threads until it is released.
/// It is not `Sendable`: use it from one task or thread at a time.
///
/// ```swift
/// let decoder = try VideoReader(contentsOf: URL(fileURLWithPath: "clip.mp4")).makeDecoder()
/// while let frame = try decoder.nextFrame() {
///     print(frame.index, frame.timestampMilliseconds, frame.image.width, frame.image.height)
/// }
/// ```
public final class VideoDecoder {
    /// What the stream says of itself.
    public let info: VideoInfo
    private let input: FFmpegInput
    private let decoder: FFmpegDecoder
    private var sampler: FrameSampler
    private let limits: VideoLimits
    /// The file's path as the caller gave it, for errors.
    private let location: String?
    private var decodedCount = 0
    /// The index of the next decoded frame; `nil` after a seek, until a frame's timestamp places it.
    private var nextIndex: Int?
    private var lastTimestamp: Int64?
    private var finished = false

    convenience init(source: VideoByteSource, limits: VideoLimits, sampling: VideoSampling, location: String?) throws {
        try self.init(limits: limits, sampling: sampling, location: location, lowDelay: false) {
            try FFmpegInput(source, limits: limits)
        }
    }

    /// A decoder over the input `open` opens (a file's, or a live stream's with `lowDelay`).
    init(
        limits: VideoLimits, sampling: VideoSampling, location: String?, lowDelay: Bool, open: () throws -> FFmpegInput
    ) throws {
        self.limits = limits
        self.location = location
        do {
            if let problem = sampling.problem { throw TensorIOError(.invalidInput, problem) }
            input = try open()
            decoder = try FFmpegDecoder(input, limits: limits, lowDelay: lowDelay)
        } catch var error as TensorIOError {
            error.location = error.location ?? location
            throw error
        }
        info = input.info
        sampler = FrameSampler(sampling)
        nextIndex = 0
        // A start past the beginning: seek to the key frame before it, then decode and skip up to it. The
        // index is then worked out from the timestamps, which takes a frame rate; without one, or when the
        // container cannot seek, decoding starts at the beginning and skips.
        if let start = sampling.start, start > .zero, info.frameRate != nil,
           input.seek(toMicroseconds: FrameSampler.microseconds(start)) {
            decoder.flush()
            nextIndex = nil
        }
    }

    /// Decodes up to the next frame the sampling keeps and converts it to pixels.
    ///
    /// - Returns: The frame, or `nil` at the end of the stream (or of ``VideoSampling/end``); `nil` again
    ///   after the end or an error.
    /// - Throws: `TensorIOError`, naming the file: `invalidVideo` when no frame at all can be decoded or the
    ///   file is damaged or cut short (after the frames before the damage), `limitExceeded` past a limit,
    ///   `io` when the file cannot be read.
    public func nextFrame() throws -> VideoFrame? {
        guard !finished else { return nil }
        do {
            while true {
                guard let decoded = try decoder.decodeNext() else {
                    finished = true
                    if decodedCount == 0 {
                        throw TensorIOError.invalidVideo(
                            "no frame could be decoded" + (decoder.lastDecodeError.map { ": \(FFmpegError.text($0))" } ?? "")
                        )
                    }
                    return nil
                }
                decodedCount += 1
                guard decodedCount <= limits.maximumFrames else {
                    throw TensorIOError.videoLimit("the video holds more than \(limits.maximumFrames) frames (VideoLimits.maximumFrames)")
                }
                let timestamp = decoded.timestampMicroseconds ?? estimatedTimestamp()
                lastTimestamp = timestamp
                let index = nextIndex ?? estimatedIndex(at: timestamp)
                nextIndex = index + 1
                let (elapsed, overflow) = timestamp.subtractingReportingOverflow(input.startMicroseconds)
                if overflow || elapsed > FrameSampler.microseconds(limits.maximumDuration) {
                    throw TensorIOError.videoLimit(
                        "frame \(index) is shown later than \(limits.maximumDuration) into the video (VideoLimits.maximumDuration)"
                    )
                }
                switch sampler.decide(timestamp: timestamp) {
                case .stop:
                    finished = true
                    return nil
                case .skip:
                    continue
                case .keep:
                    let image = try decoder.pixels(orientation: info.orientation)
                    return VideoFrame(image: image, index: index, timestampMicroseconds: timestamp)
                }
            }
        } catch var error as TensorIOError {
            finished = true
            error.location = error.location ?? location
            throw error
        }
    }

    /// A timestamp for a frame the stream gives none: one frame after the last, or 0.
    private func estimatedTimestamp() -> Int64 {
        guard let lastTimestamp else { return input.startMicroseconds }
        let step = info.frameRate.map { FrameSampler.clamped((1_000_000 / $0).rounded()) } ?? 0
        return lastTimestamp.addingReportingOverflow(step).overflow ? lastTimestamp : lastTimestamp + step
    }

    /// The index of the frame shown at `timestamp`, from the frame rate (after a seek).
    private func estimatedIndex(at timestamp: Int64) -> Int {
        guard let rate = info.frameRate else { return 0 }
        // In doubles: a file's timestamps may be anything, and Int64 arithmetic would trap.
        let seconds = (Double(timestamp) - Double(input.startMicroseconds)) / 1_000_000
        let index = (seconds * rate).rounded()
        return index.isFinite && index >= 0 && index < Double(Int.max / 2) ? Int(index) : 0
    }
}

@available(*, unavailable)
extension VideoDecoder: Sendable {}
