import ArgumentParser
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport
import TensorIOVideo

/// `tensorio segment MODEL IMAGE... [--json] [--mask DIR] [--overlay DIR] [--jobs N]`, or `MODEL VIDEO...
/// [--every N | --fps F] [--start S] [--end S] [--json] [--overlay FILE.mp4]`
struct SegmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment",
        abstract: "Label every pixel of photos with a segmentation model.",
        discussion: """
            MODEL is a bundle whose model.json has a "segmentation" entry (tensorio init writes it), or a \
            bare .tflite whose metadata marks its output as a mask (DeepLab v3, MediaPipe's selfie \
            segmenters). Prints one block per photo: its size as displayed (after its EXIF orientation) and \
            each category present with the share of the photo's pixels it covers, largest first. With \
            --json one line: {"images":[{"path":P,"width":W,"height":H,"categories":[{"index":I,\
            "label":L,"fraction":F}]}]} — "label" left out when the model has none. --mask DIR writes \
            DIR/NAME.png, an 8-bit gray PNG at the photo's displayed size whose pixel values are the \
            category indices (a one-category model: 1 foreground, 0 background). --overlay DIR writes \
            DIR/NAME.jpg, the photo upright with its categories tinted over it and a legend. Photos that cannot be \
            read are reported at the end, one line each, and the exit status is then 1.

            \(VideoOptionGroup.discussion(drawing: "--overlay FILE.mp4")) --mask is for photos.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @OptionGroup var photos: PhotoArguments

    @Option(help: ArgumentHelp("Write each photo's category mask as DIR/NAME.png (the folder is made if missing).", valueName: "DIR"))
    var mask: String?

    @Option(help: ArgumentHelp("Write each photo with its categories tinted over it and a legend as DIR/NAME.jpg; for a video, the video tinted as FILE.mp4.", valueName: "DIR|FILE.mp4"))
    var overlay: String?

    @OptionGroup var videoOptions: VideoOptionGroup

    @OptionGroup var jobOptions: JobsOptionGroup

    @OptionGroup var imageOptions: ImageOptionGroup

    /// What one photo gave: its size, each category's share, and the mask as PNG with --mask.
    struct PhotoResult: Sendable {
        var size: ImageSize
        var labels: [String?]
        var fractions: [Double]
        var png: Data? = nil
        var overlay: Data? = nil
    }

    func run() async throws {
        let videos = try videoOptions.videos(among: photos.images, outputs: [("--mask", mask, false), ("--overlay", overlay, true)])
        // A video's frames run one after the other, on one compiled copy with every core.
        let jobs = videos == nil ? jobOptions.count(for: photos.images.count) : 1
        if videos != nil { jobOptions.warnUnusedForVideos() }
        let (bundle, model) = try self.model.makeModel(
            images: imageOptions, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)
        )
        guard try bundle.segmentation != nil else {
            throw CLIError("\(self.model.bundle) describes no segmentation output: give a bundle whose model.json has a \"segmentation\" entry (tensorio init writes it for segmenters whose metadata marks the mask)")
        }
        try RuntimeLog.capturing { try model.load() }
        if let videos {
            return try await ClipTaskRunner(
                paths: videos, sampling: videoOptions.sampling, json: photos.json, drawing: overlay,
                task: { frame, draws in
                    let mask = try model.segment(frame.image)
                    let result = Self.result(mask)
                    return (result, draws ? try SegmentationOverlay.draw(mask, categories: Self.present(result), on: frame.image) : nil)
                },
                element: Self.json, block: Self.printBlock
            ).run()
        }
        let folder = try mask.map { try PhotoArguments.outputFolder($0, option: "--mask") }
        let overlayFolder = try overlay.map { try PhotoArguments.outputFolder($0, option: "--overlay") }
        var writtenNames = Set<String>()
        var overlayNames = Set<String>()
        let writesMasks = folder != nil
        let drawsOverlays = overlayFolder != nil
        let results = model.results(for: photos.images, concurrency: jobs) { path -> PhotoResult in
            let url = try InputFileURL.checked(path, .image)
            // Full size: the mask has the pixels of the photo as displayed.
            let photo = try PixelBuffer(contentsOf: url, limits: model.configuration.limits)
            let mask = try model.segment(photo)
            let png = writesMasks ? try mask.categoryImage().pngData() : nil
            var result = Self.result(mask)
            result.png = png
            // Drawn here, on the photo's worker thread, so overlays overlap like the segmentations do.
            if drawsOverlays { result.overlay = try SegmentationOverlay.draw(mask, categories: Self.present(result), on: photo).jpegData(quality: 90) }
            return result
        }
        try await PhotoResultPrinter.print(
            results, paths: photos.images, jsonKey: photos.json ? "images" : nil,
            write: { path, photo in
                if let folder, let png = photo.png {
                    try png.write(to: PhotoFileName.destination(for: path, in: folder, extension: "png", taken: &writtenNames), options: .atomic)
                }
                if let overlayFolder, let jpeg = photo.overlay {
                    try jpeg.write(to: PhotoFileName.destination(for: path, in: overlayFolder, extension: "jpg", taken: &overlayNames), options: .atomic)
                }
            },
            element: Self.json, block: Self.printBlock
        )
    }


    /// A photo's or a frame's result: its size and each category's share.
    static func result(_ mask: SegmentationMask) -> PhotoResult {
        PhotoResult(size: ImageSize(width: mask.width, height: mask.height), labels: mask.labels, fractions: mask.fractions)
    }

    /// The categories present, largest share first (ties by index).
    static func present(_ photo: PhotoResult) -> [(index: Int, label: String?, fraction: Double)] {
        photo.fractions.enumerated().filter { $0.element > 0 }
            .sorted { ($0.element, -$0.offset) > ($1.element, -$1.offset) }
            .map { (index: $0.offset, label: photo.labels.indices.contains($0.offset) ? photo.labels[$0.offset] : nil, fraction: $0.element) }
    }

    static func json(path: String, _ photo: PhotoResult) -> JSONText.Value {
        .object([
            ("path", .string(path)), ("width", .integer(Int64(photo.size.width))), ("height", .integer(Int64(photo.size.height))),
            ("categories", .array(present(photo).map { category in
                var members: [(String, JSONText.Value)] = [("index", .integer(Int64(category.index)))]
                if let label = category.label { members.append(("label", .string(label))) }
                members.append(("fraction", .double(category.fraction)))
                return .object(members)
            })),
        ])
    }

    static func printBlock(path: String, _ photo: PhotoResult, first: Bool) {
        if !first { print("") }
        print("\(path) (\(photo.size.width)×\(photo.size.height))")
        let categories = present(photo)
        let names = categories.map { $0.label ?? "#\($0.index)" }
        let width = names.map(\.count).max() ?? 0
        for (category, name) in zip(categories, names) {
            print("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(String(format: "%6.2f", category.fraction * 100))%")
        }
    }
}
