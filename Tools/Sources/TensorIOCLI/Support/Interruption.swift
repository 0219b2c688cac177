#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// Ctrl-C for work that stops cleanly when its task is cancelled (`train-classifier`, whose library removes
/// what it had begun to write). From ``init()`` to ``remove()``, SIGINT does not end the process: it is
/// noted (``happened``) and cancels the task ``run(_:)`` runs, if any.
final class Interruption: @unchecked Sendable {
    /// How the work ended.
    enum Outcome<Value: Sendable>: Sendable {
        /// It finished (even when SIGINT came too late to stop it).
        case finished(Value)
        /// SIGINT came and the work stopped with this error (`CancellationError`, usually).
        case interrupted(any Error)
    }

    private let lock = NSLock()
    private var interrupted = false  // guarded by `lock`
    private var cancel: (@Sendable () -> Void)?  // guarded by `lock`: cancels the task of run(_:)
    private var source: (any DispatchSourceSignal)?

    /// Starts taking SIGINT.
    init() {
        // The signal stays ignored while the source is there: the source sees it, the process does not end.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.interrupt() }
        source.resume()
        self.source = source
    }

    /// Whether SIGINT came.
    var happened: Bool { lock.withLock { interrupted } }

    /// Gives SIGINT its default action back.
    func remove() {
        source?.cancel()
        source = nil
        signal(SIGINT, SIG_DFL)
    }

    private func interrupt() {
        let cancel = lock.withLock {
            interrupted = true
            return self.cancel
        }
        cancel?()
    }

    /// Runs `work` in a task of its own that SIGINT cancels (at once if it came already).
    ///
    /// - Parameter work: The work; it must end soon after its task is cancelled.
    /// - Returns: What it returned, or that SIGINT stopped it.
    /// - Throws: What it threw when no SIGINT came.
    func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Outcome<Value> {
        let task = Task { try await work() }
        let cancelNow = lock.withLock {
            cancel = { task.cancel() }
            return interrupted
        }
        if cancelNow { task.cancel() }
        defer { lock.withLock { cancel = nil } }
        do {
            return .finished(try await task.value)
        } catch {
            if happened { return .interrupted(error) }
            throw error
        }
    }
}
