import Foundation

/// Whether a live stream's blocking reads should give up: its consumer has gone, or nothing has come from
/// it for ``timeout``. FFmpeg's interrupt callback and the standard-input reader ask while they wait; each
/// packet read tells it of progress.
final class LiveInterrupt: @unchecked Sendable {
    /// How long a stream may send nothing (while connecting, or between packets) before it is given up.
    let timeout: Duration
    private let lock = NSLock()
    // Guarded by `lock`.
    private var cancelled = false
    private var lastProgress = ContinuousClock.now

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The consumer has gone: every wait gives up.
    func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Something came from the stream: the timeout starts again.
    func progressed() {
        lock.withLock { lastProgress = .now }
    }

    /// Whether the consumer has gone.
    var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// Whether nothing has come for longer than ``timeout``.
    var timedOut: Bool {
        lock.withLock { ContinuousClock.now - lastProgress > timeout }
    }

    /// Whether a wait should give up, for either reason.
    var shouldStop: Bool {
        lock.withLock { cancelled || ContinuousClock.now - lastProgress > timeout }
    }
}
