internal import CAtomics

/// The lock-free part of ``InstancePool``, and the only unsafe code it has: a fixed number of slots,
/// each an atomic state on a cache line of its own and a value that only the thread holding the slot
/// busy may read or write.
///
/// A run of a small model takes about a microsecond; a lock shared by every caller, and the cache line
/// it lives on bouncing between cores, cost more than the run when two threads share a model (the
/// "2 callers no slower than 1" goal of `make bench`). So a slot is claimed with one compare-and-exchange
/// and each thread tries the slot it used last first.
///
/// The contract, checked by assertions in debug builds: a value is touched only through
/// ``subscript(held:)`` by the thread that moved its slot to ``State/busy`` (with ``claim(_:from:)``),
/// until it moves it on (``release(_:to:)``). The atomic state orders one holder's writes before the
/// next holder's reads (every operation is sequentially consistent).
final class AtomicSlots<Value>: @unchecked Sendable {
    /// A slot's state.
    enum State: Int {
        /// No value.
        case empty = 0
        /// A value no one is using.
        case idle = 1
        /// Held by one thread: lent to a run, or being loaded.
        case busy = 2
    }

    /// How many slots there are.
    let count: Int
    /// Each slot's ``State``, a word every `TIO_ATOMIC_WORD_STRIDE` bytes.
    private let states: UnsafeMutableRawPointer
    private let values: UnsafeMutablePointer<Value?>

    /// Makes `count` empty slots.
    init(count: Int) {
        precondition(count >= 0, "a negative slot count")
        self.count = count
        let stride = Int(TIO_ATOMIC_WORD_STRIDE)
        states = .allocate(byteCount: max(1, count) * stride, alignment: stride)
        states.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, count) * stride)
        values = .allocate(capacity: max(1, count))
        values.initialize(repeating: nil, count: max(1, count))
    }

    deinit {
        values.deinitialize(count: max(1, count))
        values.deallocate()
        states.deallocate()
    }

    /// The slot's state now (another thread may change it the next moment).
    func state(_ slot: Int) -> State {
        State(rawValue: tio_atomic_load(word(slot)))!  // only this type stores states, all valid
    }

    /// Moves the slot from `expected` to ``State/busy``; true when this thread now holds it.
    func claim(_ slot: Int, from expected: State) -> Bool {
        assert(expected != .busy, "a busy slot is claimed only by its holder's release")
        return tio_atomic_compare_exchange(word(slot), expected.rawValue, State.busy.rawValue)
    }

    /// Moves a slot this thread holds to `state`, handing it on.
    func release(_ slot: Int, to state: State) {
        assert(self.state(slot) == .busy, "slot \(slot) released by a thread that does not hold it")
        assert(state != .idle || values[slot] != nil, "an idle slot must hold a value")
        tio_atomic_store(word(slot), state.rawValue)
    }

    /// The value of a slot the calling thread holds busy.
    subscript(held slot: Int) -> Value? {
        get {
            assert(state(slot) == .busy, "slot \(slot) read by a thread that does not hold it")
            return values[slot]
        }
        set {
            assert(state(slot) == .busy, "slot \(slot) written by a thread that does not hold it")
            values[slot] = newValue
        }
    }

    /// The slot the calling thread used last, to try first (a hint: any slot may be busy).
    var preferredSlot: Int {
        let hint = tio_thread_slot_hint()
        return hint >= 0 && hint < count ? hint : 0
    }

    /// Remembers `slot` as the calling thread's ``preferredSlot``.
    func prefer(_ slot: Int) {
        if tio_thread_slot_hint() != slot { tio_set_thread_slot_hint(slot) }
    }

    private func word(_ slot: Int) -> UnsafeMutablePointer<Int> {
        precondition(slot >= 0 && slot < count, "slot \(slot) out of 0..<\(count)")
        return (states + slot * Int(TIO_ATOMIC_WORD_STRIDE)).assumingMemoryBound(to: Int.self)
    }
}

/// A sequentially consistent atomic integer on a cache line of its own: a counter the pool's threads
/// read on every run without sharing a line with anything else.
final class AtomicCounter: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Int>

    init(_ value: Int = 0) {
        let stride = Int(TIO_ATOMIC_WORD_STRIDE)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride, alignment: stride)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: stride)
        word = memory.assumingMemoryBound(to: Int.self)
        tio_atomic_store(word, value)
    }

    deinit {
        UnsafeMutableRawPointer(word).deallocate()
    }

    /// The value now.
    func load() -> Int { tio_atomic_load(word) }

    /// Sets the value.
    func store(_ value: Int) { tio_atomic_store(word, value) }

    /// Adds `delta`; returns the value before.
    @discardableResult
    func add(_ delta: Int) -> Int { tio_atomic_fetch_add(word, delta) }
}
