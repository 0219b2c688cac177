// Usage: model-load-benchmark [ITERATIONS] [BUNDLE]
//   (defaults: 30, Examples/efficientnet-lite0-float32.tiobundle, relative to the working directory)
//
// What model verification costs: in one run, interleaved so both see the same machine load, times
// (a) TensorIO's full load, `bundle.makeModel().load()` (open and map the file, verify it, LiteRT
// parses and compiles it), and (b) the verification alone on the same file (open, map, verify).
// Also times (c) the verifier alone on a mapping it has already read once (its CPU cost, without
// first-touch page faults). Prints the median and 90th percentile of
// each and the verifier's share of the load.
import Foundation
import TensorIO
// The verifier (package access in TensorIO), compiled into this package from the same files.
import TensorIOModelFile
import BenchmarkStatistics

let arguments = Array(CommandLine.arguments.dropFirst())
let iterations = arguments.first.flatMap(Int.init) ?? 30
let bundlePath = arguments.count > 1 ? arguments[1] : "Examples/efficientnet-lite0-float32.tiobundle"
guard iterations > 0 else {
    FileHandle.standardError.write(Data("usage: model-load-benchmark [ITERATIONS] [BUNDLE]\n".utf8))
    exit(2)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("model-load-benchmark: \(message)\n".utf8))
    exit(1)
}

let bundle: ModelBundle
do {
    bundle = try ModelBundle(at: URL(fileURLWithPath: bundlePath))
} catch {
    fail("\(bundlePath): \(error)")
}
guard let modelURL = bundle.modelFileURL else { fail("\(bundlePath) is a placeholder bundle") }

var loads: [Double] = []
var verifications: [Double] = []
var verificationsOnly: [Double] = []
var summary = TFLiteModelVerifier.Summary()
// The verifier as loading calls it: with the default ModelLimits' bound on tensor sizes.
let limits = TFLiteModelVerifier.Limits(maximumElementsPerTensor: ModelLimits().maximumElementsPerTensor)
do {
    // One warm-up of each: the first load also opens LiteRT and faults the file into the page cache.
    for round in 0..<(iterations + 1) {
        let load = try milliseconds {
            let model = try bundle.makeModel()
            try model.load()
            model.unload()
        }
        let verification = try milliseconds {
            let data = try Data(contentsOf: modelURL, options: .alwaysMapped)
            summary = try data.withUnsafeBytes { try TFLiteModelVerifier.verify($0, limits: limits, fileName: bundle.modelFile.path) }
        }
        // The verifier on a mapping whose pages this process has already touched: its own CPU work.
        // A fresh mapping (b) adds page faults, but the load path's LiteRT and XNNPack touch those same
        // pages right after verification (they parse the tables and pack every weight), so in a load
        // the faults move rather than add up.
        let data = try Data(contentsOf: modelURL, options: .alwaysMapped)
        _ = try data.withUnsafeBytes { try TFLiteModelVerifier.verify($0, limits: limits, fileName: bundle.modelFile.path) }
        let verificationOnly = try milliseconds {
            summary = try data.withUnsafeBytes { try TFLiteModelVerifier.verify($0, limits: limits, fileName: bundle.modelFile.path) }
        }
        if round > 0 {
            loads.append(load)
            verifications.append(verification)
            verificationsOnly.append(verificationOnly)
        }
    }
} catch {
    fail("\(error)")
}

func format(_ value: Double) -> String { String(format: "%.3f", value) }

let loadMedian = percentile(loads, 0.5)
let verifyMedian = percentile(verifications, 0.5)
print("model: \(bundlePath) (\(summary.byteCount) bytes, \(summary.tensorCount) tensors, \(summary.operatorCount) operators)")
print("iterations: \(iterations), interleaved")
print("full load (makeModel().load()): median \(format(loadMedian)) ms, p90 \(format(percentile(loads, 0.9))) ms")
print("verification alone (map + verify): median \(format(verifyMedian)) ms, p90 \(format(percentile(verifications, 0.9))) ms")
let verifyOnlyMedian = percentile(verificationsOnly, 0.5)
print("verify on a mapping already read once: median \(format(verifyOnlyMedian)) ms, p90 \(format(percentile(verificationsOnly, 0.9))) ms")
print("verifier share of load time (medians): \(String(format: "%.2f", 100 * verifyMedian / loadMedian))% with mapping, \(String(format: "%.2f", 100 * verifyOnlyMedian / loadMedian))% verify alone")
