// Whether Swift's cooperative pool stays free while 40 tasks run a model, measured in a process of its
// own so that nothing else (other tests) occupies the pool. AsyncRunTests runs it.
//
//   async-run-probe BUNDLE PHOTO async|blocking
//
// Prints one JSON line: the lateness of 20 sleeps of 1 ms taken while the runs go on, and whether the
// runs were still going when the last sleep ended. "blocking" calls the synchronous run from the tasks,
// the mistake the async API avoids, so the test can show what the measure catches.
import Foundation
import TensorIO

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, ["async", "blocking"].contains(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: async-run-probe BUNDLE PHOTO async|blocking\n".utf8))
    exit(64)
}
let model = try ModelBundle(at: URL(fileURLWithPath: arguments[1])).makeModel()
let photo = try PixelBuffer(contentsOf: URL(fileURLWithPath: arguments[2]))
let blocking = arguments[3] == "blocking"
_ = try model.run(photo)  // loaded before timing anything

let tasks = 40
let runsPerTask = 3
let finished = Counter()
let runners = Task.detached {
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<tasks {
            group.addTask {
                for _ in 0..<runsPerTask {
                    if blocking {
                        _ = try? { try model.run(photo) }()
                    } else {
                        _ = try? await model.run(photo)
                    }
                    finished.increment()
                }
            }
        }
    }
}
try await Task.sleep(for: .milliseconds(20))  // the runners are under way
// Measured on the cooperative pool (a detached task), not on the main thread that runs top-level code.
var lateness = try await Task.detached {
    let clock = ContinuousClock()
    var lateness: [Double] = []
    for _ in 0..<20 {
        let start = clock.now
        try await Task.sleep(for: .milliseconds(1))
        let late = clock.now - start - .milliseconds(1)
        lateness.append(Double(late.components.seconds) * 1000 + Double(late.components.attoseconds) / 1e15)
    }
    return lateness
}.value
let stillRunning = finished.value < tasks * runsPerTask
await runners.value
lateness.sort()
print(#"{"medianMilliseconds": \#(lateness[lateness.count / 2]), "maximumMilliseconds": \#(lateness.last ?? 0), "stillRunning": \#(stillRunning), "finished": \#(finished.value), "expected": \#(tasks * runsPerTask)}"#)
