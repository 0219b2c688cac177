import ArgumentParser
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport

/// `tensorio detect MODEL IMAGE... [--max-results N] [--score-threshold T] [--json] [--draw DIR] [--jobs N]`
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

    @Option(help: ArgumentHelp("Write each photo with its detections drawn as DIR/NAME.jpg (the folder is made if missing).", valueName: "DIR"))
    var draw: String?

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
        var drawing: Data?
    }

    func run() async throws {
        let jobs = jobOptions.count(for: photos.images.count)
        let (bundle, model) = try self.model.makeModel(
            images: imageOptions, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)
        )
        guard try bundle.detection != nil else {
            throw CLIError("\(self.model.bundle) describes no detection outputs: give a bundle whose model.json has a \"detection\" entry (tensorio init writes it for SSD models with metadata; tensorio init MODEL --detector NAME for MediaPipe's detectors)")
        }
        try RuntimeLog.capturing { try model.load() }
        let drawing = try draw.map { try PhotoArguments.outputFolder($0, option: "--draw") }
        let options = DetectionOptions(
            maximumResults: maxResults, scoreThreshold: scoreThreshold, categoryAllowlist: Set(allowed),
            categoryDenylist: Set(denied), labelsLocale: locale
        )
        let keepsPhotos = drawing != nil
        let results = model.results(for: photos.images, concurrency: jobs) { path -> PhotoResult in
            let url = try InputFileURL.checked(path, .image)
            // Full size: boxes are in the pixels of the photo as displayed, not of a reduced decode.
            let photo = try PixelBuffer(contentsOf: url, limits: model.configuration.limits)
            let (width, height) = photo.uprightSize
            let detections = try model.detect(photo, options: options)
            // Drawn here, on the photo's worker thread, so drawings overlap like detections do.
            let drawing = keepsPhotos ? try DetectionDrawing.draw(detections, on: photo).jpegData(quality: 90) : nil
            return PhotoResult(size: ImageSize(width: width, height: height), detections: detections, drawing: drawing)
        }
        try await PhotoResultPrinter.print(
            results, paths: photos.images, json: photos.json, drawingInto: drawing, element: Self.json, block: Self.printBlock
        )
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
