/// Bounds on what TensorIOText reads: a crafted vocabulary, SentencePiece model or text cannot make it
/// allocate or work without end.
public struct TextLimits: Sendable, Hashable {
    /// The longest text tokenized, in UTF-8 bytes (default 4 MiB); longer text is an error, not cut.
    public var maximumTextBytes: Int
    /// The largest vocabulary file read, in bytes (default 64 MiB: BERT's is 230 KB).
    public var maximumVocabularyBytes: Int
    /// The most entries a vocabulary may have (default 2^20; BERT has 30,522).
    public var maximumVocabularyEntries: Int
    /// The largest SentencePiece model read, in bytes (default 64 MiB).
    public var maximumSentencePieceModelBytes: Int
    /// The memory RE2 may use for one compiled delimiter pattern, in bytes (default 8 MiB): a pattern that
    /// needs more is refused when the tokenizer is built.
    public var maximumPatternMemory: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumTextBytes: The longest text tokenized, in bytes.
    ///   - maximumVocabularyBytes: The largest vocabulary file, in bytes.
    ///   - maximumVocabularyEntries: The most vocabulary entries.
    ///   - maximumSentencePieceModelBytes: The largest SentencePiece model, in bytes.
    ///   - maximumPatternMemory: RE2's memory for one pattern, in bytes.
    public init(
        maximumTextBytes: Int = 4 << 20, maximumVocabularyBytes: Int = 64 << 20, maximumVocabularyEntries: Int = 1 << 20,
        maximumSentencePieceModelBytes: Int = 64 << 20, maximumPatternMemory: Int = 8 << 20
    ) {
        self.maximumTextBytes = maximumTextBytes
        self.maximumVocabularyBytes = maximumVocabularyBytes
        self.maximumVocabularyEntries = maximumVocabularyEntries
        self.maximumSentencePieceModelBytes = maximumSentencePieceModelBytes
        self.maximumPatternMemory = maximumPatternMemory
    }
}
