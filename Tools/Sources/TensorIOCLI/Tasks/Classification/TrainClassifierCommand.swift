import ArgumentParser
import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport

/// `tensorio train-classifier BASE --class NAME=FOLDER... --output MINE.tiobundle [options] [--json]`, and
/// `tensorio train-classifier --features-csv FILE --output MINE.tiobundle [options] [--json]`.
struct TrainClassifierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train-classifier",
        abstract: "Train a classifier of your own classes from a few photos of each, on a base bundle's features.",
        discussion: """
            BASE is an image embedder (an "embedding" entry, or one unlabelled vector output) or a hand \
            landmarker bundle (tensorio init DETECTOR LANDMARKS --landmarker hand): every photo of every \
            --class folder (its JPEG and PNG files) goes through it once, and a softmax-regression head \
            learns the features. The bundle written holds the base and the head; tensorio classify runs \
            it on photos. Photos in which the base finds nothing (no hand) are skipped, each said on stderr \
            as it happens. With --features-csv FILE there is no base: the file's header is label,NAME,… \
            and each row a class name and its feature values.

            Prints a summary (per class the photos used and given, the training and validation counts, \
            the accuracy and loss), or with --json one line: {"output":P,"base":"embedding"|\
            "hand_world_landmarks"|"given","backend":B,"classes":[{"label":L,"photos":N,"used":N,\
            "training":N,"validation":N}],"skipped":[{"path":P,"reason":R}],"epochs":N,"learning_rate":X,\
            "weight_decay":X,"training":{"accuracy":A,"loss":L},"validation":{…} or null}. A progress bar \
            is drawn on stderr when it is a terminal. Nothing is left at --output when training fails or \
            is interrupted (Ctrl-C: exit status 130).
            """
    )

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case tflite, tensorflow

        var library: ClassifierBackend {
            switch self {
            case .tflite: .tflite
            case .tensorflow: .tensorflow
            }
        }
    }

    @Argument(help: "The base bundle: an image embedder or a hand landmarker (not with --features-csv).")
    var base: String?

    @Option(name: .customLong("class"), help: ArgumentHelp(
        "A class and the folder of its photos (JPEG, PNG), NAME=FOLDER; repeatable, at least two.", valueName: "NAME=FOLDER"))
    var classes: [String] = []

    @Option(name: .customLong("features-csv"), help: ArgumentHelp(
        "Train on feature vectors instead of photos: a CSV file with a header label,F1,F2,… and one row per item.",
        valueName: "file"))
    var featuresCSV: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The classifier to write, a new NAME.tiobundle folder.", valueName: "bundle"))
    var output: String

    @Option(help: "Where the head trains and runs: tflite (LiteRT) or tensorflow.")
    var backend: Backend = .tflite

    @Option(help: "Passes over the training items (1 to \(ClassifierTrainingOptions.maximumEpochs)).")
    var epochs: Int = ClassifierTrainingOptions().epochs

    @Option(name: .customLong("validation-split"), help: "The share of each class kept aside to measure the classifier, 0 to 0.9.")
    var validationSplit: Double = 0

    @Option(help: "Seeds the split and the order of the items: the same seed gives the same bundle.")
    var seed: UInt64 = 0

    @Option(name: .customLong("batch-size"), help: "Items per training step, 1 to 65536.")
    var batchSize: Int = ClassifierTrainingOptions().batchSize

    @Option(name: .customLong("learning-rate"), help: "The step size (default: derived from the features).")
    var learningRate: Double?

    @Option(help: "Momentum of the gradient descent, 0 to 0.99.")
    var momentum: Double = ClassifierTrainingOptions().momentum

    @Option(name: .customLong("weight-decay"), help: "The L2 penalty's weight (default: 1 / the training items).")
    var weightDecay: Double?

    @OptionGroup var jobOptions: JobsOptionGroup

    @Option(help: "CPU threads the runtime may use for one photo's run (default: the cores shared among the jobs).")
    var threads: Int?

    @Flag(help: "Print one JSON line instead of the summary.")
    var json = false

    mutating func validate() throws {
        if featuresCSV != nil {
            guard base == nil else { throw ValidationError("give a BASE bundle with --class folders, or --features-csv, not both") }
            guard classes.isEmpty else { throw ValidationError("--class is for photos; --features-csv names each row's class") }
        } else {
            guard base != nil else { throw ValidationError("give a BASE bundle and --class NAME=FOLDER for each class (or --features-csv FILE)") }
            for value in classes { _ = try Self.classArgument(value) }
            guard classes.count >= 2 else {
                throw ValidationError("give at least two classes, --class NAME=FOLDER each (got \(classes.count))")
            }
        }
        guard (1...ClassifierTrainingOptions.maximumEpochs).contains(epochs) else {
            throw ValidationError("--epochs must be from 1 to \(ClassifierTrainingOptions.maximumEpochs)")
        }
        guard (0...0.9).contains(validationSplit) else { throw ValidationError("--validation-split must be from 0 to 0.9") }
        guard (1...65_536).contains(batchSize) else { throw ValidationError("--batch-size must be from 1 to 65536") }
        if let learningRate, !(learningRate > 0 && learningRate <= 1e6) {
            throw ValidationError("--learning-rate must be more than 0 and at most 1000000")
        }
        guard (0...0.99).contains(momentum) else { throw ValidationError("--momentum must be from 0 to 0.99") }
        if let weightDecay, !(weightDecay >= 0 && weightDecay <= 1e6) {
            throw ValidationError("--weight-decay must be from 0 to 1000000")
        }
        if let threads, !(1...ModelOptionGroup.maximumThreads).contains(threads) {
            throw ValidationError("--threads must be from 1 to \(ModelOptionGroup.maximumThreads)")
        }
    }

    /// `NAME=FOLDER`, split at the first `=`.
    static func classArgument(_ value: String) throws -> (label: String, folder: String) {
        guard let equals = value.firstIndex(of: "=") else {
            throw ValidationError("--class \(value): expected NAME=FOLDER, a class name and the folder of its photos")
        }
        let (label, folder) = (String(value[..<equals]), String(value[value.index(after: equals)...]))
        guard !label.isEmpty, !folder.isEmpty else {
            throw ValidationError("--class \(value): expected NAME=FOLDER, \(label.isEmpty ? "the class name" : "the folder") is empty")
        }
        return (label, folder)
    }

    func run() async throws {
        // From here Ctrl-C stops the command cleanly: during the set-up it is noted, during training it
        // cancels the training, whose library then removes what it had begun to write.
        let interruption = Interruption()
        defer { interruption.remove() }
        try Self.checkOutput(output)
        let destination = URL(fileURLWithPath: output)
        let trainer: ClassifierTrainer
        let work: @Sendable (ClassifierTrainer, ClassifierTrainingOptions, TrainingReporter) async throws -> ClassifierTrainingReport
        let reporter: TrainingReporter
        var options = ClassifierTrainingOptions(
            backend: backend.library, epochs: epochs, validationSplit: validationSplit, seed: seed, batchSize: batchSize,
            learningRate: learningRate, momentum: momentum, weightDecay: weightDecay)
        if let featuresCSV {
            let limits = ClassifierTrainingLimits()
            let features = try FeaturesCSV.read(featuresCSV, limits: limits)
            trainer = ClassifierTrainer(limits: limits)
            reporter = TrainingReporter(folders: [])
            if jobOptions.jobs != nil { warn("--jobs has no effect with --features-csv: there are no photos to read") }
            if threads != nil { warn("--threads has no effect with --features-csv: there is no base model to run") }
            work = { trainer, options, reporter in
                try await trainer.train(features: features, options: options, to: destination, progress: reporter.report)
            }
        } else {
            // The folders are listed before the base opens: a wrong folder is said at once.
            let given = try classes.map(Self.classArgument)
            let photos = try given.map { try LabeledPhotos(label: $0.label, folder: URL(fileURLWithPath: $0.folder, isDirectory: true)) }
            let jobs = jobOptions.count(for: photos.reduce(0) { $0 + $1.photos.count })
            options.jobs = jobs
            let configuration = ModelConfiguration(
                threadCount: threads ?? ModelOptionGroup.threadsSharingCores(among: jobs), maximumConcurrentRuns: jobs, logger: ToolLog.logger)
            trainer = try ClassifierTrainer(base: try Self.openBase(base ?? ""), configuration: configuration, registry: .tool)
            try RuntimeLog.capturing { try trainer.extractor?.load() }
            reporter = TrainingReporter(folders: given.map(\.folder))
            work = { trainer, options, reporter in
                try await trainer.train(classes: photos, options: options, to: destination, progress: reporter.report)
            }
        }

        let trainingOptions = options
        let outcome: Interruption.Outcome<ClassifierTrainingReport>
        do {
            // The runtimes' lines (TensorFlow's, LiteRT's) are kept off stderr; the tool's own lines and bars
            // go to its duplicate of stderr (ToolStandardError), which the capture does not touch.
            outcome = try await interruption.run {
                try await RuntimeLog.capturing { try await work(trainer, trainingOptions, reporter) }
            }
        } catch {
            reporter.endLine()
            throw error
        }
        reporter.endLine()
        switch outcome {
        case .interrupted:
            ToolStandardError.write("cancelled: nothing written at \(output)\n")
            throw ExitCode(130)
        case .finished(let report):
            if json {
                print(JSONText.render(Self.json(report, output: output, path: reporter.displayPath)))
            } else {
                printSummary(report, path: reporter.displayPath)
            }
        }
    }

    /// Opens BASE: a bundle folder (a bare model has no bundle to copy into the classifier).
    static func openBase(_ path: String) throws -> ModelBundle {
        let url = URL(fileURLWithPath: path, isDirectory: true)
        guard !ModelBundle.isBareModel(url) else {
            throw CLIError("\(path) is a bare model; the base must be a bundle folder (tensorio init \(path) -o BASE.tiobundle writes one)")
        }
        return try ModelBundle(at: url, registry: .tool, logger: ToolLog.logger)
    }

    /// Fails before any work when `--output` is not named `NAME.tiobundle` or names something that exists
    /// and is not an empty folder (the library checks again before it writes).
    static func checkOutput(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        guard url.pathExtension == "tiobundle", url.lastPathComponent.count > ".tiobundle".count else {
            throw CLIError("--output \(path): name the classifier NAME.tiobundle, so that it can be opened")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        let contents = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: path)) : nil
        guard let contents, contents.isEmpty else {
            throw CLIError("--output \(path) already exists and is not an empty folder; give a new one")
        }
    }

    // MARK: - Output

    static func json(_ report: ClassifierTrainingReport, output: String, path: (URL) -> String) -> JSONText.Value {
        func evaluation(_ value: ClassifierTrainingReport.Evaluation) -> JSONText.Value {
            .object([("accuracy", .double(value.accuracy)), ("loss", .double(value.loss))])
        }
        return .object([
            ("output", .string(output)),
            ("base", .string(report.features.rawValue)),
            ("backend", .string(report.backend.rawValue)),
            ("classes", .array(report.classes.map { summary in
                .object([
                    ("label", .string(summary.label)), ("photos", .integer(Int64(summary.given))), ("used", .integer(Int64(summary.used))),
                    ("training", .integer(Int64(summary.training))), ("validation", .integer(Int64(summary.validation))),
                ])
            })),
            ("skipped", .array(report.skipped.map { .object([("path", .string(path($0.url))), ("reason", .string($0.reason))]) })),
            ("epochs", .integer(Int64(report.epochs))),
            ("learning_rate", .double(report.learningRate)),
            ("weight_decay", .double(report.weightDecay)),
            ("training", evaluation(report.training)),
            ("validation", report.validation.map(evaluation) ?? .null),
        ])
    }

    /// ```
    /// call  used 6/7 photos, training 6, validation 0
    /// …
    /// training    accuracy 1.0000  loss 0.0312  (25 photos)
    /// wrote gestures.tiobundle: a tflite head on 63 hand_world_landmarks features, 200 epochs, …
    /// ```
    private func printSummary(_ report: ClassifierTrainingReport, path: (URL) -> String) {
        let items = report.features == .given ? "rows" : "photos"
        let width = report.classes.map(\.label.count).max() ?? 0
        for summary in report.classes {
            let label = summary.label.padding(toLength: width, withPad: " ", startingAt: 0)
            print("\(label)  used \(summary.used)/\(summary.given) \(items), training \(summary.training), validation \(summary.validation)")
        }
        if !report.skipped.isEmpty {
            print("skipped \(report.skipped.count) photo\(report.skipped.count == 1 ? "" : "s") (each said on stderr)")
        }
        func line(_ name: String, _ value: ClassifierTrainingReport.Evaluation) {
            print("\(name)  accuracy \(String(format: "%.4f", value.accuracy))  loss \(String(format: "%.4f", value.loss))  (\(value.count) \(items))")
        }
        line("training  ", report.training)
        if let validation = report.validation { line("validation", validation) }
        let base = report.features == .given ? "\(report.featureCount) given features" : "\(report.featureCount) \(report.features.rawValue) features"
        print("wrote \(output): a \(report.backend.rawValue) head on \(base), \(report.epochs) epochs, learning rate \(Self.number(report.learningRate)), weight decay \(Self.number(report.weightDecay))")
    }

    /// A rate for a line of text: 4 significant digits.
    static func number(_ value: Double) -> String { String(format: "%.4g", value) }
}

