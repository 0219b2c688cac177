import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport

/// `tensorio train BUNDLE --data PATH --epochs N --batch-size B [--shuffle] [--export DIR] [--json]`.
struct TrainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a model on labelled data and print the loss per epoch.",
        discussion: """
            PATH is a folder with one sub-folder of images per label, a JSON file holding an array of \
            items keyed by input layer name ([{"x": [..], "y": [..]}, …]), or a CSV file whose columns are \
            named after input layers (LAYER, or LAYER_0, LAYER_1, … for one element each). A single class \
            index for a one-hot label layer becomes the one-hot vector. Prints each epoch's mean of every \
            single-number training output; a progress bar is drawn on stderr when it is a terminal.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Option(help: "The training data: a folder of images per label, a .json or a .csv file.")
    var data: String

    @Option(help: "Passes over the data.")
    var epochs: Int = 1

    @Option(name: .customLong("batch-size"), help: "Items per training step.")
    var batchSize: Int = 32

    @Flag(help: "Visit the items in a new random order every epoch.")
    var shuffle = false

    @Option(help: "Seed the shuffling, to repeat a run.")
    var seed: UInt64?

    @Option(name: .customLong("placeholder"), help: "A placeholder's value, NAME=VALUE (a JSON number or array); repeatable.")
    var placeholders: [String] = []

    @Option(help: "Held-out data in the same forms as --data: report the trained model's top-1 accuracy on it.")
    var test: String?

    @Option(help: "Write the trained bundle to this new folder.")
    var export: String?

    @Flag(help: "Print one JSON object: {\"epochs\": [{\"epoch\": 1, \"<output>\": <mean>, \"seconds\": S}, …], \"steps_per_second\": R, …}.")
    var json = false

    mutating func validate() throws {
        guard epochs >= 1 else { throw ValidationError("--epochs must be at least 1") }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() async throws {
        let (bundle, trainable) = try model.makeTrainableModel()
        if let export { try Self.checkExportDestination(export) }
        let source = try Self.dataSource(at: data, bundle: bundle)
        // Read the held-out data before training, so a mistake in it does not waste a training run.
        let evaluation = try test.map { try HeldOutAccuracy(bundle: bundle, data: Self.dataSource(at: $0, bundle: bundle)) }
        let placeholderValues = try PlaceholderArguments.parse(placeholders, bundle: bundle)

        try RuntimeLog.capturing { try trainable.load() }
        // The progress bar is drawn between steps on stderr, so with one each step is captured on its
        // own; without one (stderr not a terminal: a log, a pipe, a benchmark), the whole loop is
        // captured once, which keeps several system calls off every step. Either way what the runtime
        // prints joins the error if training fails.
        let drawsProgress = isatty(STDERR_FILENO) == 1
        let trainer = ModelTrainer(
            model: drawsProgress ? QuietTrainableModel(trainable) : trainable, data: source, epochs: epochs,
            batchSize: batchSize, shuffle: shuffle, placeholders: placeholderValues, seed: seed
        )
        let epochCount = epochs
        let asJSON = json
        let progress = LockedProgress()
        let train = {
            try await trainer.train { event in
                switch event {
                case .batch(let epoch, let batch, let batchCount, _):
                    progress.update(epoch: epoch, of: epochCount, batch: batch, batchCount: batchCount)
                case .epoch(let summary):
                    progress.finish()
                    if !asJSON { print(Self.line(for: summary, of: epochCount)) }
                }
            }
        }
        let summaries = drawsProgress ? try await train() : try await RuntimeLog.capturing { try await train() }
        let result = try evaluation.map { try $0.measure(trainable, batchSize: batchSize) }
        if let export {
            try RuntimeLog.capturing { try trainable.export(to: URL(fileURLWithPath: export)) }
        }
        if json {
            let epochs: [JSONText.Value] = summaries.map { summary in
                .object([("epoch", .integer(Int64(summary.epoch)))] + summary.means.map { ($0.name, .double($0.value)) }
                    + [("seconds", .double(Self.seconds(summary.duration)))])
            }
            // The training loop's speed: the epochs' own times (each batch read from the data source, and
            // the step), so neither the process start nor loading the model and the data count.
            let steps = summaries.reduce(0) { $0 + $1.batchCount }
            let stepSeconds = summaries.reduce(0) { $0 + Self.seconds($1.duration) }
            var members: [(String, JSONText.Value)] = [
                ("epochs", .array(epochs)), ("steps", .integer(Int64(steps))), ("step_seconds", .double(stepSeconds)),
                ("steps_per_second", .double(stepSeconds > 0 ? Double(steps) / stepSeconds : 0)),
            ]
            if let result {
                members.append(("test", .object([
                    ("accuracy", .double(result.accuracy)), ("correct", .integer(Int64(result.correct))),
                    ("items", .integer(Int64(result.items))),
                ])))
            }
            print(JSONText.render(.object(members)))
        } else {
            if let result {
                print("held-out accuracy \(String(format: "%.4f", result.accuracy)) (\(result.correct)/\(result.items))")
            }
            if let export { print("exported the trained bundle to \(export)") }
        }
    }

    /// Fails before any training when `--export` names something that exists and is not an empty folder,
    /// rather than training for nothing and failing after the epoch lines are printed.
    static func checkExportDestination(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        guard url.pathExtension == "tiobundle" else {
            throw CLIError("--export \(path): name the trained bundle NAME.tiobundle, so that it can be opened")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        let contents = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: path)) : nil
        guard let contents, contents.isEmpty else {
            throw CLIError("--export \(path) already exists and is not an empty folder; export into a new folder")
        }
    }

    /// The data source for PATH, chosen by what it is.
    static func dataSource(at path: String, bundle: ModelBundle) throws -> any BatchDataSource {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CLIError("--data \(path): no such file or folder")
        }
        if isDirectory.boolValue {
            let labels = bundle.outputs.lazy.compactMap(\.labels).first?.values
            return try ImageFolderDataSource(directory: url, inputs: bundle.inputs, labels: labels)
        }
        switch url.pathExtension.lowercased() {
        case "json": return try JSONDataSource(contentsOf: url, layers: bundle.inputs)
        case "csv": return try CSVDataSource(contentsOf: url, layers: bundle.inputs)
        default:
            throw CLIError("--data \(path): expected a folder of images per label, a .json or a .csv file")
        }
    }

    /// `epoch 3/20  loss 0.2145  accuracy 0.9375  (21.3 ms)`.
    static func line(for summary: TrainingEpoch, of epochs: Int) -> String {
        let width = String(epochs).count
        let number = String(repeating: " ", count: width - String(summary.epoch).count) + String(summary.epoch)
        let means = summary.means.map { "\($0.name) \(String(format: "%.4f", $0.value))" }.joined(separator: "  ")
        let seconds = seconds(summary.duration)
        let time = seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
        return "epoch \(number)/\(epochs)  \(means)  (\(time))"
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Forwards to a trainable model, running each training step and the export under ``RuntimeLog`` so that
/// what the runtime prints when a step fails (TensorFlow's "Local rendezvous is aborting …" line for a
/// placeholder not fed, say) joins the error instead of adding lines to stderr. The progress bar is drawn
/// between steps, outside the capture.
private final class QuietTrainableModel: TrainableModel {
    let base: any TrainableModel

    init(_ base: any TrainableModel) {
        self.base = base
    }

    var bundle: ModelBundle { base.bundle }
    var configuration: ModelConfiguration { base.configuration }
    var isLoaded: Bool { base.isLoaded }
    func load() throws { try RuntimeLog.capturing { try base.load() } }
    func unload() { base.unload() }
    func run(_ input: InputValue) throws -> Outputs { try RuntimeLog.capturing { try base.run(input) } }
    func tensorDescriptions() throws -> ModelTensors { try RuntimeLog.capturing { try base.tensorDescriptions() } }
    func run(_ batch: Batch) throws -> [Outputs] { try RuntimeLog.capturing { try base.run(batch) } }

    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs {
        try RuntimeLog.capturing { try base.train(batch, placeholders: placeholders) }
    }

    func export(to directory: URL) throws {
        try RuntimeLog.capturing { try base.export(to: directory) }
    }
}

/// The progress bar, shared with the trainer's callback.
private final class LockedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var bar: ProgressBar?

    func update(epoch: Int, of epochs: Int, batch: Int, batchCount: Int) {
        lock.withLock {
            if bar == nil { bar = ProgressBar(total: batchCount, label: "epoch \(epoch)/\(epochs)") }
            bar?.update(batch)
        }
    }

    func finish() {
        lock.withLock {
            bar?.finish()
            bar = nil
        }
    }
}
