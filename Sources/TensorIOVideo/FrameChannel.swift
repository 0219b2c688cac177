import Foundation

/// The bounded queue between a decoding thread (the producer, which blocks when the queue is full) and an
/// async consumer (which suspends when it is empty, never blocking a thread of Swift's pool).
///
/// Either side may end it: the producer with ``finish()`` after its last frame or error, the consumer with
/// ``cancel()``, which empties the queue and wakes a blocked producer so that its thread can stop.
final class FrameChannel: @unchecked Sendable {
    typealias Element = Result<VideoFrame, any Error>

    /// Frames decoded ahead of the consumer, at most.
    let capacity: Int
    private let condition = NSCondition()
    // Everything below is guarded by `condition`.
    private var queue: [Element] = []
    private var finished = false
    private var cancelled = false
    /// The consumer, suspended on an empty queue.
    private var waiting: CheckedContinuation<Element?, Never>?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    // MARK: The producer's side (the decoding thread)

    /// Hands `element` to the consumer, waiting while the queue is full.
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
                condition.unlock()
                waiting.resume(returning: element)
                return true
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
    func receive() async -> Element? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
            condition.lock()
            if !queue.isEmpty {
                let element = queue.removeFirst()
                condition.signal()
                condition.unlock()
                continuation.resume(returning: element)
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
