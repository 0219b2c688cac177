import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport
import TensorIOVideo

/// How the vision commands answer video files: each clip's frames that the sampling keeps are decoded
/// ahead (TensorIOVideo's `results`), run through the command's task one after the other, and printed as
/// soon as each is answered — one JSON line per frame (the command's photo object with `"frame"` and
/// `"timestamp_ms"` added), or the command's photo block headed with the frame and its time — with a
/// progress bar on standard error when it is a terminal.
///
/// With a drawing file (`detect --draw`, `landmarks --draw`, `segment --overlay`), each answered frame as the
/// task drew it is written to an MP4 at the source's frame rate and upright size, at its own position in the
/// source (so sampled frames keep their timing). A clip that fails (cannot be opened, cut short) is one line
/// at the end after the others, with exit status 1; its frames before the damage have been printed, and its
/// drawing file holds them and plays. Ctrl-C stops after the frame being answered: its line is printed, the
/// drawing file finished, and the command exits with status 130.
///
/// A live stream (`-` or a URL, ``VideoOptionGroup/isLive(_:)``) is answered as its frames arrive: while
/// one frame is answered the others that come are dropped but the newest (TensorIOVideo's `LiveVideo`), and
/// each line also carries `"latency_ms"` (from the frame's arrival to its answer) and `"dropped"`. Ctrl-C
/// is how a stream ends: after the last answer, a summary on standard error, exit status 0.
struct ClipTaskRunner<Value: Sendable>: Sendable {
    /// What the task made of one frame, and the frame as drawn when asked (upright).
    typealias Answer = (value: Value, drawn: PixelBuffer?)

    /// The videos as given.
    var paths: [String]
    /// Which frames to answer.
    var sampling: VideoSampling
    /// Whether to print JSON lines rather than text blocks.
    var json: Bool
    /// The MP4 file the drawn frames go to; `nil` to draw nothing.
    var drawing: String?
    /// Runs the command's task on one frame; `draws` asks for the frame drawn too.
    var task: @Sendable (_ frame: VideoFrame, _ draws: Bool) throws -> Answer
    /// The command's JSON object for a photo's result (`path` is the video's).
    var element: @Sendable (_ path: String, Value) -> JSONText.Value
    /// Prints the command's text block for a photo's result under `heading` (`first` for the first block).
    var block: @Sendable (_ heading: String, Value, _ first: Bool) -> Void
    /// Called before each clip's first frame: a task that follows instances from frame to frame starts afresh.
    var startClip: (@Sendable () -> Void)? = nil

    /// Answers every clip, stopping cleanly on Ctrl-C.
    ///
    /// - Throws: ``InputFailures`` when a clip failed; `ExitCode(130)` after Ctrl-C.
    func run() async throws {
        if paths.contains(where: VideoOptionGroup.isLive), sampling.start != nil || sampling.end != nil {
            throw CLIError.usage("--start and --end are for video files: a live stream starts where it is and ends with Ctrl-C")
        }
        let interruption = Interruption()
        defer { interruption.remove() }
        let outcome = try await interruption.run { try await self.answerAll() }
        // Ctrl-C is how a live stream ends: cleanly, once its last answer is printed.
        if case .interrupted = outcome, !paths.allSatisfy(VideoOptionGroup.isLive) { throw ExitCode(130) }
    }

    private func answerAll() async throws {
        var failures = InputFailures()
        var blocks = 0
        for path in paths {
            do {
                try await answer(path, blocks: &blocks)
            } catch let error as CancellationError {
                throw error
            } catch {
                failures.record(error, path: path)
            }
        }
        if !failures.isEmpty { throw failures }
    }

    /// Answers one clip's frames; `blocks` counts the text blocks printed so far.
    private func answer(_ path: String, blocks: inout Int) async throws {
        startClip?()
        if VideoOptionGroup.isLive(path) { return try await answerLive(path, blocks: &blocks) }
        let reader = try VideoReader(contentsOf: try InputFileURL.checked(path, .video))
        var progress = ProgressBar(total: Self.millisecondsToAnswer(reader.info, sampling), label: path, format: Self.seconds)
        let firstMilliseconds = sampling.start.map(Self.milliseconds) ?? 0
        let task = self.task
        let video = drawing.map(DrawnVideo.init)
        let draws = video != nil
        // A closed output pipe ends the tool inside a print: the video is finished then, so that it plays.
        let cleanup = video.map { video in ExitCleanup.shared.add { try? video.writer?.finish() } }
        defer { cleanup.map(ExitCleanup.shared.remove) }
        do {
            for try await answered in reader.results(options: sampling, { frame in try task(frame, draws) }) {
                let frame = answered.frame
                if let drawn = answered.result.drawn {
                    try video?.write(drawn, frameIndex: frame.index, frameRate: reader.info.exactFrameRate)
                }
                progress.clear()
                if json {
                    print(JSONText.render(Self.line(element(path, answered.result.value), frame: frame)))
                } else {
                    block(Self.heading(path, frame), answered.result.value, blocks == 0)
                    blocks += 1
                }
                // Clamped: a stream's timestamps may start late or run past its stated duration.
                progress.update(min(max(0, Int(clamping: frame.timestampMilliseconds) - firstMilliseconds), progress.total))
            }
            progress.finish()
            try video?.writer?.finish()
        } catch {
            progress.finish()
            // The frames drawn so far make a video that plays.
            try? video?.writer?.finish()
            if error is CancellationError, let video, video.writer != nil {
                ToolStandardError.write("cancelled: \(video.path) holds the frames drawn before the interruption\n")
            }
            throw error
        }
    }

