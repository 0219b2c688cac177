import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport
import TensorIOSupport

/// `tensorio eval BUNDLE DIR [--top K] [--jobs N] [--json]`: accuracy of an image classifier on a labelled folder.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure an image classifier's accuracy on a folder of labelled images.",
        discussion: """
            DIR holds one sub-folder per label, named as in the model's labels file, with JPEG or PNG \
            images inside. Reports top-1 and top-K accuracy, the most frequent confusions, images per \
            second and per-image latency (decode + preprocess + run) percentiles. With --jobs above 1, \
            images are decoded and classified concurrently and an image's latency runs from the start of \
            its decoding to its result. A progress bar is drawn on stderr when it is a terminal.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Argument(help: "A folder with one sub-folder of images per label.")
    var directory: String

    @Option(name: .customLong("top"), help: "K for top-K accuracy.")
    var k: Int = 5

    @Flag(help: "Print one JSON object instead of a report.")
    var json = false

    @OptionGroup var jobOptions: JobsOptionGroup

    @OptionGroup var imageOptions: ImageOptionGroup

    mutating func validate() throws {
        guard k >= 1 else { throw ValidationError("--top must be at least 1") }
    }

    func run() async throws {
        let jobs = jobOptions.requested
        let classifier = try PhotoClassifier(model, images: imageOptions, concurrentRuns: jobs)
        let output = classifier.labelledOutputs[0]
        let labels = try classifier.bundle.predictionOutputs[output].labels?.values ?? []
        let samples = try Self.samples(in: URL(fileURLWithPath: directory), labels: labels, output: output)

        var progress = ProgressBar(total: samples.count, label: "eval")
        var top1 = 0, topK = 0
        var confusions: [String: [String: Int]] = [:]
        var latencies: [Double] = []
        latencies.reserveCapacity(samples.count)
        // An unreadable image does not lose the others: the report covers those read, and the failures
        // follow it, with exit status 1.
        var failures = InputFailures()
        // Decoding and inference of up to `jobs` images overlap on TensorIO's threads; results come back in
        // sample order, each image's latency from the start of its decoding.
        let starts = StartTimes(count: samples.count)
        let evalStart = DispatchTime.now().uptimeNanoseconds
        var index = 0
        for await result in classifier.model.results(for: samples.indices, concurrency: min(jobs, max(1, samples.count)), input: { index in
            starts.record(index)
            return try classifier.input(samples[index].url)
        }) {
            defer { index += 1 }
            let sample = samples[index]
            let outputs: Outputs
            do {
                outputs = try result.get()
            } catch {
                failures.record(error, path: sample.url.relativePath)
                progress.update(index + 1)
                continue
            }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - starts[index]) / 1_000_000)
            let best = try outputs[output].labeled.top(k).map(\.label)
            if best.first == sample.label { top1 += 1 } else if let predicted = best.first {
                confusions[sample.label, default: [:]][predicted, default: 0] += 1
            }
            if best.contains(sample.label) { topK += 1 }
            progress.update(index + 1)
        }
        progress.finish()
        guard !latencies.isEmpty else { throw failures }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - evalStart) / 1e9

        let report = Report(
            images: latencies.count, unreadable: failures.messages.count, top1: top1, topK: topK, k: k,
            confusions: confusions.flatMap { label, predictions in predictions.map { (label, $0.key, $0.value) } }
                .sorted { ($0.2, $1.0, $1.1) > ($1.2, $0.0, $0.1) },
            latencies: latencies.sorted(), imagesPerSecond: Double(samples.count) / max(seconds, 1e-9), jobs: jobs
        )
        print(json ? JSONText.render(report.json) : report.text)
        if !failures.isEmpty { throw failures }
    }

    struct Sample: Sendable {
        let url: URL
        let label: String
    }

    /// Every image file in the label folders, sorted so runs are repeatable.
    static func samples(in directory: URL, labels: [String], output: String) throws -> [Sample] {
        let fileManager = FileManager.default
        let folders: [URL]
        do {
            folders = try fileManager.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
                .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw CLIError("cannot read the folder \(directory.relativePath): \(SystemErrorText.reason(of: error))")
        }
        guard !folders.isEmpty else { throw CLIError("\(directory.relativePath) has no label folders") }
        let known = Set(labels)
        var samples: [Sample] = []
        for folder in folders {
            let label = folder.lastPathComponent
            guard known.contains(label) else {
                throw CLIError("folder \"\(label)\" in \(directory.relativePath) is not a label of output \"\(output)\"")
            }
            let files = (try? fileManager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])) ?? []
            samples += files.filter { ["jpg", "jpeg", "png"].contains($0.pathExtension.lowercased()) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
                .map { Sample(url: $0, label: label) }
        }
        guard !samples.isEmpty else { throw CLIError("no JPEG or PNG images under \(directory.relativePath)") }
        return samples
    }

    struct Report {
        /// The images classified (those read).
        let images: Int
        /// The images that could not be read or run.
        let unreadable: Int
        let top1: Int
        let topK: Int
        let k: Int
        let confusions: [(label: String, predicted: String, count: Int)]
        let latencies: [Double]
        /// Every sample (read or not) over the whole run's wall time.
        let imagesPerSecond: Double
        let jobs: Int

        func percentile(_ p: Double) -> Double {
            latencies[min(latencies.count - 1, Int((p / 100 * Double(latencies.count - 1)).rounded()))]
        }

        var mean: Double { latencies.reduce(0, +) / Double(latencies.count) }

        var text: String {
            var lines = [
                unreadable > 0 ? "images: \(images) (\(unreadable) more could not be read; see below)" : "images: \(images)",
                String(format: "top-1 accuracy: %.4f (%d/%d)", Double(top1) / Double(images), top1, images),
                String(format: "top-%d accuracy: %.4f (%d/%d)", k, Double(topK) / Double(images), topK, images),
                String(format: "latency per image (ms): mean %.3f, p50 %.3f, p90 %.3f, p99 %.3f, max %.3f",
                       mean, percentile(50), percentile(90), percentile(99), latencies.last ?? 0),
                String(format: "throughput: %.1f images/s with %d job%@", imagesPerSecond, jobs, jobs == 1 ? "" : "s"),
            ]
            if confusions.isEmpty {
                lines.append("no confusions")
            } else {
                lines.append("most frequent confusions (true → predicted):")
                lines += confusions.prefix(10).map { "  \($0.label) → \($0.predicted): \($0.count)" }
            }
            return lines.joined(separator: "\n")
        }

        var json: JSONText.Value {
            .object([
                ("images", .integer(Int64(images))),
                ("unreadable", .integer(Int64(unreadable))),
                ("top1", .double(Double(top1) / Double(images))),
                ("top_k", .double(Double(topK) / Double(images))),
                ("k", .integer(Int64(k))),
                ("confusions", .array(confusions.map {
                    .object([("label", .string($0.label)), ("predicted", .string($0.predicted)), ("count", .integer(Int64($0.count)))])
                })),
                ("latency_ms", .object([
                    ("mean", .double(mean)), ("p50", .double(percentile(50))), ("p90", .double(percentile(90))),
                    ("p99", .double(percentile(99))), ("max", .double(latencies.last ?? 0)),
                ])),
                ("images_per_second", .double(imagesPerSecond)),
                ("jobs", .integer(Int64(jobs))),
            ])
        }
    }
}

/// When each sample's decoding started, written by TensorIO's run threads and read by the command.
private final class StartTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [UInt64]

    init(count: Int) { times = [UInt64](repeating: 0, count: count) }

    func record(_ index: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock { times[index] = now }
    }

    subscript(index: Int) -> UInt64 { lock.withLock { times[index] } }
}
