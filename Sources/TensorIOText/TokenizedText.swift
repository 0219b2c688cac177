/// What a tokenizer makes of a text for a model: the token ids and, for BERT models, the mask and segment
/// ids, each as long as the model's inputs.
public struct TokenizedText: Sendable, Hashable {
    /// The token ids, padded to the input's length.
    public let ids: [Int32]
    /// BERT models: 1 for each token (`[CLS]` and `[SEP]` included), 0 for padding; `nil` otherwise.
    public let mask: [Int32]?
    /// BERT models: the segment of each token, all 0 (one sentence); `nil` otherwise.
    public let segmentIDs: [Int32]?
    /// Whether the text had more tokens than the input takes (the rest was cut).
    public let isTruncated: Bool
}