    /// Answers a live stream's frames as they arrive, the newest when the task falls behind.
    private func answerLive(_ path: String, blocks: inout Int) async throws {
        let video: LiveVideo
        do {
            video = path == "-" ? try LiveVideo.standardInput() : try LiveVideo(url: URL(string: path) ?? URL(fileURLWithPath: path))
        } catch var error as TensorIOError {
            error.location = path
            throw error
        }
        let drawn = drawing.map(DrawnVideo.init)
        let cleanup = drawn.map { drawn in ExitCleanup.shared.add { try? drawn.writer?.finish() } }
        defer { cleanup.map(ExitCleanup.shared.remove) }
        var (answered, dropped) = (0, 0)
        do {
            for try await live in video.frames(options: sampling) {
                let frame = live.frame
                let answer = try task(frame, drawn != nil)
                // The latency is the answer's: from the frame's arrival until now, when it is printed.
                let latency = live.latency
                dropped += live.droppedBefore
                answered += 1
                if let image = answer.drawn {
                    // At the frame's own position: dropped frames leave the drawn one on screen longer.
                    try drawn?.write(image, frameIndex: frame.index, frameRate: live.info.exactFrameRate)
                }
                let milliseconds = Double(latency.components.seconds) * 1000 + Double(latency.components.attoseconds) / 1e15
                if json {
                    let added: [(String, JSONText.Value)] = [
                        ("latency_ms", .double((milliseconds * 10).rounded() / 10)), ("dropped", .integer(Int64(live.droppedBefore))),
                    ]
                    print(JSONText.render(Self.line(element(path, answer.value), frame: frame, adding: added)))
                } else {
                    let note = String(format: " (latency %.1f ms, %d dropped before)", milliseconds, live.droppedBefore)
                    block(Self.heading(path, frame) + note, answer.value, blocks == 0)
                    blocks += 1
                }
            }
            try drawn?.writer?.finish()
        } catch {
            try? drawn?.writer?.finish()
            if error is CancellationError {
                ToolStandardError.write("stopped: \(path): \(answered) frames answered, \(dropped) dropped\n")
            }
            throw error
        }
    }

    /// A frame's JSON line: the photo's object with the frame's index and time added.
    static func line(_ object: JSONText.Value, frame: VideoFrame, adding more: [(String, JSONText.Value)] = []) -> JSONText.Value {
        let added: [(String, JSONText.Value)] = [("frame", .integer(Int64(frame.index))), ("timestamp_ms", .integer(frame.timestampMilliseconds))] + more
        guard case .object(let members) = object else { return .object([("result", object)] + added) }
        return .object(members + added)
    }

    /// A frame's heading in text: `clip.mp4 frame 12 at 0.800 s`.
    static func heading(_ path: String, _ frame: VideoFrame) -> String {
        "\(path) frame \(frame.index) at \(String(format: "%.3f", Double(frame.timestampMicroseconds) / 1e6)) s"
    }

    /// How long the part of the video to answer lasts, in milliseconds (0 when the container does not say:
    /// no bar then).
    static func millisecondsToAnswer(_ info: VideoInfo, _ sampling: VideoSampling) -> Int {
        guard let duration = info.duration else { return 0 }
        let end = sampling.end.map { min($0, duration) } ?? duration
        let length = end - (sampling.start ?? .zero)
        return length > .zero ? milliseconds(length) : 0
    }

    /// A duration in whole milliseconds (those of a video, a day at most: no overflow).
    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Milliseconds as seconds with one decimal, for the bar.
    static func seconds(_ milliseconds: Int) -> String {
        String(format: "%.1f s", Double(milliseconds) / 1000)
    }
}

/// The drawn video of one clip: its writer made at the first frame drawn (at that frame's size), each frame
/// written at its position counted from that first one (so sampled or dropped frames keep their timing). A
/// class, so that ``ExitCleanup``'s action sees the writer made after it was added.
private final class DrawnVideo {
    /// The MP4 file.
    let path: String
    private(set) var writer: VideoWriter?
    private var firstIndex = 0

    init(_ path: String) {
        self.path = path
    }

    /// Writes `image`, the drawn frame `frameIndex` of the source, whose frame rate is `frameRate` (30 a
    /// second when the container does not say).
    func write(_ image: PixelBuffer, frameIndex: Int, frameRate: VideoFrameRate?) throws {
        if writer == nil {
            firstIndex = frameIndex
            writer = try VideoWriter(
                url: URL(fileURLWithPath: path), width: image.width, height: image.height, frameRate: frameRate ?? VideoFrameRate(30)!)
        }
        try writer?.write(image, position: frameIndex - firstIndex)
    }
}
