import ArgumentParser
import Foundation
import TensorIOToolSupport
import TensorIOVideo

/// `[--every N | --fps F] [--start S] [--end S]`, for the vision commands given video files (classify,
/// detect, segment, embed, landmarks): which frames of each clip are answered. Declared, checked and turned
/// into `VideoSampling` here alone; also where a command tells its videos from its photos.
struct VideoOptionGroup: ParsableArguments {
    // Each option takes the next argument whatever it is (`.unconditional`), so that `--fps -1` is refused
    // for its value rather than taken for an unknown option `-1` and said to be missing.
    /// The file extensions taken for videos, lowercased: the containers TensorIOVideo reads.
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "mkv", "webm", "avi"]

    @Option(parsing: .unconditional, help: ArgumentHelp("Videos: answer the first frame and then every Nth.", valueName: "N"))
    var every: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Videos: answer at most F frames per second of video (not with --every).", valueName: "F"))
    var fps: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Videos: start at this time, in seconds.", valueName: "seconds"))
    var start: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Videos: stop at this time, in seconds (after --start).", valueName: "seconds"))
    var end: Double?

    func validate() throws {
        if every != nil, fps != nil { throw ValidationError("give --every or --fps, not both") }
        if let every, every < 1 { throw ValidationError("--every must be at least 1") }
        if let fps, !(fps > 0 && fps.isFinite) { throw ValidationError("--fps must be a number above 0") }
        // A day: what VideoLimits.maximumDuration reads, and far below where Duration's arithmetic overflows.
        for (flag, seconds) in [("--start", start), ("--end", end)] {
            if let seconds, !(seconds >= 0 && seconds <= 86_400) { throw ValidationError("\(flag) must be a number of seconds from 0 to 86400") }
        }
        if let end, end <= (start ?? 0) {
            throw ValidationError(start == nil ? "--end must be after the start of the video (above 0)" : "--end must come after --start")
        }
    }

    /// Whether any of the options was given.
    var isGiven: Bool { every != nil || fps != nil || start != nil || end != nil }

    /// The frames to answer.
    var sampling: VideoSampling {
        VideoSampling(
            every: every ?? 1, maximumFramesPerSecond: fps,
            start: start.map { .microseconds(Int64(($0 * 1e6).rounded())) }, end: end.map { .microseconds(Int64(($0 * 1e6).rounded())) }
        )
    }

    /// Whether `path` names a video: a file by its extension, or a live stream (``isLive(_:)``).
    static func isVideo(_ path: String) -> Bool {
        isLive(path) || videoExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Whether `path` names a live stream: `-` (standard input) or a URL whose scheme TensorIOVideo opens
    /// (`LiveVideo.schemes`: http, https, rtsp, udp, tcp, rtp).
    static func isLive(_ path: String) -> Bool {
        if path == "-" { return true }
        guard let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") else { return false }
        return LiveVideo.schemes.contains(path[..<colon].lowercased())
    }

    /// The videos among a command's inputs, checked against how it was called.
    ///
    /// Photos and videos are not mixed: a photo's answers print as one JSON document, a video's as one JSON
    /// line per frame, and `--draw` names a folder for photos but a file for a video.
    ///
    /// - Parameters:
    ///   - paths: The inputs as given.
    ///   - outputs: The options given that write files, with their values (`--draw`, `--overlay`, `--mask`),
    ///     and whether each has a meaning for a video (a file) or only for photos (a folder).
    /// - Returns: The videos, or `nil` when the inputs are photos.
    /// - Throws: ``CLIError`` (usage) for photos and videos mixed, these options with photos, an output
    ///   option with several videos or not naming an `.mp4` file, or one that is for photos only.
    func videos(among paths: [String], outputs: [(option: String, value: String?, forVideo: Bool)] = []) throws -> [String]? {
        let videos = paths.filter(Self.isVideo)
        guard !videos.isEmpty else {
            if isGiven {
                throw CLIError.usage("--every, --fps, --start and --end are for videos (\(Self.extensionList), or a live stream's URL); none of the inputs is one")
            }
            return nil
        }
        if let photo = paths.first(where: { !Self.isVideo($0) }) {
            throw CLIError.usage("give photos or videos, not both: \(videos[0]) is a video, \(photo) is not (videos are \(Self.extensionList) files)")
        }
        for output in outputs {
            guard let value = output.value else { continue }
            guard output.forVideo else { throw CLIError.usage("\(output.option) is for photos; it has no meaning for a video") }
            guard videos.count == 1 else {
                throw CLIError.usage("\(output.option) \(value) writes one video: give one video with it, not \(videos.count) (run the command once per video)")
            }
            let file = URL(fileURLWithPath: value)
            guard file.pathExtension.lowercased() == "mp4" else {
                throw CLIError.usage("\(output.option) for a video names the MP4 file to write, such as \(output.option) annotated.mp4 (got \(value))")
            }
            // Said before the model loads, rather than at the first frame drawn.
            var isFolder: ObjCBool = false
            let folder = file.deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw CLIError("\(output.option) \(value): the folder \(folder.relativePath) does not exist")
            }
        }
        return videos
    }

    /// The paragraph of a command's help on videos; `drawing` names its option that writes the drawn video.
    static func discussion(drawing: String?) -> String {
        let drawn = drawing.map { " \($0) writes the frames answered, drawn as for a photo, to an MP4 at the video's frame rate and upright size (one video at a time)." } ?? ""
        return """
            Videos (\(extensionList) files, not mixed with photos): each frame is answered in turn — every \
            frame, or the first and every Nth with --every N, at most F frames a second with --fps F, from \
            --start to --end seconds. Live streams (an http, https, rtsp, udp, tcp or rtp URL, or - for \
            standard input) are answered as their frames arrive: the frames that come while one is being \
            answered are dropped but the newest, and each line also says "latency_ms" (from the frame's \
            arrival to its answer) and "dropped" (the frames dropped just before it); Ctrl-C ends a stream \
            after its last answer, with exit status 0. Text: the photo's block for each frame, headed "VIDEO frame N at T s". \
            With --json one line per frame: the photo's object with "frame" (the frame's index in the \
            video) and "timestamp_ms" added.\(drawn) A progress bar shows on standard error when it is a \
            terminal. A video that cannot be read to its end is reported at the end, one line, after its \
            frames before the damage, and the exit status is then 1. Ctrl-C stops after the frame being \
            answered, with exit status 130.
            """
    }

    private static var extensionList: String {
        videoExtensions.sorted().map { "." + $0 }.joined(separator: " ")
    }
}
