import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOVision
import TensorIOToolSupport
import TensorIOSupport

/// `tensorio init MODEL [--output BUNDLE] [--image NAME]... [--normalize SPEC] [--labels OUTPUT=FILE]...`,
/// and `tensorio init DETECTOR LANDMARKS --landmarker hand|face|pose [--output BUNDLE]`.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a bundle (model.json, the model, its labels) for a .tflite file or a SavedModel folder.",
        discussion: """
            Layers come from the model's real tensors and, for .tflite files that carry TFLite Model \
            Metadata, from the metadata: names, image inputs with their colour space and normalization, \
            labels packed in the model. The command prints what it inferred, what it could not know \
            (edit model.json, or give the flags below) and what the metadata holds that TensorIO does \
            not use. The new bundle is written whole or not at all; an existing one is never replaced.

            With --landmarker, give MediaPipe's detector and landmark models: the bundle holds the landmark \
            model, the detector in a bundle of its own inside it, and MediaPipe's pipeline settings.
            """
    )

    @Argument(help: "A .tflite file or a TensorFlow SavedModel folder (with --landmarker: the detector).")
    var modelPath: String

    @Argument(help: ArgumentHelp("With --landmarker: the landmark model (.tflite).", valueName: "landmarks-model"))
    var landmarksPath: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The bundle folder to create (default: MODEL's name with .tiobundle, here).", valueName: "BUNDLE"))
    var output: String?

    @Option(name: .customLong("image"), help: ArgumentHelp("Treat this input as an image; repeatable.", valueName: "NAME"))
    var imageInputs: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "How image inputs without metadata normalization map pixels: [0,1], [-1,1], MEAN,STD or R,G,B means then R,G,B stds.",
        valueName: "SPEC"))
    var normalize: String?

    @Option(name: .customLong("labels"), help: ArgumentHelp("A labels file (one per line) for an output; repeatable.", valueName: "OUTPUT=FILE"))
    var labels: [String] = []

    @Option(help: "Take the metadata's labels in this locale (default: its first labels file).")
    var locale: String?

    @Option(name: .customLong("detector"), help: ArgumentHelp(
        "Describe the model as one of MediaPipe's detectors, whose settings are in MediaPipe's graphs, not in the file: \(MediaPipeDetector.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "name"
    ))
    var detectorName: DetectorName?

    @Option(name: .customLong("landmarker"), help: ArgumentHelp(
        "Write one of MediaPipe's landmarker pipelines from its two models (DETECTOR then LANDMARKS): \(MediaPipeLandmarker.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "name"
    ))
    var landmarkerName: LandmarkerName?

    /// `--landmarker`'s values: MediaPipe's landmarker pipelines by their names.
    enum LandmarkerName: String, ExpressibleByArgument, CaseIterable {
        case hand, face, pose

        var landmarker: MediaPipeLandmarker? { MediaPipeLandmarker(rawValue: rawValue) }
    }

    /// `--detector`'s values: MediaPipe's detector families by their names.
    enum DetectorName: String, ExpressibleByArgument, CaseIterable {
        case blazefaceShortRange = "blazeface-short-range"
        case blazefaceFullRange = "blazeface-full-range"
        case palm, pose

        var detector: MediaPipeDetector? { MediaPipeDetector(rawValue: rawValue) }
    }

    func run() throws {
        if let landmarkerName {
            guard let landmarksPath else {
                throw CLIError.usage("--landmarker \(landmarkerName.rawValue) takes two models: DETECTOR.tflite LANDMARKS.tflite")
            }
            return try writeLandmarker(landmarkerName, detectorPath: modelPath, landmarksPath: landmarksPath)
        }
        if let landmarksPath {
            throw CLIError.usage("\(landmarksPath): a second model is for --landmarker only")
        }
        let modelURL = try Self.bareModel(modelPath)
        let destination = try Self.destination(output ?? modelURL.deletingPathExtension().lastPathComponent + ".tiobundle")
        var options = BundleInferenceOptions(
            imageInputs: Set(imageInputs), normalization: try normalize.map(Self.parseNormalization),
            labels: try Self.readLabels(labels), locale: locale
        )
        options.detector = detectorName?.detector
        if normalize != nil, imageInputs.isEmpty {
            warn("--normalize applies to image inputs whose metadata gives no normalization")
        }
        let inferred = try ModelBundle.infer(fromModelAt: modelURL, options: options, registry: .tool)
        try Self.writeStaged(to: destination) { staging in
            try Self.writeFiles(of: inferred, from: modelURL, into: staging)
        }
        print(Self.report(inferred, destination: destination), terminator: "")
    }

    /// The landmark bundle: the landmark model with MediaPipe's pipeline settings, and the detector's
    /// bundle in its folder inside.
    private func writeLandmarker(_ name: LandmarkerName, detectorPath: String, landmarksPath: String) throws {
        guard let landmarker = name.landmarker else { throw CLIError.usage("--landmarker \(name.rawValue): unknown") }
        for (flag, given) in [("--detector", detectorName != nil), ("--image", !imageInputs.isEmpty), ("--normalize", normalize != nil), ("--labels", !labels.isEmpty)] where given {
            throw CLIError.usage("\(flag) does not apply with --landmarker: the pipeline's settings are MediaPipe's")
        }
        let detectorURL = try Self.bareModel(detectorPath), landmarksURL = try Self.bareModel(landmarksPath)
        let destination = try Self.destination(output ?? landmarksURL.deletingPathExtension().lastPathComponent + ".tiobundle")
        var detectorOptions = BundleInferenceOptions()
        detectorOptions.detector = landmarker.detector
        let detector: InferredBundle
        do {
            detector = try ModelBundle.infer(fromModelAt: detectorURL, options: detectorOptions, registry: .tool)
        } catch let error as TensorIOError {
            throw CLIError("\(detectorPath) (the detector): \(error.message)")
        }
        var landmarksOptions = BundleInferenceOptions()
        landmarksOptions.landmarker = landmarker
        let landmarks: InferredBundle
        do {
            landmarks = try ModelBundle.infer(fromModelAt: landmarksURL, options: landmarksOptions, registry: .tool)
        } catch let error as TensorIOError {
            throw CLIError("\(landmarksPath) (the landmark model): \(error.message)")
        }
        try Self.writeStaged(to: destination) { staging in
            let inner = staging.appendingPathComponent(MediaPipeLandmarker.detectorFolder)
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
            try Self.writeFiles(of: detector, from: detectorURL, into: inner)
            _ = try ModelBundle(at: inner, registry: .tool, logger: ToolLog.logger)
            try Self.writeFiles(of: landmarks, from: landmarksURL, into: staging)
        }
        print(Self.report(detector, destination: destination.appendingPathComponent(MediaPipeLandmarker.detectorFolder)), terminator: "")
        print(Self.report(landmarks, destination: destination), terminator: "")
    }

    /// A model path that exists and is a .tflite file or a SavedModel folder.
    private static func bareModel(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path)
        guard ModelBundle.isBareModel(url) else {
            if UntrustedFile.kind(of: url) == .missing { throw CLIError("\(path) does not exist") }
            throw CLIError("\(path) is not a .tflite file or a SavedModel folder (a folder holding saved_model.pb)")
        }
        return url
    }

    /// The bundle to create: a .tiobundle name where nothing is yet.
    private static func destination(_ path: String) throws -> URL {
        let destination = URL(fileURLWithPath: path)
        guard UntrustedFile.kind(of: destination) == .missing else {
            throw CLIError("\(destination.relativePath) already exists: give another --output, or remove it first")
        }
        guard destination.pathExtension == "tiobundle" else {
            throw CLIError.usage("--output \(destination.relativePath): a bundle folder's name ends in .tiobundle")
        }
        return destination
    }

    /// Writes the bundle into a hidden staging folder beside `destination`, then renames it into place,
    /// so a failure leaves nothing half-written.
    private static func writeStaged(to destination: URL, _ writeFiles: (URL) throws -> Void) throws {
        let files = FileManager.default
        let parent = destination.deletingLastPathComponent()
        // Hidden, and with the extension, so the written bundle can be opened before it is put in place.
        let staging = parent.appendingPathComponent(".partial-\(getpid())-\(destination.lastPathComponent)")
        do {
            try files.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw CLIError(SystemErrorText.reason(creatingFolder: destination, error: error))
        }
        do {
            try writeFiles(staging)
            // The written bundle must open as any other: what init writes, validate accepts.
            _ = try ModelBundle(at: staging, registry: .tool, logger: ToolLog.logger)
            guard rename(staging.path, destination.path) == 0 else {
                throw CLIError("cannot create \(destination.relativePath): \(SystemErrorText.reason(errno: errno))")
            }
        } catch {
            try? files.removeItem(at: staging)
            if let error = error as? CLIError { throw error }
            if let error = error as? TensorIOError { throw error }
            throw CLIError("cannot write \(destination.relativePath): \(SystemErrorText.reason(of: error))")
        }
    }

    /// A bundle's files in `folder`: the model, its assets, its model.json.
    private static func writeFiles(of inferred: InferredBundle, from modelURL: URL, into folder: URL) throws {
        let files = FileManager.default
        try files.copyItem(at: modelURL, to: folder.appendingPathComponent(inferred.bundle.modelFile.path))
        if !inferred.assets.isEmpty {
            let assets = folder.appendingPathComponent("assets")
            try files.createDirectory(at: assets, withIntermediateDirectories: false)
            for (name, data) in inferred.assets {
                try data.write(to: assets.appendingPathComponent(name), options: .withoutOverwriting)
            }
        }
        let json = JSONText.renderPretty(ModelJSONDocument.value(for: inferred.bundle))
        try Data(json.utf8).write(to: folder.appendingPathComponent("model.json"), options: .withoutOverwriting)
    }

    /// What was inferred, what is unknown, what is not used; then where the bundle is.
    static func report(_ inferred: InferredBundle, destination: URL) -> String {
        var text = ""
        let sections: [(InferredBundle.Note.Kind, String)] = [
            (.inferred, "Inferred:"),
            (.unknown, "Not known (edit model.json, or use --image, --normalize, --labels):"),
            (.unused, "In the metadata but not used by TensorIO:"),
        ]
        for (kind, title) in sections {
            let notes = inferred.notes.filter { $0.kind == kind }
            guard !notes.isEmpty else { continue }
            text += title + "\n" + notes.map { "  \($0)\n" }.joined()
        }
        text += "Wrote \(destination.relativePath): model.json, \(inferred.bundle.modelFile.path)"
            + (inferred.assets.isEmpty ? "" : ", assets/" + inferred.assets.keys.sorted().joined(separator: ", assets/")) + "\n"
        return text
    }

    static func parseNormalization(_ text: String) throws -> NormalizationSpec {
        let compact = text.filter { !$0.isWhitespace }
        if let range = StandardRange(rawValue: compact) { return .standard(range) }
        let numbers = compact.split(separator: ",").map { Float($0) }
        guard numbers.allSatisfy({ $0 != nil }) else {
            throw CLIError.usage("--normalize \(text): give [0,1], [-1,1], MEAN,STD, or three means then three stds")
        }
        let values = numbers.compactMap { $0 }
        let spec: NormalizationSpec? = switch values.count {
        case 2: .meanAndStandardDeviation(mean: [values[0]], std: [values[1]])
        case 6: .meanAndStandardDeviation(mean: Array(values[0..<3]), std: Array(values[3..<6]))
        default: nil
        }
        guard let spec else {
            throw CLIError.usage("--normalize \(text): give [0,1], [-1,1], MEAN,STD, or three means then three stds (stds not zero)")
        }
        return spec
    }

    static func readLabels(_ arguments: [String]) throws -> [String: [String]] {
        var labels: [String: [String]] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw CLIError.usage("--labels \(argument): expected OUTPUT=FILE")
            }
            let name = String(argument[..<equals])
            let path = String(argument[argument.index(after: equals)...])
            let data = try UntrustedFile.read(
                URL(fileURLWithPath: path), limit: ModelLimits().maximumLabelsFileBytes, name: path,
                limitName: "maximumLabelsFileBytes"
            )
            guard let text = String(data: data, encoding: .utf8) else { throw CLIError("\(path): not UTF-8 text") }
            labels[name] = ModelBundleValidator.labels(inText: text)
        }
        return labels
    }
}
