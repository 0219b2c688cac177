import Foundation
internal import TensorIOSupport

/// Carries a task's cancellation into work running on TensorIO's own threads, where
/// `Task.isCancelled` cannot be asked: the core checks it between the stages of a run and a waiter
/// for a busy model instance is woken by it.
@_spi(Internal) public final class RunCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var waker: (@Sendable () -> Void)?
    }

    private let state = LockedValue(State())

    /// Whether the task that started the run was cancelled.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Marks the run cancelled and wakes whatever it waits for.
    func cancel() {
        let waker = state.withLock { state -> (@Sendable () -> Void)? in
            state.isCancelled = true
            return state.waker
        }
        waker?()
    }

    /// Throws `CancellationError` once the run is cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Calls `waker` on cancellation while `body` runs (it must not take a lock `waker` takes).
    func whileWaiting<Result>(wake waker: @escaping @Sendable () -> Void, _ body: () throws -> Result) rethrows -> Result {
        state.withLock { $0.waker = waker }
        defer { state.withLock { $0.waker = nil } }
        return try body()
    }
}
