import Foundation

/// Threads TensorIO owns for async runs and training steps, so that model work — which blocks on the
/// runtime and on busy model instances — never occupies a thread of Swift's cooperative pool, where it
/// would delay every other task in the process.
///
/// One thread per active core: async callers queue here and their tasks suspend. Jobs run in the order
/// they were submitted.
@_spi(Internal) public final class RunThreads: @unchecked Sendable {
    /// The threads every model's async API uses.
    @_spi(Internal) public static let shared = RunThreads(threadCount: ProcessInfo.processInfo.activeProcessorCount)

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []  // guarded by `condition`
    private var head = 0  // guarded by `condition`: jobs before it have been taken

    /// Starts `threadCount` threads (at least two, so one long job never holds up every other).
    init(threadCount: Int) {
        for index in 0..<max(2, threadCount) {
            let thread = Thread { [self] in work() }
            thread.name = "TensorIO run \(index)"
            thread.start()
        }
    }

    /// Queues a job for the next free thread.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on one of the threads while the calling task suspends, honouring its cancellation:
    /// a task cancelled while its job waits in the queue gets `CancellationError` at once (the job is
    /// then skipped); one cancelled while it runs is told through the ``RunCancellation`` that `body`
    /// checks between its stages.
    ///
    /// - Parameter body: The work; it receives the run's cancellation.
    /// - Returns: What `body` returns.
    /// - Throws: `CancellationError`, or what `body` throws.
    @_spi(Internal) public func perform<Value: Sendable>(_ body: @escaping @Sendable (RunCancellation) throws -> Value) async throws -> Value {
        try Task.checkCancellation()
        let cancellation = RunCancellation()
        if isCurrentThread {
            // The task already runs on one of these threads (a ModelTrainer's, through ``executor``): it
            // is off the cooperative pool, so the work runs right here. Moving it to another of these
            // threads and back woke two threads per call, which on two cores cost more than a small
            // model's training step.
            return try await withTaskCancellationHandler {
                try body(cancellation)
            } onCancel: {
                cancellation.cancel()
            }
        }
        let queued = QueuedRun<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                guard queued.install(continuation) else { return }
                submit {
                    guard let continuation = queued.start() else { return }
                    continuation.resume(with: Result {
                        try cancellation.check()
                        return try body(cancellation)
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
            queued.cancel()
        }
    }

    /// A task executor over these threads. A task that prefers it (`withTaskExecutorPreference`) runs
    /// on them, and the model calls it awaits (``perform(_:)``) then run without a thread hop. A new
    /// small object each time: it only forwards jobs (task executors need Swift 6's runtime, so it
    /// cannot be a stored property of a type that supports older systems).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    var executor: Executor { Executor(threads: self) }

    /// Runs a task's jobs on ``RunThreads``.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class Executor: TaskExecutor {
        private let threads: RunThreads

        init(threads: RunThreads) {
            self.threads = threads
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            threads.submit { job.runSynchronously(on: executor) }
        }
    }

    /// Whether the calling thread is one of these (each is marked with its owner when it starts).
    private var isCurrentThread: Bool {
        ThreadOwnerMark.isCurrentThread(ownedBy: self)
    }

    private func work() {
        ThreadOwnerMark.markCurrentThread(as: self)
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            // Drop taken jobs now and then rather than shifting the array on every take.
            if head > 64, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
