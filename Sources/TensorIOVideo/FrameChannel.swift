import Foundation

/// The bounded queue between a decoding thread (the producer) and an async consumer (which suspends when it
/// is empty, never blocking a thread of Swift's pool).
///
/// When the queue is full, the producer of a file's frames waits (``Overflow/wait``: every frame is given,
/// at the consumer's pace); the producer of a live stream's frames, which cannot make the stream wait, drops
/// the oldest queued frame instead (``Overflow/dropOldest``), and the consumer hears how many were dropped
/// before each frame it gets.
///
/// Either side may end it: the producer with ``finish()`` after its last frame or error, the consumer with
/// ``cancel()``, which empties the queue and wakes a blocked producer so that its thread can stop.
final class FrameChannel<Value: Sendable>: @unchecked Sendable {
    typealias Element = Result<Value, any Error>

    /// What the producer does when the queue is full.
    enum Overflow {
        case wait
        case dropOldest
    }

    /// What the consumer gets: an element, and how many were dropped since the previous one.
    struct Delivery {
        var element: Element
        var dropped: Int
    }

    /// Frames decoded ahead of the consumer, at most.
    let capacity: Int
    let overflow: Overflow
    private let condition = NSCondition()
    // Everything below is guarded by `condition`.
    private var queue: [Element] = []
    private var finished = false
    private var cancelled = false
    /// Elements dropped since the consumer last received one.
    private var dropped = 0
    /// The consumer, suspended on an empty queue.
    private var waiting: CheckedContinuation<Delivery?, Never>?

    init(capacity: Int, overflow: Overflow = .wait) {
        self.capacity = max(1, capacity)
        self.overflow = overflow
    }

    // MARK: The producer's side (the decoding thread)

    /// Hands `element` to the consumer, waiting while the queue is full (or, with ``Overflow/dropOldest``,
    /// dropping the oldest queued element).
    ///
    /// - Returns: `false` when the consumer has gone: the producer should stop.
    func send(_ element: Element) -> Bool {
        condition.lock()
        // Checked afresh after every wait: while the producer waited for room, the consumer may have emptied
        // the queue and begun to wait itself, and must get this element (not the next) handed straight over.
        while true {
            if cancelled {
                condition.unlock()
                return false
            }
            if let waiting {
                self.waiting = nil
                let delivery = Delivery(element: element, dropped: dropped)
                dropped = 0
                condition.unlock()
                waiting.resume(returning: delivery)
                return true
            }
            if queue.count >= capacity, overflow == .dropOldest {
                queue.removeFirst()
                dropped += 1
            }
            if queue.count < capacity {
                queue.append(element)
                condition.unlock()
                return true
            }
            condition.wait()
        }
    }

    /// Whether the consumer has gone.
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// No more elements will come.
    func finish() {
        condition.lock()
        finished = true
        let waiting = self.waiting
        self.waiting = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    // MARK: The consumer's side

    /// The next element, suspending while the queue is empty.
    ///
    /// - Returns: `nil` once the producer has finished and the queue is empty, or after ``cancel()``.
    func receive() async -> Delivery? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
            condition.lock()
            if !queue.isEmpty {
                let delivery = Delivery(element: queue.removeFirst(), dropped: dropped)
                dropped = 0
                condition.signal()
                condition.unlock()
                continuation.resume(returning: delivery)
            } else if finished || cancelled {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiting = continuation
                condition.unlock()
            }
        }
    }

    /// The consumer has gone: drops what is queued and wakes the producer so that it stops.
    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        let waiting = self.waiting
        self.waiting = nil
        condition.broadcast()
        condition.unlock()
        waiting?.resume(returning: nil)
    }
}