/// What `train-classifier` says on stderr while it trains: each skipped photo as it happens, and on a
/// terminal a progress bar of the photos, then of the epochs.
final class TrainingReporter: @unchecked Sendable {
    private let lock = NSLock()
    private var bar: ProgressBar?  // guarded by `lock`
    private var done = 0  // guarded by `lock`
    private let drawsBars = ToolStandardError.isTerminal
    /// Each `--class` folder as given, by its standardized path: skipped photos are named as the user
    /// would (`photos/call/a.jpg`), not by absolute paths.
    private let folders: [String: String]

    init(folders: [String]) {
        var byPath: [String: String] = [:]
        for folder in folders {
            byPath[URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.path] = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        }
        self.folders = byPath
    }

    /// A photo's path as the user gave its folder.
    @Sendable func displayPath(_ url: URL) -> String {
        let parent = url.deletingLastPathComponent().standardizedFileURL.path
        guard let folder = folders[parent] ?? folders[parent.hasSuffix("/") ? String(parent.dropLast()) : parent] else { return url.path }
        return "\(folder)/\(url.lastPathComponent)"
    }

    @Sendable func report(_ event: ClassifierTrainingProgress) {
        lock.withLock {
            switch event {
            case .photo(let done, let total):
                progress(done, of: total, label: "photos")
            case .skipped(let url, let reason):
                if bar != nil { ToolStandardError.write("\r\u{1B}[K") }
                ToolStandardError.write("skipped \(OneLine.text(displayPath(url))): \(OneLine.text(reason))\n")
                if let drawn = bar {
                    bar = ProgressBar(total: drawn.total, label: drawn.label)
                    bar?.update(done)
                }
            case .epoch(let epoch, let epochs, _):
                progress(epoch, of: epochs, label: "epochs")
            }
        }
    }

    /// Ends the bar's line, if one is drawn, before anything else is written (the summary, an error).
    func endLine() {
        lock.withLock {
            bar?.finish()
            bar = nil
        }
    }

    /// Moves the bar of `label` (guarded by `lock`).
    private func progress(_ value: Int, of total: Int, label: String) {
        guard drawsBars else { return }
        if bar?.label != label {
            bar?.finish()
            bar = ProgressBar(total: total, label: label)
        }
        done = value
        bar?.update(value)
        if value == total {
            bar?.finish()
            bar = nil
        }
    }
}
