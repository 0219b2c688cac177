/// A labelled output: one score per label, in the labels file's order.
public struct LabeledScores: Sendable, Hashable, RandomAccessCollection {
    /// One label and its score.
    public struct Entry: Sendable, Hashable {
        public var label: String
        public var score: Float

        public init(label: String, score: Float) {
            self.label = label
            self.score = score
        }
    }

    /// The labels, in the labels file's order.
    public let labels: [String]
    /// The scores, one per label.
    public let scores: [Float]

    /// Pairs labels with scores.
    ///
    /// - Parameters:
    ///   - labels: The labels, in order.
    ///   - scores: One score per label.
    /// - Throws: ``TensorIOError`` when the counts differ.
    public init(labels: [String], scores: [Float]) throws {
        guard labels.count == scores.count else {
            throw TensorIOError(.invalidInput, "\(labels.count) labels but \(scores.count) scores")
        }
        self.init(unchecked: labels, scores: scores)
    }

    init(unchecked labels: [String], scores: [Float]) {
        self.labels = labels
        self.scores = scores
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { labels.count }
    public subscript(position: Int) -> Entry { Entry(label: labels[position], score: scores[position]) }

    /// The score of `label`, or `nil` when there is no such label.
    public subscript(label: String) -> Float? {
        labels.firstIndex(of: label).map { scores[$0] }
    }

    /// The best `count` entries, best first, keeping only scores strictly above `threshold` when one is
    /// given. Equal scores keep the labels file's order; NaN scores (a model's answer to silence, say) come
    /// last.
    ///
    /// - Parameters:
    ///   - count: How many entries at most.
    ///   - threshold: Only scores greater than this are kept.
    /// - Returns: At most `count` entries sorted by descending score.
    public func top(_ count: Int, threshold: Float? = nil) -> [Entry] {
        guard count > 0 else { return [] }
        var indices = Array(scores.indices)
        if let threshold { indices.removeAll { !(scores[$0] > threshold) } }
        // NaN ranks below every number, so that the order is total and a NaN never hides a real score.
        func rank(_ index: Int) -> Float { scores[index].isNaN ? -.infinity : scores[index] }
        indices.sort { rank($0) > rank($1) || (rank($0) == rank($1) && $0 < $1) }
        return indices.prefix(count).map { self[$0] }
    }

    /// The scores by label.
    public var dictionary: [String: Float] {
        Dictionary(zip(labels, scores), uniquingKeysWith: { first, _ in first })
    }
}
