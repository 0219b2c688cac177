import ArgumentParser
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport
import TensorIOVideo

/// `tensorio detect MODEL IMAGE... [--max-results N] [--score-threshold T] [--json] [--draw DIR] [--jobs N]`,
/// or `MODEL VIDEO... [--every N | --fps F] [--start S] [--end S] [--json] [--draw FILE.mp4]`
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find objects, faces, palms or people on photos with a detection model.",
        discussion: """
            MODEL is a bundle whose model.json has a "detection" entry (tensorio init writes it; \
            --detector NAME for MediaPipe's detectors), or a bare .tflite whose metadata describes its \
            boxes (the TFLite Task Library's SSD detectors). Prints one block per photo: each detection's \
            label (or class index), score and box as (x, y) width×height in pixels of the photo as \
            displayed (after its EXIF orientation), best first. With --json one line: \
            {"images":[{"path":P,"width":W,"height":H,"detections":[{"score":S,"index":I,"label":L,\
            "box":{"x":X,"y":Y,"width":BW,"height":BH},"keypoints":[{"x":KX,"y":KY}]}]}]} — "label" left \
            out when the model has none, "keypoints" when it has none. --draw DIR writes each photo, \
            upright, with its boxes, labels, scores and keypoints drawn, as DIR/NAME.jpg. Photos that \
            cannot be read are reported at the end, one line each, and the exit status is then 1.

            \(VideoOptionGroup.discussion(drawing: "--draw FILE.mp4"))
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @OptionGroup var photos: PhotoArguments

    @Option(name: .customLong("max-results"), help: "Keep at most N detections per photo (default: the bundle's max_results, else all).")
    var maxResults: Int?

    @Option(name: .customLong("score-threshold"), help: "Keep detections scoring at least T (default: the bundle's min_score).")
    var scoreThreshold: Float?

    @Option(name: .customLong("allow"), help: "Keep only detections with this label; repeatable.")
    var allowed: [String] = []

    @Option(name: .customLong("deny"), help: "Drop detections with this label; repeatable.")
    var denied: [String] = []

    @Option(help: "Labels in this locale where the model has them, such as fr (its display_names; default: its labels).")
    var locale: String?

    @Option(help: ArgumentHelp("Write each photo with its detections drawn as DIR/NAME.jpg (the folder is made if missing); for a video, the video drawn as FILE.mp4.", valueName: "DIR|FILE.mp4"))
    var draw: String?

    @OptionGroup var videoOptions: VideoOptionGroup

    @OptionGroup var jobOptions: JobsOptionGroup

    @OptionGroup var imageOptions: ImageOptionGroup

    mutating func validate() throws {
        if let maxResults, maxResults < 1 { throw ValidationError("--max-results must be at least 1") }
        if let scoreThreshold, !scoreThreshold.isFinite { throw ValidationError("--score-threshold must be a number") }
    }

    /// What one photo gave: its size as displayed, its detections, and its drawing (a JPEG) with --draw.
    struct PhotoResult: DrawnPhotoResult {
        var size: ImageSize
        var detections: [Detection]
        var drawing: Data? = nil
    }

    func run() async throws {
        let videos = try videoOptions.videos(among: photos.images, outputs: [("--draw", draw, true)])
        // A video's frames run one after the other, on one compiled copy with every core.
        let jobs = videos == nil ? jobOptions.count(for: photos.images.count) : 1
        if videos != nil { jobOptions.warnUnusedForVideos() }
        let (bundle, model) = try self.model.makeModel(
            images: imageOptions, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)
        )
        guard try bundle.detection != nil else {
            throw CLIError("\(self.model.bundle) describes no detection outputs: give a bundle whose model.json has a \"detection\" entry (tensorio init writes it for SSD models with metadata; tensorio init MODEL --detector NAME for MediaPipe's detectors)")
        }
        try RuntimeLog.capturing { try model.load() }
        let options = DetectionOptions(
            maximumResults: maxResults, scoreThreshold: scoreThreshold, categoryAllowlist: Set(allowed),
            categoryDenylist: Set(denied), labelsLocale: locale
        )
        if let videos {
            return try await ClipTaskRunner(
                paths: videos, sampling: videoOptions.sampling, json: photos.json, drawing: draw,
                task: { frame, draws in try Self.answer(frame.image, model: model, options: options, draws: draws) },
                element: Self.json, block: Self.printBlock
            ).run()
        }
        let drawing = try draw.map { try PhotoArguments.outputFolder($0, option: "--draw") }
        let keepsPhotos = drawing != nil
        let results = model.results(for: photos.images, concurrency: jobs) { path -> PhotoResult in
            let url = try InputFileURL.checked(path, .image)
            // Full size: boxes are in the pixels of the photo as displayed, not of a reduced decode.
            let photo = try PixelBuffer(contentsOf: url, limits: model.configuration.limits)
            // Drawn here, on the photo's worker thread, so drawings overlap like detections do.
            var (result, drawn) = try Self.answer(photo, model: model, options: options, draws: keepsPhotos)
            result.drawing = try drawn?.jpegData(quality: 90)
            return result
        }
        try await PhotoResultPrinter.print(
            results, paths: photos.images, json: photos.json, drawingInto: drawing, element: Self.json, block: Self.printBlock
        )
    }

    /// What a photo or a video's frame gives: its detections, and the image drawn (upright) when `draws`.
    static func answer(
        _ image: PixelBuffer, model: any Model, options: DetectionOptions, draws: Bool
    ) throws -> (value: PhotoResult, drawn: PixelBuffer?) {
        let (width, height) = image.uprightSize
        let detections = try model.detect(image, options: options)
        let drawn = draws ? try DetectionDrawing.draw(detections, on: image) : nil
        return (PhotoResult(size: ImageSize(width: width, height: height), detections: detections), drawn)
    }

    static func json(path: String, _ photo: PhotoResult) -> JSONText.Value {
        .object([
            ("path", .string(path)), ("width", .integer(Int64(photo.size.width))), ("height", .integer(Int64(photo.size.height))),
            ("detections", .array(photo.detections.map { detection in
                var members: [(String, JSONText.Value)] = [("score", .float(detection.score)), ("index", .integer(Int64(detection.classIndex)))]
                if let label = detection.label { members.append(("label", .string(label))) }
                members.append(("box", .object([
                    ("x", .double(detection.box.x)), ("y", .double(detection.box.y)),
                    ("width", .double(detection.box.width)), ("height", .double(detection.box.height)),
                ])))
                if !detection.keypoints.isEmpty {
                    members.append(("keypoints", .array(detection.keypoints.map { .object([("x", .double($0.x)), ("y", .double($0.y))]) })))
                }
                return .object(members)
            })),
        ])
    }

    static func printBlock(path: String, _ photo: PhotoResult, first: Bool) {
        if !first { print("") }
        print("\(path) (\(photo.size.width)×\(photo.size.height))")
        let names = photo.detections.map { $0.label ?? "#\($0.classIndex)" }
        let width = names.map(\.count).max() ?? 0
        for (rank, (detection, name)) in zip(photo.detections, names).enumerated() {
            let label = name.padding(toLength: width, withPad: " ", startingAt: 0)
            let keypoints = detection.keypoints.isEmpty ? "" : ", \(detection.keypoints.count) keypoints"
            print("  \(rank + 1). \(label)  \(String(format: "%.4f", detection.score))  \(detection.box)\(keypoints)")
        }
        if photo.detections.isEmpty { print("  (no detections)") }
    }
}
