import TensorIO

extension NonMaxSuppression {
    /// The indices of the best-ranked eligible candidates, at most `maximumCandidates`, best first.
    ///
    /// The rank is the score, highest first, then the input order: a strict total order once NaN scores
    /// are left out, so the result does not depend on the sorting algorithm. When more candidates are
    /// eligible than kept, a heap holding the worst kept one at its root selects them in O(n log K).
    func ranking(_ candidates: [DetectionCandidate], isEligible: (Float) -> Bool) -> [Int] {
        let scores = candidates.map(\.score)
        func ranksAbove(_ a: Int, _ b: Int) -> Bool {
            scores[a] > scores[b] || (scores[a] == scores[b] && a < b)
        }
        let capacity = maximumCandidates
        var heap: [Int] = []
        heap.reserveCapacity(Swift.min(capacity, candidates.count))
        for index in scores.indices where !scores[index].isNaN && isEligible(scores[index]) {
            if heap.count < capacity {
                heap.append(index)
                if heap.count == capacity { Self.heapify(&heap, worseFirst: ranksAbove) }
            } else if ranksAbove(index, heap[0]) {
                heap[0] = index
                Self.siftDown(&heap, from: 0, worseFirst: ranksAbove)
            }
        }
        return heap.sorted(by: ranksAbove)
    }

    /// Arranges `heap` so every parent ranks below its children: the root is the worst.
    private static func heapify(_ heap: inout [Int], worseFirst ranksAbove: (Int, Int) -> Bool) {
        for parent in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            siftDown(&heap, from: parent, worseFirst: ranksAbove)
        }
    }

    private static func siftDown(_ heap: inout [Int], from start: Int, worseFirst ranksAbove: (Int, Int) -> Bool) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < heap.count, ranksAbove(heap[worst], heap[left]) { worst = left }
            if right < heap.count, ranksAbove(heap[worst], heap[right]) { worst = right }
            if worst == parent { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
