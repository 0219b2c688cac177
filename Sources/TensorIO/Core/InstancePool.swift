import Foundation

/// The loaded instances of one model, made on first use and handed to runs.
///
/// Exclusive instances (LiteRT compiled models) serve one run at a time, each from a slot of its own: a
/// run takes an idle one, loads a new one into an empty slot (there are as many slots as the engine
/// allows instances), or waits for one to come back. A shared instance (a TensorFlow session) serves every
/// run at once and is made once, one load at a time. ``drain()`` starts a new generation: idle instances
/// go at once, busy ones when their run ends.
///
/// Taking and giving back an exclusive instance takes no lock: the slots are ``AtomicSlots`` (the
/// pool's only unsafe code, with its reasons). The condition is only for runs that must wait because
/// every slot is busy, and for the shared instance.
///
/// Why no wakeup is lost: a waiter adds itself to `waiters` and then looks at every slot, holding the
/// condition's lock until it waits; a releaser marks its slot idle and then reads `waiters`, and signals
/// under the same lock when it is not zero. Both are sequentially consistent, so either the waiter sees
/// the idle slot or the releaser sees the waiter, and its signal cannot come before the waiter waits.
final class InstancePool: Sendable {
    /// An instance lent to one run.
    struct Lease {
        let instance: any BackendInstance
        /// The slot it came from, or -1 for the shared instance.
        fileprivate let slot: Int
        fileprivate let generation: Int

        /// Calls `body` with the instance, lent for the call.
        func withInstance<Result>(_ body: (any BackendInstance) throws -> Result) rethrows -> Result {
            try body(instance)
        }
    }

    /// A slot's instance and the generation it was loaded in.
    private struct Slotted {
        let instance: any BackendInstance
        let generation: Int
    }

    /// More slots than this are not made, whatever the engine allows: no machine runs more at once.
    static let maximumSlots = 1024

    private let engine: any BackendEngine
    /// Read from the engine once: acquire and release ask on every run.
    private let shares: Bool
    private let slots: AtomicSlots<Slotted>
    /// The current generation; changes only under `condition`'s lock.
    private let generation = AtomicCounter()
    /// How many runs wait for a slot.
    private let waiters = AtomicCounter()
    /// 1 when an exclusive instance was loaded in this generation; changes only under `condition`'s lock.
    private let loaded = AtomicCounter()
    private let condition = NSCondition()
    /// The shared instance and whether it is being loaded, guarded by `condition`.
    private let sharedState = SharedState()

    /// What `condition` guards (the shared instance only).
    private final class SharedState: @unchecked Sendable {
        var instance: (any BackendInstance)?
        var loading = false
    }

    init(engine: any BackendEngine) {
        self.engine = engine
        shares = engine.instancesRunConcurrently
        slots = AtomicSlots(count: shares ? 0 : min(max(1, engine.maximumInstances), Self.maximumSlots))
    }

    /// Whether an instance exists (idle or in use) in the current generation.
    var isLoaded: Bool {
        if !shares { return loaded.load() != 0 }
        condition.lock()
        defer { condition.unlock() }
        return sharedState.instance != nil
    }

    /// An instance for one run; give it back with ``release(_:)``.
    ///
    /// - Parameter cancellation: Stops the wait for a busy instance when the run's task is cancelled.
    /// - Throws: What loading throws; `CancellationError` when cancelled while waiting.
    func acquire(cancellation: RunCancellation? = nil) throws -> Lease {
        if !shares {
            if let lease = takeIdleSlot() { return lease }
            if let slot = claimEmptySlot() { return try load(into: slot) }
        }
        guard let cancellation else { return try acquireWaiting(nil) }
        return try cancellation.whileWaiting(wake: { [condition] in
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }) {
            try acquireWaiting(cancellation)
        }
    }

    /// Gives an instance back after its run.
    func release(_ lease: Lease) {
        guard lease.slot >= 0 else { return }
        if lease.generation == generation.load() {
            slots.release(lease.slot, to: .idle)
        } else {
            // Drained while it ran: the next run loads anew.
            slots[held: lease.slot] = nil
            slots.release(lease.slot, to: .empty)
        }
        if waiters.load() > 0 { wakeOne() }
    }

