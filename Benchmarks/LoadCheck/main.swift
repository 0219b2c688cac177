// Usage: load-check-benchmark [ITERATIONS] [BUNDLE...]
//   (defaults: 20, Examples/efficientnet-lite0-float32.tiobundle, relative to the working directory)
//
// What an isolated load check costs next to its alternatives, in one run, interleaved so that all see
// the same machine load: (a) loading the model in this process, as an app does (`makeModel` + `load`);
// (b) `checkLoading(.inProcess)`, the same plus one run on zeros; (c) `checkLoading(.isolated)`,
// which does (b) in a fresh `tensorio-load-check` process (found next to this program). Prints medians
// and 90th percentiles, and the child's peak memory.
import Foundation
import TensorIO
import BenchmarkStatistics

let arguments = Array(CommandLine.arguments.dropFirst())
let iterations = arguments.first.flatMap(Int.init) ?? 20
let bundlePaths = arguments.count > 1 ? Array(arguments.dropFirst()) : ["Examples/efficientnet-lite0-float32.tiobundle"]
guard iterations > 0 else {
    FileHandle.standardError.write(Data("usage: load-check-benchmark [ITERATIONS] [BUNDLE...]\n".utf8))
    exit(2)
}

func line(_ name: String, _ values: [Double]) -> String {
    String(format: "  %-44@ median %8.2f ms   p90 %8.2f ms", name as NSString, percentile(values, 0.5), percentile(values, 0.9))
}

print("iterations: \(iterations), interleaved")
for path in bundlePaths {
    do {
        let bundle = try ModelBundle(at: URL(fileURLWithPath: path))
        var plain: [Double] = []
        var inProcess: [Double] = []
        var isolated: [Double] = []
        var peak: [Double] = []
        // One warm-up round: the first load opens the runtime library and pages the model in.
        for round in 0...iterations {
            let a = try milliseconds { try bundle.makeModel().load() }
            let b = try milliseconds { try bundle.checkLoading(.inProcess) }
            var report: LoadReport?
            let c = try milliseconds { report = try bundle.checkLoading(.isolated) }
            guard round > 0 else { continue }
            plain.append(a)
            inProcess.append(b)
            isolated.append(c)
            peak.append(Double(report?.peakMemoryBytes ?? 0) / 1_048_576)
        }
        print(path)
        print(line("load in this process (makeModel + load)", plain))
        print(line("checkLoading(.inProcess) (load + run)", inProcess))
        print(line("checkLoading(.isolated) (child process)", isolated))
        print(String(format: "  isolated / in-process: %.1f×; child's peak memory: median %.0f MiB",
                     percentile(isolated, 0.5) / percentile(inProcess, 0.5), percentile(peak, 0.5)))
    } catch {
        FileHandle.standardError.write(Data("load-check-benchmark: \(path): \(error)\n".utf8))
        exit(1)
    }
}
