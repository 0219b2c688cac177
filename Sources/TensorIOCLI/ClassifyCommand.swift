import ArgumentParser
import Foundation
import TensorIO

/// `tensorio classify BUNDLE IMAGE... [--top N] [--threshold T] [--json]`
struct ClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify images with a model that has one image input and a labelled output.",
        discussion: """
            Prints the best labels of each image as a table, or with --json one object: \
            {"images": [{"path": ..., "<output>": [{"label": ..., "score": ...}, ...]}, ...]}.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Argument(help: "JPEG or PNG files.")
    var images: [String]

    @Option(help: "How many labels to show per image.")
    var top: Int = 5

    @Option(help: "Show only labels scoring above T.")
    var threshold: Float?

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @OptionGroup var imageOptions: ImageOptionGroup

    mutating func validate() throws {
        guard top >= 1 else { throw ValidationError("--top must be at least 1") }
        guard !images.isEmpty else { throw ValidationError("give at least one image") }
    }

    func run() throws {
        let classifier = try ImageClassifier(model, resizeMode: imageOptions.resize.mode)
        var results: [(path: String, scores: [(output: String, entries: [LabeledScores.Entry])])] = []
        for path in images {
            let outputs = try classifier.classify(URL(fileURLWithPath: path))
            results.append((path, classifier.labelledOutputs.compactMap { name in
                outputs[name]?.labeled.map { (name, $0.top(top, threshold: threshold)) }
            }))
        }
        if json {
            print(JSONText.render(.object([("images", .array(results.map { result in
                .object([("path", .string(result.path))] + result.scores.map { output in
                    (output.output, .array(output.entries.map { .object([("label", .string($0.label)), ("score", .float($0.score))]) }))
                })
            }))])))
            return
        }
        for (index, result) in results.enumerated() {
            if index > 0 { print("") }
            print(result.path)
            for output in result.scores {
                if result.scores.count > 1 { print("  \(output.output):") }
                let width = output.entries.map(\.label.count).max() ?? 0
                for (rank, entry) in output.entries.enumerated() {
                    let label = entry.label.padding(toLength: width, withPad: " ", startingAt: 0)
                    print("  \(rank + 1). \(label)  \(String(format: "%.4f", entry.score))")
                }
                if output.entries.isEmpty { print("  (no label above the threshold)") }
            }
        }
    }
}

/// A model with one image input and at least one labelled output, fed from image files.
struct ImageClassifier {
    let bundle: ModelBundle
    let model: any Model
    let imageLayer: LayerDescription
    let labelledOutputs: [String]
    let resizeMode: ImageResizeMode

    init(_ options: ModelOptionGroup, resizeMode: ImageResizeMode) throws {
        (bundle, model) = try options.makeModel(resizeMode: resizeMode)
        guard bundle.predictionInputs.count == 1, bundle.predictionInputs[0].kind == .image else {
            throw CLIError("the model must have exactly one input, an image layer (it has: \(bundle.predictionInputs.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")))")
        }
        imageLayer = bundle.predictionInputs[0]
        labelledOutputs = bundle.predictionOutputs.filter(\.isLabeled).map(\.name)
        guard !labelledOutputs.isEmpty else {
            throw CLIError("the model has no labelled output (give an output \"labels\" in model.json)")
        }
        self.resizeMode = resizeMode
        try RuntimeLog.capturing { try model.load() }
    }

    /// Decodes (at reduced size when the file is much larger than the layer) and runs.
    func classify(_ url: URL) throws -> Outputs {
        let target = imageLayer.imageVolume.map { ImageSize(width: $0.width, height: $0.height) }
        let image = try PixelBuffer(contentsOf: url, targetSize: target, resizeMode: resizeMode)
        return try model.run(image)
    }
}
