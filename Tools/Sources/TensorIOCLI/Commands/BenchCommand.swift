import ArgumentParser
import Dispatch
import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport

/// `tensorio bench BUNDLE [--runs N] [--warmup N] [--threads N] [--image PATH] [--json]`
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure a model's load and run times and memory, with benchmark_model's figures.",
        discussion: """
            Reports init time, first inference, warm-up average and the runs' average, min, max, std, p50 \
            and p95 (µs); the split of each run between TensorIO's own work and the runtime's invoke; memory \
            at init and overall, peak RSS and RSS growth over the runs (MB); throughput with several \
            concurrent callers on the one model; and with --image, the end-to-end time (decode + preprocess \
            + run + outputs). Inputs are random values of each layer's type unless --image is given.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    @Option(help: "Timed runs.")
    var runs: Int = 50

    @Option(help: "Warm-up runs before the timed ones (after the first inference).")
    var warmup: Int = 1

    @Option(help: "A JPEG or PNG for the image input; also measures end to end.")
    var image: String?

    @Option(help: "Concurrent callers sharing the model for the throughput figure (1 to skip it).")
    var callers: Int = 2

    @Flag(help: "Print one JSON object with snake_case keys.")
    var json = false

    @Flag(help: "Also measure RSS growth over --runs async runs and over --runs runs from the concurrent callers.")
    var memoryModes = false

    mutating func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be at least 0") }
        guard (1...64).contains(callers) else { throw ValidationError("--callers must be between 1 and 64") }
    }

    func run() throws {
        let memoryStart = ProcessMemory.residentMB()
        var start = DispatchTime.now().uptimeNanoseconds
        // The shared model may run as many calls at once as there are callers (one compiled model each).
        let (bundle, model) = try self.model.makeModel(concurrentRuns: callers)
        try RuntimeLog.capturing { try model.load() }
        let initMicroseconds = Self.microseconds(since: start)
        let memoryInit = ProcessMemory.residentMB() - memoryStart

        let imageLayer = bundle.predictionInputs.first(where: \.isImage)
        let imageURL = image.map { URL(fileURLWithPath: $0) }
        if imageURL != nil, bundle.predictionInputs.count != 1 || imageLayer == nil {
            throw CLIError("--image needs a model with one input, an image layer")
        }
        let targetSize = imageLayer?.imageSize
        let input: InputValue = try imageURL.map { .image(try PixelBuffer(contentsOf: $0, targetSize: targetSize)) }
            ?? RandomInputs.value(for: model)

        start = DispatchTime.now().uptimeNanoseconds
        _ = try RuntimeLog.capturing { try model.run(input) }
        let firstInference = Self.microseconds(since: start)

        // Drawn on a terminal only, between timed runs (a redraw is one short write, at most 30 times).
        let profiled = model is any ProfilingModel
        var progress = ProgressBar(total: warmup + runs * (1 + (profiled ? 1 : 0) + (imageURL == nil ? 0 : 1)), label: "bench")
        var done = 0
        /// The microseconds of each of `count` calls of `body`, the bar moved on after each.
        func timedRuns(_ count: Int, _ body: () throws -> Void) rethrows -> [Double] {
            var times: [Double] = []
            times.reserveCapacity(count)
            for _ in 0..<count {
                let start = DispatchTime.now().uptimeNanoseconds
                try body()
                times.append(Self.microseconds(since: start))
                done += 1
                progress.update(done)
            }
            return times
        }
        let warmupTimes = try timedRuns(warmup) { _ = try model.run(input) }
        let memoryWarm = ProcessMemory.residentMB()

        var overheads: [Double] = [], invokes: [Double] = []
        overheads.reserveCapacity(runs)
        invokes.reserveCapacity(runs)
        // The timed runs are plain runs, as an app makes them; the split between TensorIO's work and the
        // runtime's comes from a second pass of profiled runs, whose clock reads would otherwise add to
        // every timed run (a tenth of a microsecond on the smallest models).
        let times = try timedRuns(runs) { _ = try model.run(input) }
        let memoryAfter = ProcessMemory.residentMB()
        if let profiling = model as? any ProfilingModel {
            for _ in 0..<runs {
                let (_, profile) = try profiling.runProfiled(input)
                overheads.append(Self.microseconds(profile.overhead))
                invokes.append(Self.microseconds(profile.invoke))
                done += 1
                progress.update(done)
            }
        }

        let endToEnd = try imageURL.map { imageURL in
            try timedRuns(runs) { _ = try model.run(try PixelBuffer(contentsOf: imageURL, targetSize: targetSize)) }
        } ?? []

        progress.finish()
        let makeInput = { imageURL == nil ? try RandomInputs.value(for: model) : input }
        let throughput = callers > 1
            ? try Self.throughput(model, input: input, makeInput: makeInput, callers: callers, runs: max(runs, 20)) : nil
        var growth: (async: Double, pooled: Double)?
        if memoryModes {
            growth = (try Self.asyncRSSGrowth(model, input: input, runs: runs),
                      try Self.pooledRSSGrowth(model, input: input, callers: max(callers, 2), runs: runs))
        }

        let report = Report(
            initMicroseconds: initMicroseconds, firstInference: firstInference, warmup: warmupTimes, runs: Statistics(times),
            overhead: overheads.isEmpty ? nil : Statistics(overheads).mean, invoke: invokes.isEmpty ? nil : Statistics(invokes).mean,
            memoryInit: memoryInit, memoryOverall: memoryAfter - memoryStart, peakRSS: ProcessMemory.peakResidentMB(),
            rssGrowth: memoryAfter - memoryWarm, endToEnd: endToEnd.isEmpty ? nil : Statistics(endToEnd).mean,
            throughput: throughput, callers: callers, growth: growth
        )
        print(json ? JSONText.render(report.json) : report.text)
    }

    /// Runs per second with one caller, then with `callers` threads sharing the model.
    ///
    /// Each figure counts the runs made in a fixed time (at least `runs` runs' worth, and at least 0.3 s:
    /// a few milliseconds of a small model's runs measure the threads' scheduling more than the runs).
    /// Each caller has an input of its own (callers run their own data; a single input shared by every
    /// thread would make them contend for its reference counts, which a real app does not), and the
    /// callers first run together untimed, so that the model's extra compiled copies are loaded before
    /// timing: loading one takes longer than thousands of runs of a small model.
    static func throughput(
        _ model: any Model, input: InputValue, makeInput: () throws -> InputValue, callers: Int, runs: Int
    ) throws -> (single: Double, shared: Double) {
        var start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<runs { _ = try model.run(input) }
        let duration = max(300_000_000, DispatchTime.now().uptimeNanoseconds - start)

        start = DispatchTime.now().uptimeNanoseconds
        var singleRuns = 0
        while DispatchTime.now().uptimeNanoseconds - start < duration {
            _ = try model.run(input)
            singleRuns += 1
        }
        let single = Double(singleRuns) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)

        let inputs = try (0..<callers).map { _ in try makeInput() }
        let failures = Failures()
        // Each caller writes only its own count, a cache line apart, once, before concurrentPerform returns.
        nonisolated(unsafe) let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: callers * 16)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0)
        func runTogether(for nanoseconds: UInt64) -> UInt64 {
            let begin = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: callers) { caller in
                var made = 0
                while DispatchTime.now().uptimeNanoseconds - begin < nanoseconds {
                    do { _ = try model.run(inputs[caller]) } catch { failures.record(error) }
                    made += 1
                }
                counts[caller * 16] = made
            }
            return DispatchTime.now().uptimeNanoseconds - begin
        }
        _ = runTogether(for: 50_000_000)
        let elapsed = runTogether(for: duration)
        let sharedRuns = (0..<callers).reduce(0) { $0 + counts[$1 * 16] }
        let shared = Double(sharedRuns) / (Double(elapsed) / 1e9)
        if let error = failures.first { throw error }
        return (single, shared)
    }

    /// RSS growth (MB) over `runs` async runs made one after another by a task, after as many to warm up
    /// (TensorIO's run threads, the task machinery).
    static func asyncRSSGrowth(_ model: any Model, input: InputValue, runs: Int) throws -> Double {
        let failures = Failures()
        let done = DispatchSemaphore(value: 0)
        let before = LockedValue(0.0)
        // A detached task on the cooperative pool; this thread waits for it (the runs themselves go to
        // TensorIO's own threads).
        Task.detached {
            do {
                for _ in 0..<runs { _ = try await model.run(input) }
                before.set(ProcessMemory.residentMB())
                for _ in 0..<runs { _ = try await model.run(input) }
            } catch {
                failures.record(error)
            }
            done.signal()
        }
        done.wait()
        if let error = failures.first { throw error }
        return ProcessMemory.residentMB() - before.get()
    }

    /// RSS growth (MB) over `runs` runs shared between `callers` threads on the one model (each run takes
    /// an instance from the pool and gives it back), after as many to warm up.
    static func pooledRSSGrowth(_ model: any Model, input: InputValue, callers: Int, runs: Int) throws -> Double {
        let failures = Failures()
        let perCaller = max(1, runs / callers)
        func round() {
            DispatchQueue.concurrentPerform(iterations: callers) { _ in
                for _ in 0..<perCaller {
                    do { _ = try model.run(input) } catch { failures.record(error) }
                }
            }
        }
        round()
        let before = ProcessMemory.residentMB()
        round()
        if let error = failures.first { throw error }
        return ProcessMemory.residentMB() - before
    }

    static func microseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}

/// A value read and written from several threads.
private final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}

/// The first error thrown by concurrent callers.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []

    func record(_ error: any Error) { lock.withLock { errors.append(error) } }
    var first: (any Error)? { lock.withLock { errors.first } }
}

/// Average, spread and percentiles of a list of times.
struct Statistics {
    let mean: Double, min: Double, max: Double, std: Double, p50: Double, p95: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        let count = Double(Swift.max(1, sorted.count))
        let average = sorted.reduce(0, +) / count
        mean = average
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        std = (sorted.reduce(0) { $0 + ($1 - average) * ($1 - average) } / count).squareRoot()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Int((p / 100 * (count - 1)).rounded()))]
        }
        p50 = percentile(50)
        p95 = percentile(95)
    }
}

extension BenchCommand {
    struct Report {
        let initMicroseconds: Double
        let firstInference: Double
        let warmup: [Double]
        let runs: Statistics
        let overhead: Double?
        let invoke: Double?
        let memoryInit: Double
        let memoryOverall: Double
        let peakRSS: Double
        let rssGrowth: Double
        let endToEnd: Double?
        let throughput: (single: Double, shared: Double)?
        let callers: Int
        let growth: (async: Double, pooled: Double)?

        var warmupAverage: Double { warmup.isEmpty ? 0 : warmup.reduce(0, +) / Double(warmup.count) }

        var json: JSONText.Value {
            var members: [(String, JSONText.Value)] = [
                ("init_us", .double(initMicroseconds)),
                ("first_inference_us", .double(firstInference)),
                ("warmup_avg_us", .double(warmupAverage)),
                ("inference_avg_us", .double(runs.mean)),
                ("inference_min_us", .double(runs.min)),
                ("inference_max_us", .double(runs.max)),
                ("inference_std_us", .double(runs.std)),
                ("inference_p50_us", .double(runs.p50)),
                ("inference_p95_us", .double(runs.p95)),
                ("memory_init_mb", .double(memoryInit)),
                ("memory_overall_mb", .double(memoryOverall)),
                ("peak_rss_mb", .double(peakRSS)),
                ("rss_growth_mb", .double(rssGrowth)),
            ]
            if let overhead { members.append(("tensorio_overhead_avg_us", .double(overhead))) }
            if let invoke { members.append(("invoke_avg_us", .double(invoke))) }
            if let endToEnd { members.append(("end_to_end_avg_us", .double(endToEnd))) }
            if let growth {
                members.append(("rss_growth_async_mb", .double(growth.async)))
                members.append(("rss_growth_pooled_mb", .double(growth.pooled)))
            }
            if let throughput {
                members.append(("concurrency", .object([
                    ("callers_1_runs_per_s", .double(throughput.single)),
                    ("callers_\(callers)_runs_per_s", .double(throughput.shared)),
                ])))
            }
            return .object(members)
        }

        var text: String {
            func us(_ value: Double) -> String { String(format: "%.1f µs", value) }
            func mb(_ value: Double) -> String { String(format: "%.2f MB", value) }
            var lines = [
                "Init: \(us(initMicroseconds))",
                "First inference: \(us(firstInference))",
                "Warm-up (avg of \(warmup.count)): \(us(warmupAverage))",
                "Inference: avg \(us(runs.mean)), min \(us(runs.min)), max \(us(runs.max)), std \(us(runs.std)), p50 \(us(runs.p50)), p95 \(us(runs.p95))",
            ]
            if let overhead, let invoke {
                lines.append("Split (avg): TensorIO \(us(overhead)), runtime invoke \(us(invoke))")
            }
            if let endToEnd { lines.append("End to end (decode + preprocess + run + outputs, avg): \(us(endToEnd))") }
            lines.append("Memory: init \(mb(memoryInit)), overall \(mb(memoryOverall)), peak RSS \(mb(peakRSS)), growth over the runs \(mb(rssGrowth))")
            if let growth {
                lines.append("Memory growth over as many async runs: \(mb(growth.async)); from concurrent callers: \(mb(growth.pooled))")
            }
            if let throughput {
                lines.append(String(format: "Throughput: 1 caller %.0f runs/s, %d callers %.0f runs/s", throughput.single, callers, throughput.shared))
            }
            return lines.joined(separator: "\n")
        }
    }
}
