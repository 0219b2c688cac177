import Foundation
internal import TensorIOSupport

/// The continuation of an async run queued on ``RunThreads``, resumed exactly once: by the thread that
/// runs the job, or at once by the task's cancellation while the job still waits in the queue.
///
/// Without it a cancelled run stayed suspended until a thread reached its job, which under load (every
/// thread busy with other models' runs) could take seconds.
final class QueuedRun<Value: Sendable>: Sendable {
    private enum State {
        /// No continuation yet; `cancelled` when the task was cancelled before it came.
        case waitingForContinuation(cancelled: Bool)
        case queued(CheckedContinuation<Value, any Error>)
        /// A thread took the job: it resumes the continuation.
        case started
        case resumed
    }

    private let state = LockedValue(State.waitingForContinuation(cancelled: false))

    /// Takes the continuation; `false` when the task was already cancelled (it is then resumed with
    /// `CancellationError`, and the job must not be queued).
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let queue = state.withLock { state -> Bool in
            guard case .waitingForContinuation(cancelled: false) = state else {
                state = .resumed
                return false
            }
            state = .queued(continuation)
            return true
        }
        if !queue { continuation.resume(throwing: CancellationError()) }
        return queue
    }

    /// Resumes with `CancellationError` unless a thread has taken the job.
    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waitingForContinuation:
                state = .waitingForContinuation(cancelled: true)
                return nil
            case .queued(let continuation):
                state = .resumed
                return continuation
            case .started, .resumed:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// Called by the thread that took the job: the continuation to resume when it is done, or `nil` when
    /// cancellation already resumed it (the job is then skipped).
    func start() -> CheckedContinuation<Value, any Error>? {
        state.withLock { state in
            guard case .queued(let continuation) = state else { return nil }
            state = .started
            return continuation
        }
    }
}
