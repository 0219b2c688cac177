import ArgumentParser
import Foundation
import TensorIO
import TensorIOAudio
import TensorIOText
import TensorIOVision
import TensorIOToolSupport
import TensorIOVideo

/// `tensorio classify BUNDLE IMAGE... [--top N] [--threshold T] [--jobs N] [--json]`, or `BUNDLE VIDEO...
/// [--every N | --fps F] [--start S] [--end S] [--json]`
struct ClassifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify images, or recordings window by window, with a model that has a labelled output.",
        discussion: """
            Prints the best labels of each image as a table, or with --json one object: \
            {"images": [{"path": ..., "<output>": [{"label": ..., "score": ...}, ...]}, ...]}. Each \
            image's result is printed as soon as it and the ones before it are ready (in the order \
            given, whatever --jobs); images that cannot be read are reported at the end, one line each, \
            and the exit status is then 1.

            A model with an audio input (an "audio" entry in model.json, or AudioProperties metadata) takes \
            WAV, FLAC or Ogg files instead: each is mixed and resampled to the model's input, split into \
            windows of its length (every --hop seconds) and each window classified, --jobs windows at \
            once. With --json: {"audio": [{"path": ..., "sample_rate": ..., "windows": [{"start_ms": ..., \
            "classification": [{"label": ..., "score": ...}, ...]}, ...]}, ...]}.

            A model with a "text" entry (or tokenizer metadata: regex, WordPiece, SentencePiece) classifies \
            texts: --text "..." (repeatable) or --text-file F (one text a line). With --json: {"texts": \
            [{"text": ..., "classification": [{"label": ..., "score": ...}, ...]}, ...]}.

            A classifier train-classifier wrote (a "classifier_head" entry) classifies photos through its \
            base: {"images": [{"path": ..., "classification": [...]}, ...]} for an embedder base; for a hand \
            landmarker base each hand, best first: {"images": [{"path": ..., "instances": [{"handedness": \
            {"label": ..., "score": ...}, "box": {"x": ..., "y": ..., "width": ..., "height": ...}, \
            "classification": [...]}, ...]}, ...]} (an empty list when there is no hand).

            \(VideoOptionGroup.discussion(drawing: nil)) Videos are for a model with one image input or a \
            classifier train-classifier wrote (each frame's line then as its photo object above).
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Argument(help: "JPEG or PNG files; WAV, FLAC or Ogg files for a model with an audio input.")
    var images: [String] = []

    @OptionGroup var text: TextOptionGroup

    @Option(help: "How many labels to show per image.")
    var top: Int = 5

    @Option(help: "Show only labels scoring above T.")
    var threshold: Float?

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @OptionGroup var jobOptions: JobsOptionGroup

    @Option(help: ArgumentHelp(
        "Audio models: seconds between the starts of windows (default: the window's length, back to back).",
        valueName: "seconds"
    ))
    var hop: Double?

    @OptionGroup var videoOptions: VideoOptionGroup

    @OptionGroup var imageOptions: ImageOptionGroup

    mutating func validate() throws {
        guard top >= 1 else { throw ValidationError("--top must be at least 1") }
        guard images.isEmpty != text.isEmpty else {
            throw ValidationError(images.isEmpty ? "give at least one image, recording or --text" : "give files or --text/--text-file, not both")
        }
        if let hop { guard hop > 0, hop <= 3600 else { throw ValidationError("--hop must be more than 0 and at most 3600 seconds") } }
    }

    /// Each image's result is printed as soon as it is ready (the JSON document too, element by element);
    /// images that fail are reported together at the end, after the others, with exit status 1.
    func run() async throws {
        let videos = try videoOptions.videos(among: images)
        let bundle = try model.openBundle()
        if let videos { return try await classifyVideos(videos, bundle: bundle) }
        if try bundle.classifierHead != nil { return try await classifyWithTrainedHead(bundle) }
        if !text.isEmpty { return try await classifyTexts(bundle) }
        if try bundle.audio != nil {
            // An audio file's windows run `jobs` at once, each file after the other.
            let jobs = jobOptions.requested
            let built = try model.makeModel(
                of: bundle, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)
            )
            let classifier = AudioFileClassifier(
                model: built, jobs: jobs, top: top, threshold: threshold, hop: hop.map { .microseconds(Int64(($0 * 1e6).rounded())) }
            )
            return try await classifier.run(paths: images, json: json)
        }
        guard hop == nil else { throw CLIError("--hop is for audio models; \(model.bundle) has no audio input") }
        let jobs = jobOptions.count(for: images.count)
        let built = try model.makeModel(
            of: bundle, images: imageOptions, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs)
        )
        let classifier = try PhotoClassifier(bundle: bundle, model: built, preload: false)
        // The model loads on a thread of its own while the first images decode on TensorIO's threads (their
        // runs wait for that load): for one photo the two overlap instead of following each other.
        let loading = classifier.loadInBackground()
        var failures = InputFailures()
        var printed = 0
        if json { print("{\"images\":[", terminator: "") }
        // Decoding and inference of up to `jobs` images overlap on TensorIO's threads; results come back
        // in the order given.
        var paths = images.makeIterator()
        let results = classifier.model.results(for: images, concurrency: jobs, input: classifier.input(path:))
        try await loading.value  // a model that does not load is one error, before any image
        for await result in results {
            guard let path = paths.next() else { break }
            let scores: [(output: String, entries: [LabeledScores.Entry])]
            do {
                let outputs = try result.get()
                scores = try classifier.labelledOutputs.map { name in
                    (name, try outputs[name].labeled.top(top, threshold: threshold))
                }
            } catch {
                failures.record(error, path: path)
                continue
            }
            if json {
                print((printed > 0 ? "," : "") + JSONText.render(Self.json(path: path, scores)), terminator: "")
            } else {
                Self.printBlock(path: path, scores: scores, first: printed == 0)
            }
            printed += 1
        }
        if json { print("]}") }
        if !failures.isEmpty { throw failures }
    }

    /// The best labels of each labelled output.
    typealias Scores = [(output: String, entries: [LabeledScores.Entry])]

    /// Videos: each frame kept is classified in turn (``ClipTaskRunner``).
    private func classifyVideos(_ videos: [String], bundle: ModelBundle) async throws {
        jobOptions.warnUnusedForVideos()
        if try bundle.classifierHead != nil { return try await classifyWithTrainedHead(bundle, videos: videos) }
        guard try bundle.audio == nil else {
            throw CLIError.usage("\(model.bundle) classifies recordings: videos are for a model with an image input")
        }
        guard hop == nil else { throw CLIError.usage("--hop is for audio models; \(model.bundle) has no audio input") }
        // A video's frames run one after the other, on one compiled copy with every core.
        let built = try model.makeModel(of: bundle, images: imageOptions, concurrentRuns: 1, defaultThreads: ModelOptionGroup.threadsSharingCores(among: 1))
        let classifier = try PhotoClassifier(bundle: bundle, model: built)
        let (top, threshold) = (self.top, self.threshold)
        try await ClipTaskRunner(
            paths: videos, sampling: videoOptions.sampling, json: json, drawing: nil,
            task: { frame, _ in
                let outputs = try classifier.model.run(.image(frame.image))
                let scores: Scores = try classifier.labelledOutputs.map { name in (name, try outputs[name].labeled.top(top, threshold: threshold)) }
                return (scores, nil)
            },
            element: Self.json, block: Self.printBlock
        ).run()
    }

    /// An image's JSON object (a video frame's too, with the frame's index and time added).
    static func json(path: String, _ scores: Scores) -> JSONText.Value {
        .object([("path", .string(path))] + scores.map { output in
            (output.output, .array(output.entries.map { .object([("label", .string($0.label)), ("score", .float($0.score))]) }))
        })
    }

    /// A bundle `train-classifier` wrote: its base finds the photo's features (or each hand's), its head
    /// classifies them (``TrainedClassifierRunner``).
    private func classifyWithTrainedHead(_ bundle: ModelBundle, videos: [String]? = nil) async throws {
        guard text.isEmpty else {
            throw CLIError.usage("\(model.bundle) is a classifier of photos (train-classifier wrote it): give photos, not --text")
        }
        guard hop == nil else { throw CLIError.usage("--hop is for audio models; \(model.bundle) classifies photos") }
        // A video's frames run one after the other, on one compiled copy with every core.
        let jobs = videos == nil ? jobOptions.count(for: images.count) : 1
        let configuration = model.configuration(
            images: imageOptions, concurrentRuns: jobs, defaultThreads: ModelOptionGroup.threadsSharingCores(among: jobs))
        let classifier = try TrainedClassifier(bundle: bundle, configuration: configuration, registry: .tool)
        guard classifier.extractor != nil else {
            throw CLIError("\(model.bundle) was trained on given features (train-classifier --features-csv): it has no base to find features in photos")
        }
        try RuntimeLog.capturing { try classifier.load() }
        let runner = TrainedClassifierRunner(classifier: classifier, top: top, threshold: threshold)
        if let videos { return try await runner.runVideos(videos, sampling: videoOptions.sampling, json: json) }
        try await runner.run(paths: images, jobs: jobs, json: json)
    }

    /// `--text`/`--text-file`: each text classified, `jobs` at once, printed in order as it is ready.
    private func classifyTexts(_ bundle: ModelBundle) async throws {
        let (top, threshold) = (self.top, self.threshold)
        try await text.run(
            model: model, bundle: bundle, jobs: jobOptions, jsonKey: json ? "texts" : nil,
            work: { model, text in try model.classify(text: text).top(top, threshold: threshold) },
            element: { text, entries in
                .object([
                    ("text", .string(text)),
                    ("classification", .array(entries.map { .object([("label", .string($0.label)), ("score", .float($0.score))]) })),
                ])
            },
            block: { text, entries, first in
                Self.printBlock(path: text.count > 72 ? String(text.prefix(71)) + "…" : text, scores: [("", entries)], first: first)
            }
        )
    }

    static func printBlock(path: String, scores: Scores, first: Bool) {
        if !first { print("") }
        print(path)
        for output in scores {
            if scores.count > 1 { print("  \(output.output):") }
            let width = output.entries.map(\.label.count).max() ?? 0
            for (rank, entry) in output.entries.enumerated() {
                let label = entry.label.padding(toLength: width, withPad: " ", startingAt: 0)
                print("  \(rank + 1). \(label)  \(String(format: "%.4f", entry.score))")
            }
            if output.entries.isEmpty { print("  (no label above the threshold)") }
        }
    }
}
