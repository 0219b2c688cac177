import Foundation
import Testing
@_spi(Internal) @testable import TensorIO

/// TensorIO's run threads on their own (a private set, so other suites' runs do not share them). The
/// Makefile's thread-sanitizer pass runs it too.
@Suite("Concurrency: run threads")
struct RunThreadsTests {
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        var isRaised: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
    }

    @Test("a run queued behind busy threads gets CancellationError at once when its task is cancelled",
          .timeLimit(.minutes(1)))
    func cancelledWhileQueued() async throws {
        let threads = RunThreads(threadCount: 2)
        let release = DispatchSemaphore(value: 0)
        let blockersStarted = DispatchSemaphore(value: 0)
        // Both threads held by jobs that wait for `release`.
        for _ in 0..<2 {
            threads.submit {
                blockersStarted.signal()
                release.wait()
            }
        }
        blockersStarted.wait()
        blockersStarted.wait()
        let bodyRan = Flag()
        let queued = Task { try await threads.perform { _ in bodyRan.raise() } }
        try await Task.sleep(for: .milliseconds(20))
        queued.cancel()
        // Before the fix this waited until a thread was free, which here is never.
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(!bodyRan.isRaised)
        release.signal()
        release.signal()
        // The threads go on: the skipped job does not stop them.
        #expect(try await threads.perform { _ in 42 } == 42)
        #expect(!bodyRan.isRaised, "a job whose task was cancelled while queued ran anyway")
    }

    @Test("a task cancelled before its job is queued never runs it")
    func cancelledBeforeQueued() async throws {
        let threads = RunThreads(threadCount: 2)
        let bodyRan = Flag()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await threads.perform { _ in bodyRan.raise() }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await threads.perform { _ in 7 } == 7)
        #expect(!bodyRan.isRaised)
    }
}
