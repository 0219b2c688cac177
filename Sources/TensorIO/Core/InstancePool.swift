internal import CAtomics
import Foundation

/// The loaded instances of one model, made on first use and handed to runs.
///
/// Exclusive instances (LiteRT compiled models) serve one run at a time, each from a slot of its own: a
/// run takes an idle one, loads a new one into an empty slot (there are as many slots as the engine
/// allows instances), or waits for one to come back. A shared instance (a TensorFlow session) serves every
/// run at once and is made once, one load at a time. ``drain()`` starts a new generation: idle instances
/// go at once, busy ones when their run ends.
///
/// Taking and giving back an exclusive instance takes no lock: each slot's state is an atomic word on a
/// cache line of its own, claimed with one compare-and-exchange, and each thread tries the slot it used
/// last first. Runs of a small model take about a microsecond, so a lock shared by every caller (and
/// the cache line it lives on, bouncing between cores) cost more than the run when two threads shared
/// the model. The condition is only for runs that must wait because every slot is busy.
///
/// Why no wakeup is lost: a waiter adds itself to `waiters` and then looks at every slot, holding the
/// condition's lock until it waits; a releaser marks its slot idle and then reads `waiters`, and signals
/// under the same lock when it is not zero. Both are sequentially consistent, so either the waiter sees
/// the idle slot or the releaser sees the waiter, and its signal cannot come before the waiter waits.
final class InstancePool: @unchecked Sendable {
    /// An instance lent to one run.
    struct Lease {
        /// A slot's instance, not retained: the slot holds it until the lease comes back (only the holder
        /// empties a busy slot), and a retain and release per run are two atomic operations on a run of
        /// about a microsecond. Through a box, because an unretained existential is retained again at
        /// every call made on it; a box is lent with `_withUnsafeGuaranteedRef` instead.
        private let slotted: Unmanaged<SlottedInstance>?
        /// The shared instance, retained: ``drain()`` lets go of it while runs still use it.
        private let sharedInstance: (any BackendInstance)?
        /// The slot it came from, or -1 for the shared instance.
        fileprivate let slot: Int
        fileprivate let generation: Int

        fileprivate init(slot: Int, instance: SlottedInstance, generation: Int) {
            slotted = .passUnretained(instance)
            sharedInstance = nil
            self.slot = slot
            self.generation = generation
        }

        fileprivate init(shared: any BackendInstance, generation: Int) {
            slotted = nil
            sharedInstance = shared
            slot = -1
            self.generation = generation
        }

        /// Calls `body` with the instance, lent for the call.
        @inline(__always)
        func withInstance<Result>(_ body: (any BackendInstance) throws -> Result) rethrows -> Result {
            if let slotted { return try slotted._withUnsafeGuaranteedRef { try body($0.instance) } }
            return try body(sharedInstance!)  // every lease holds one or the other
        }
    }

    /// A slot's instance: a class so that a ``Lease`` can lend it without a retain.
    final class SlottedInstance {
        let instance: any BackendInstance

        init(_ instance: any BackendInstance) {
            self.instance = instance
        }
    }

    /// More slots than this are not made, whatever the engine allows: no machine runs more at once.
    static let maximumSlots = 1024

    private enum SlotState {
        static let empty = 0
        static let idle = 1
        /// Lent to a run, or being loaded.
        static let busy = 2
    }

    private let engine: any BackendEngine
    /// Read from the engine once: acquire and release ask on every run.
    private let shares: Bool
    private let slotCount: Int
    /// Each slot's state (``SlotState``), a word every `TIO_ATOMIC_WORD_STRIDE` bytes.
    private let states: UnsafeMutableRawPointer
    /// Each slot's instance and the generation it was loaded in. Only the thread holding the slot busy
    /// reads or writes them; the atomic state orders one holder's writes before the next one's reads.
    private let instances: UnsafeMutablePointer<SlottedInstance?>
    private let instanceGenerations: UnsafeMutablePointer<Int>
    /// The current generation, the number of waiting runs, and whether an exclusive instance was loaded
    /// in this generation: atomic words on lines of their own. The generation and the loaded flag change
    /// only under `condition`'s lock.
    private let counters: UnsafeMutableRawPointer
    private let condition = NSCondition()
    // Guarded by `condition` (the shared instance only):
    private var shared: (any BackendInstance)?
    private var sharedLoading = false

