import ArgumentParser
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport
import TensorIOVideo

/// `tensorio landmarks BUNDLE PHOTO... [--max-results N] [--min-detection-score S] [--min-presence-score S]
/// [--json] [--draw DIR] [--jobs N]`, or `BUNDLE VIDEO... [--every N | --fps F] [--start S] [--end S]
/// [--json] [--draw FILE.mp4]`
struct LandmarksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Find hands, faces or bodies on photos and their landmarks with a landmarker bundle.",
        discussion: """
            BUNDLE is a landmark bundle: a model.json with a "landmarks" entry and the detector's bundle \
            inside (tensorio init DETECTOR LANDMARKS --landmarker hand|face|pose writes one from \
            MediaPipe's models). Prints one block per photo: each instance's score, handedness (hands), \
            box and landmark count, best first; coordinates are pixels of the photo as displayed (after \
            its EXIF orientation). With --json one line: {"images":[{"path":P,"width":W,"height":H,\
            "instances":[{"score":S,"handedness":{"label":L,"score":S},"box":{"x":X,"y":Y,"width":BW,\
            "height":BH},"landmarks":[{"x":X,"y":Y,"z":Z,"visibility":V,"presence":P}],\
            "world_landmarks":[{"x":X,"y":Y,"z":Z}]}]}]} — z on x's scale (pixels), world landmarks in \
            metres; handedness, visibility, presence and world_landmarks left out where the model has \
            none. --draw DIR writes each photo with the points and the bundle's connections drawn, as \
            DIR/NAME.jpg. Photos that cannot be read are reported at the end, one line each, and the exit \
            status is then 1.

            \(VideoOptionGroup.discussion(drawing: "--draw FILE.mp4"))
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @OptionGroup var photos: PhotoArguments

    @Option(name: .customLong("max-results"), help: "Keep at most N instances per photo, 1 to 64 (default: the bundle's; MediaPipe's: hands 2, faces 1, bodies 1).")
    var maxResults: Int?

    @Option(name: .customLong("min-detection-score"), help: "Keep instances the detector scores at least S, 0 to 1 (default: the bundle's, 0.5).")
    var minDetectionScore: Double?

    @Option(name: .customLong("min-presence-score"), help: "Keep instances the landmark model gives a presence of at least S, 0 to 1 (default: the bundle's, 0.5).")
    var minPresenceScore: Double?

    @Option(help: ArgumentHelp("Write each photo with its landmarks drawn as DIR/NAME.jpg (the folder is made if missing); for a video, the video drawn as FILE.mp4.", valueName: "DIR|FILE.mp4"))
    var draw: String?

    @OptionGroup var videoOptions: VideoOptionGroup

    @Flag(name: .customLong("no-smoothing"), help: "On a video, give the landmark model's points as they are, without the output smoothing the bundle declares (MediaPipe's smooth_landmarks=False).")
    var noSmoothing = false

    @OptionGroup var jobOptions: JobsOptionGroup

    mutating func validate() throws {
        if let maxResults, !(1...LandmarksDescription.maximumInstances).contains(maxResults) {
            throw ValidationError("--max-results must be from 1 to \(LandmarksDescription.maximumInstances)")
        }
        for (flag, score) in [("--min-detection-score", minDetectionScore), ("--min-presence-score", minPresenceScore)] {
            if let score, !(0...1).contains(score) { throw ValidationError("\(flag) must be a score from 0 to 1") }
        }
    }

    /// What one photo gave: its size as displayed, its instances, and its drawing (a JPEG) with --draw.
    struct PhotoResult: DrawnPhotoResult {
        var size: ImageSize
        var instances: [Landmarks]
        var drawing: Data? = nil
    }

    func run() async throws {
        let videos = try videoOptions.videos(among: photos.images, outputs: [("--draw", draw, true)])
        // A video's frames run one after the other, on one compiled copy with every core.
        let jobs = videos == nil ? jobOptions.count(for: photos.images.count) : 1
        if videos != nil { jobOptions.warnUnusedForVideos() } else if noSmoothing {
            warn("--no-smoothing has no effect on photos: only a video's tracked landmarks are smoothed")
        }
        let bundle = try self.model.openBundle()
        guard try bundle.landmarks != nil else {
            throw CLIError("\(self.model.bundle) has no \"landmarks\" entry: give a landmark bundle (tensorio init DETECTOR LANDMARKS --landmarker hand|face|pose writes one)")
        }
        let landmarker = try Landmarker(
            bundle: bundle,
            configuration: self.model.configuration(concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)),
            registry: .tool)
        if jobs > 1 {
            // Several photos at once: the two models load at once too (each job loads its own copies
            // later, beside the others' runs), so the first runs start sooner.
            try await RuntimeLog.capturing { try await landmarker.loadConcurrently() }
        } else {
            try RuntimeLog.capturing { try landmarker.load() }
        }
        let options = LandmarkerOptions(
            maximumInstances: maxResults, minimumDetectionScore: minDetectionScore, minimumPresenceScore: minPresenceScore)
        let connections = landmarker.description.connections
        if let videos {
            let tracking = try FrameTracking(landmarker: landmarker, options: options, smoothsLandmarks: !noSmoothing)
            return try await ClipTaskRunner(
                paths: videos, sampling: videoOptions.sampling, json: photos.json, drawing: draw,
                task: { frame, draws in
                    try Self.result(tracking.landmarks(on: frame), on: frame.image, connections: connections, draws: draws)
                },
                element: Self.json, block: Self.printBlock, startClip: tracking.reset
            ).run()
        }
        let drawing = try draw.map { try PhotoArguments.outputFolder($0, option: "--draw") }
        let keepsPhotos = drawing != nil
        let results = landmarker.landmarkModel.results(for: photos.images, concurrency: jobs) { path -> PhotoResult in
            let url = try InputFileURL.checked(path, .image)
            let photo = try PixelBuffer(contentsOf: url, limits: landmarker.configuration.limits)
            let instances = try landmarker.landmarks(in: photo, options: options)
            // Drawn here, on the photo's worker thread, so drawings overlap like the runs do.
            var (result, drawn) = try Self.result(instances, on: photo, connections: connections, draws: keepsPhotos)
            result.drawing = try drawn?.jpegData(quality: 90)
            return result
        }
        try await PhotoResultPrinter.print(
            results, paths: photos.images, json: photos.json, drawingInto: drawing, element: Self.json, block: Self.printBlock
        )
    }

    /// A photo's or a frame's result, and the image drawn (upright) when `draws`: one drawing for both.
    static func result(
        _ instances: [Landmarks], on image: PixelBuffer, connections: [[Int]], draws: Bool
    ) throws -> (value: PhotoResult, drawn: PixelBuffer?) {
        let (width, height) = image.uprightSize
        let drawn = draws ? try LandmarksDrawing.draw(instances, connections: connections, on: image) : nil
        return (PhotoResult(size: ImageSize(width: width, height: height), instances: instances), drawn)
    }

    static func json(path: String, _ photo: PhotoResult) -> JSONText.Value {
        .object([
            ("path", .string(path)), ("width", .integer(Int64(photo.size.width))), ("height", .integer(Int64(photo.size.height))),
            ("instances", .array(photo.instances.map(json))),
        ])
    }

    static func json(_ instance: Landmarks) -> JSONText.Value {
        var members: [(String, JSONText.Value)] = [("score", .double(instance.score))]
        if let handedness = instance.handedness {
            members.append(("handedness", .object([("label", .string(handedness.label)), ("score", .double(handedness.score))])))
        }
        members.append(("box", .object([
            ("x", .double(instance.box.x)), ("y", .double(instance.box.y)),
            ("width", .double(instance.box.width)), ("height", .double(instance.box.height)),
        ])))
        members.append(("landmarks", .array(instance.landmarks.map { point in
            var fields: [(String, JSONText.Value)] = [("x", .double(point.x)), ("y", .double(point.y)), ("z", .double(point.z))]
            if let visibility = point.visibility { fields.append(("visibility", .double(visibility))) }
            if let presence = point.presence { fields.append(("presence", .double(presence))) }
            return .object(fields)
        })))
        if let world = instance.worldLandmarks {
            members.append(("world_landmarks", .array(world.map { .object([("x", .double($0.x)), ("y", .double($0.y)), ("z", .double($0.z))]) })))
        }
        return .object(members)
    }

    static func printBlock(path: String, _ photo: PhotoResult, first: Bool) {
        if !first { print("") }
        print("\(path) (\(photo.size.width)×\(photo.size.height))")
        for (rank, instance) in photo.instances.enumerated() {
            let hand = instance.handedness.map { "\($0.label) \(String(format: "%.2f", $0.score))  " } ?? ""
            print("  \(rank + 1). \(hand)score \(String(format: "%.4f", instance.score))  \(instance.box)  \(instance.landmarks.count) landmarks")
        }
        if photo.instances.isEmpty { print("  (none found)") }
    }
}
