import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOVision
import TensorIOToolSupport
import TensorIOSupport

/// `tensorio init MODEL [--output BUNDLE] [--image NAME]... [--normalize SPEC] [--labels OUTPUT=FILE]...`
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
            """
    )

    @Argument(help: "A .tflite file or a TensorFlow SavedModel folder.")
    var modelPath: String

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

    /// `--detector`'s values: MediaPipe's detector families by their names.
    enum DetectorName: String, ExpressibleByArgument, CaseIterable {
        case blazefaceShortRange = "blazeface-short-range"
        case blazefaceFullRange = "blazeface-full-range"
        case palm, pose

        var detector: MediaPipeDetector? { MediaPipeDetector(rawValue: rawValue) }
    }

    func run() throws {
        let modelURL = URL(fileURLWithPath: modelPath)
        guard ModelBundle.isBareModel(modelURL) else {
            if UntrustedFile.kind(of: modelURL) == .missing { throw CLIError("\(modelPath) does not exist") }
            throw CLIError("\(modelPath) is not a .tflite file or a SavedModel folder (a folder holding saved_model.pb)")
        }
        let destination = URL(fileURLWithPath: output ?? modelURL.deletingPathExtension().lastPathComponent + ".tiobundle")
        guard UntrustedFile.kind(of: destination) == .missing else {
            throw CLIError("\(destination.relativePath) already exists: give another --output, or remove it first")
        }
        guard destination.pathExtension == "tiobundle" else {
            throw CLIError.usage("--output \(destination.relativePath): a bundle folder's name ends in .tiobundle")
        }
        var options = BundleInferenceOptions(
            imageInputs: Set(imageInputs), normalization: try normalize.map(Self.parseNormalization),
            labels: try Self.readLabels(labels), locale: locale
        )
        options.detector = detectorName?.detector
        if normalize != nil, imageInputs.isEmpty {
            warn("--normalize applies to image inputs whose metadata gives no normalization")
        }
        let inferred = try ModelBundle.infer(fromModelAt: modelURL, options: options, registry: .tool)
        try write(inferred, from: modelURL, to: destination)
        print(Self.report(inferred, destination: destination), terminator: "")
    }

    /// Writes the bundle into a hidden staging folder beside `destination`, then renames it into place,
    /// so a failure leaves nothing half-written.
    private func write(_ inferred: InferredBundle, from modelURL: URL, to destination: URL) throws {
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
            try files.copyItem(at: modelURL, to: staging.appendingPathComponent(inferred.bundle.modelFile.path))
            if !inferred.assets.isEmpty {
                let assets = staging.appendingPathComponent("assets")
                try files.createDirectory(at: assets, withIntermediateDirectories: false)
                for (name, data) in inferred.assets {
                    try data.write(to: assets.appendingPathComponent(name), options: .withoutOverwriting)
                }
            }
            let json = JSONText.renderPretty(ModelJSONDocument.value(for: inferred.bundle))
            try Data(json.utf8).write(to: staging.appendingPathComponent("model.json"), options: .withoutOverwriting)
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
