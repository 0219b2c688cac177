public import TensorIO

/// What a model makes of a text: the scores of its classification output.
public struct TextClassification: Sendable, Hashable {
    /// The output whose scores these are.
    public let output: String
    /// One score per label (labels `"0"`, `"1"`, … when the output has none).
    public let scores: LabeledScores
    /// Whether the text had more tokens than the model takes (the rest was not read).
    public let isTruncated: Bool

    /// The best `count` labels, best first; see `LabeledScores.top(_:threshold:)`.
    ///
    /// - Parameters:
    ///   - count: How many labels at most.
    ///   - threshold: Only scores greater than this are kept.
    /// - Returns: At most `count` entries sorted by descending score.
    public func top(_ count: Int, threshold: Float? = nil) -> [LabeledScores.Entry] {
        scores.top(count, threshold: threshold)
    }
}