    init(engine: any BackendEngine) {
        self.engine = engine
        shares = engine.instancesRunConcurrently
        slotCount = shares ? 0 : min(max(1, engine.maximumInstances), Self.maximumSlots)
        let stride = Int(TIO_ATOMIC_WORD_STRIDE)
        states = .allocate(byteCount: max(1, slotCount) * stride, alignment: stride)
        states.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, slotCount) * stride)
        instances = .allocate(capacity: max(1, slotCount))
        instances.initialize(repeating: nil, count: max(1, slotCount))
        instanceGenerations = .allocate(capacity: max(1, slotCount))
        instanceGenerations.initialize(repeating: 0, count: max(1, slotCount))
        counters = .allocate(byteCount: 3 * stride, alignment: stride)
        counters.initializeMemory(as: UInt8.self, repeating: 0, count: 3 * stride)
    }

    deinit {
        instances.deinitialize(count: max(1, slotCount))
        instances.deallocate()
        instanceGenerations.deallocate()
        states.deallocate()
        counters.deallocate()
    }

    /// Whether an instance exists (idle or in use) in the current generation.
    var isLoaded: Bool {
        if !shares { return tio_atomic_load(loadedFlag) != 0 }
        condition.lock()
        defer { condition.unlock() }
        return shared != nil
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
        let state = stateWord(lease.slot)
        if lease.generation == tio_atomic_load(generationWord) {
            tio_atomic_store(state, SlotState.idle)
        } else {
            // Drained while it ran: the next run loads anew.
            instances[lease.slot] = nil
            tio_atomic_store(state, SlotState.empty)
        }
        if tio_atomic_load(waitersWord) > 0 { wakeOne() }
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
        _ = tio_atomic_fetch_add(generationWord, 1)
        tio_atomic_store(loadedFlag, 0)
        if let shared { dropped.append(shared) }
        shared = nil
        sharedLoading = false
        for slot in 0..<slotCount where tio_atomic_compare_exchange(stateWord(slot), SlotState.idle, SlotState.busy) {
            if let slotted = instances[slot] { dropped.append(slotted.instance) }
            instances[slot] = nil
            tio_atomic_store(stateWord(slot), SlotState.empty)
        }
        condition.broadcast()
        condition.unlock()
        _ = dropped  // freed here, outside the lock
    }

    // MARK: - Exclusive instances

    /// Takes a slot holding an idle instance, trying the calling thread's last slot first; `nil` when
    /// none is idle.
    private func takeIdleSlot() -> Lease? {
        let hint = tio_thread_slot_hint()
        var slot = hint >= 0 && hint < slotCount ? hint : 0
        for _ in 0..<slotCount {
            if tio_atomic_compare_exchange(stateWord(slot), SlotState.idle, SlotState.busy) {
                if slot != hint { tio_set_thread_slot_hint(slot) }
                // Idle slots always hold an instance (state and instance change together, by the holder).
                return Lease(slot: slot, instance: instances[slot]!, generation: instanceGenerations[slot])
            }
            slot = slot + 1 == slotCount ? 0 : slot + 1
        }
        return nil
    }

    /// Claims an empty slot to load an instance into; `nil` when every slot holds one.
    private func claimEmptySlot() -> Int? {
        (0..<slotCount).first { tio_atomic_compare_exchange(stateWord($0), SlotState.empty, SlotState.busy) }
    }

    /// Loads an instance into a slot claimed empty. Loading takes milliseconds to seconds: other runs go
    /// on meanwhile.
    private func load(into slot: Int) throws -> Lease {
        let generation = tio_atomic_load(generationWord)
        let instance: any BackendInstance
        do {
            instance = try engine.makeInstance()
        } catch {
            tio_atomic_store(stateWord(slot), SlotState.empty)
            if tio_atomic_load(waitersWord) > 0 { wakeOne() }
            throw error
        }
        let slotted = SlottedInstance(instance)
        instances[slot] = slotted
        instanceGenerations[slot] = generation
        condition.lock()
        if generation == tio_atomic_load(generationWord) { tio_atomic_store(loadedFlag, 1) }
        condition.unlock()
        tio_set_thread_slot_hint(slot)
        return Lease(slot: slot, instance: slotted, generation: generation)
    }

    /// Waits until a slot can be claimed (every one was busy), or until cancelled.
    private func acquireWaiting(_ cancellation: RunCancellation?) throws -> Lease {
        if shares { return try acquireShared(cancellation) }
        condition.lock()
        _ = tio_atomic_fetch_add(waitersWord, 1)
        var lease: Lease?
        var emptySlot: Int?
        while true {
            if let cancellation, cancellation.isCancelled { break }
            lease = takeIdleSlot()
            if lease == nil { emptySlot = claimEmptySlot() }
            if lease != nil || emptySlot != nil { break }
            condition.wait()
        }
        _ = tio_atomic_fetch_add(waitersWord, -1)
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
            let generation = tio_atomic_load(generationWord)
            if let shared {
                condition.unlock()
                return Lease(shared: shared, generation: generation)
            }
            if !sharedLoading {
                sharedLoading = true
                condition.unlock()
                let instance: any BackendInstance
                do {
                    instance = try engine.makeInstance()
                } catch {
                    condition.lock()
                    if generation == tio_atomic_load(generationWord) { sharedLoading = false }
                    condition.broadcast()
                    condition.unlock()
                    throw error
                }
                condition.lock()
                if generation == tio_atomic_load(generationWord) { shared = instance }
                condition.broadcast()
                condition.unlock()
                return Lease(shared: instance, generation: generation)
            }
            condition.wait()
        }
    }

    // MARK: - Words

    private func stateWord(_ slot: Int) -> UnsafeMutablePointer<Int> {
        (states + slot * Int(TIO_ATOMIC_WORD_STRIDE)).assumingMemoryBound(to: Int.self)
    }

    private var generationWord: UnsafeMutablePointer<Int> { counters.assumingMemoryBound(to: Int.self) }
    private var waitersWord: UnsafeMutablePointer<Int> {
        (counters + Int(TIO_ATOMIC_WORD_STRIDE)).assumingMemoryBound(to: Int.self)
    }
    private var loadedFlag: UnsafeMutablePointer<Int> {
        (counters + 2 * Int(TIO_ATOMIC_WORD_STRIDE)).assumingMemoryBound(to: Int.self)
    }
}
