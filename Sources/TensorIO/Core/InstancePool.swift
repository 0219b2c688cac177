import Foundation

/// The loaded instances of one model, made on first use and handed to runs.
///
/// Exclusive instances (LiteRT compiled models) serve one run at a time: a run takes an idle one, makes
/// a new one while there are fewer than the engine's maximum, or waits for one to come back. A shared
/// instance (a TensorFlow session) serves every run at once and is made once, one load at a time.
/// ``drain()`` starts a new generation: idle instances go at once, busy ones when their run ends.
final class InstancePool: @unchecked Sendable {
    /// An instance lent to one run.
    struct Lease {
        let instance: any BackendInstance
        fileprivate let generation: Int
    }

    private let engine: any BackendEngine
    /// Read from the engine once: acquire and release ask on every run.
    private let shares: Bool
    private let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var idle: [any BackendInstance] = []
    private var shared: (any BackendInstance)?
    private var created = 0
    private var generation = 0

    init(engine: any BackendEngine) {
        self.engine = engine
        shares = engine.instancesRunConcurrently
        capacity = shares ? 1 : max(1, engine.maximumInstances)
    }

    /// Whether an instance exists (idle or in use) in the current generation.
    var isLoaded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return created > 0 && (shared != nil || !shares)
    }

    /// An instance for one run; give it back with ``release(_:)``.
    ///
    /// - Parameter cancellation: Stops the wait for a busy instance when the run's task is cancelled.
    /// - Throws: What loading throws; `CancellationError` when cancelled while waiting.
    func acquire(cancellation: RunCancellation? = nil) throws -> Lease {
        guard let cancellation else { return try acquireWaiting(nil) }
        return try cancellation.whileWaiting(wake: { [condition] in
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }) {
            try acquireWaiting(cancellation)
        }
    }

    private func acquireWaiting(_ cancellation: RunCancellation?) throws -> Lease {
        condition.lock()
        while true {
            if let cancellation, cancellation.isCancelled {
                condition.unlock()
                throw CancellationError()
            }
            if let shared {
                let lease = Lease(instance: shared, generation: generation)
                condition.unlock()
                return lease
            }
            if !shares, let instance = idle.popLast() {
                let lease = Lease(instance: instance, generation: generation)
                condition.unlock()
                return lease
            }
            if created < capacity {
                created += 1
                let current = generation
                condition.unlock()
                // Loading takes milliseconds to seconds: other runs go on meanwhile.
                let instance: any BackendInstance
                do {
                    instance = try engine.makeInstance()
                } catch {
                    condition.lock()
                    if generation == current { created -= 1 }
                    condition.broadcast()
                    condition.unlock()
                    throw error
                }
                if shares {
                    condition.lock()
                    if generation == current { shared = instance }
                    condition.broadcast()
                    condition.unlock()
                }
                return Lease(instance: instance, generation: current)
            }
            condition.wait()
        }
    }

    /// Gives an instance back after its run.
    func release(_ lease: Lease) {
        guard !shares else { return }
        condition.lock()
        if lease.generation == generation { idle.append(lease.instance) }
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` with an instance, giving it back afterwards.
    func withInstance<Result>(cancellation: RunCancellation? = nil, _ body: (any BackendInstance) throws -> Result) throws -> Result {
        let lease = try acquire(cancellation: cancellation)
        defer { release(lease) }
        return try body(lease.instance)
    }

    /// Drops every instance: idle ones now, busy ones when their run ends. The next run loads anew.
    func drain() {
        condition.lock()
        let dropped = (idle, shared)
        idle = []
        shared = nil
        created = 0
        generation += 1
        condition.broadcast()
        condition.unlock()
        _ = dropped  // freed here, outside the lock
    }
}