    /// Runs `body` with an instance, giving it back afterwards.
    func withInstance<Result>(cancellation: RunCancellation? = nil, _ body: (any BackendInstance) throws -> Result) throws -> Result {
        let lease = try acquire(cancellation: cancellation)
        defer { release(lease) }
        return try lease.withInstance(body)
    }

    /// Drops every instance: idle ones now, busy ones when their run ends. The next run loads anew.
    func drain() {
        var dropped: [any BackendInstance] = []
        condition.lock()
        generation.add(1)
        loaded.store(0)
        if let shared = sharedState.instance { dropped.append(shared) }
        sharedState.instance = nil
        sharedState.loading = false
        for slot in 0..<slots.count where slots.claim(slot, from: .idle) {
            if let slotted = slots[held: slot] { dropped.append(slotted.instance) }
            slots[held: slot] = nil
            slots.release(slot, to: .empty)
        }
        condition.broadcast()
        condition.unlock()
        _ = dropped  // freed here, outside the lock
    }

    // MARK: - Exclusive instances

    /// Takes a slot holding an idle instance, trying the calling thread's last slot first; `nil` when
    /// none is idle.
    private func takeIdleSlot() -> Lease? {
        var slot = slots.preferredSlot
        for _ in 0..<slots.count {
            if slots.claim(slot, from: .idle) {
                slots.prefer(slot)
                // Idle slots always hold an instance (state and instance change together, by the holder).
                let slotted = slots[held: slot]!
                return Lease(instance: slotted.instance, slot: slot, generation: slotted.generation)
            }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
        return nil
    }

    /// Claims an empty slot to load an instance into; `nil` when every slot holds one.
    private func claimEmptySlot() -> Int? {
        (0..<slots.count).first { slots.claim($0, from: .empty) }
    }

    /// Loads an instance into a slot claimed empty. Loading takes milliseconds to seconds: other runs go
    /// on meanwhile.
    private func load(into slot: Int) throws -> Lease {
        let generation = generation.load()
        let instance: any BackendInstance
        do {
            instance = try engine.makeInstance()
        } catch {
            slots.release(slot, to: .empty)
            if waiters.load() > 0 { wakeOne() }
            throw error
        }
        slots[held: slot] = Slotted(instance: instance, generation: generation)
        condition.lock()
        if generation == self.generation.load() { loaded.store(1) }
        condition.unlock()
        slots.prefer(slot)
        return Lease(instance: instance, slot: slot, generation: generation)
    }

    /// Waits until a slot can be claimed (every one was busy), or until cancelled.
    private func acquireWaiting(_ cancellation: RunCancellation?) throws -> Lease {
        if shares { return try acquireShared(cancellation) }
        condition.lock()
        waiters.add(1)
        var lease: Lease?
        var emptySlot: Int?
        while true {
            if let cancellation, cancellation.isCancelled { break }
            lease = takeIdleSlot()
            if lease == nil { emptySlot = claimEmptySlot() }
            if lease != nil || emptySlot != nil { break }
            condition.wait()
        }
        waiters.add(-1)
        if lease == nil, emptySlot == nil {
            // A signal this waiter took may have been meant for a slot another waiter can use.
            condition.signal()
        }
        condition.unlock()
        if let lease { return lease }
        guard let emptySlot else { throw CancellationError() }
        return try load(into: emptySlot)
    }

    private func wakeOne() {
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    // MARK: - The shared instance

    private func acquireShared(_ cancellation: RunCancellation?) throws -> Lease {
        condition.lock()
        while true {
            if let cancellation, cancellation.isCancelled {
                condition.unlock()
                throw CancellationError()
            }
            let generation = generation.load()
            if let shared = sharedState.instance {
                condition.unlock()
                return Lease(instance: shared, slot: -1, generation: generation)
            }
            if !sharedState.loading {
                sharedState.loading = true
                condition.unlock()
                let instance: any BackendInstance
                do {
                    instance = try engine.makeInstance()
                } catch {
                    condition.lock()
                    if generation == self.generation.load() { sharedState.loading = false }
                    condition.broadcast()
                    condition.unlock()
                    throw error
                }
                condition.lock()
                if generation == self.generation.load() { sharedState.instance = instance }
                condition.broadcast()
                condition.unlock()
                return Lease(instance: instance, slot: -1, generation: generation)
            }
            condition.wait()
        }
    }
}
