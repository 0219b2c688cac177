@_spi(Internal) package import TensorIO

/// How a bundle's inputs take text: the `text` entry of `model.json` (docs/model-json.md, "Text").
///
/// A text model's inputs are int32 token ids, `[1, n]` or `[n]`: the description names the tokenizer that
/// makes them from a string and its files in `assets/`, and which input takes what. The TensorIOText
/// library does the tokenizing (`TextModel.classify(text:)`, `TextModel.embed(text:)`), as MediaPipe's
/// `TextClassifier` and `TextEmbedder` do from a model's tokenizer metadata.
public struct TextDescription: Sendable, Hashable {
    /// How text becomes token ids.
    public enum Tokenizer: Sendable, Hashable {
        /// Split at each match of `pattern` (RE2 syntax); each token's id from `vocabulary`, a file of
        /// `TOKEN ID` lines with `<PAD>` and `<UNKNOWN>` (and optionally `<START>`): the TFLite regex
        /// tokenizer. One input, the ids.
        case regex(pattern: String, vocabulary: String)
        /// BERT's WordPiece over `vocabulary`, one token a line (its id the line's index): three inputs,
        /// ids, mask and segment ids.
        case wordPiece(vocabulary: String)
        /// SentencePiece with the serialized model `model`: three inputs, as for WordPiece.
        case sentencePiece(model: String)

        /// The name `model.json`'s `tokenizer` gives it.
        public var name: String {
            switch self {
            case .regex: "regex"
            case .wordPiece: "wordpiece"
            case .sentencePiece: "sentencepiece"
            }
        }

        /// Whether it feeds BERT's three inputs (ids, mask, segment ids) rather than ids alone.
        public var isBERT: Bool {
            if case .regex = self { return false }
            return true
        }
    }

    /// The tokenizer and its files.
    public let tokenizer: Tokenizer
    /// The input taking the token ids.
    public let ids: String
    /// BERT models: the input taking the mask (1 for each token, 0 for padding).
    public let mask: String?
    /// BERT models: the input taking the segment ids (all 0: one sentence).
    public let segmentIDs: String?

    /// Creates a description.
    ///
    /// - Parameters:
    ///   - tokenizer: The tokenizer and its files (names in the bundle's `assets/`).
    ///   - ids: The input taking the token ids.
    ///   - mask: BERT models: the input taking the mask.
    ///   - segmentIDs: BERT models: the input taking the segment ids.
    public init(tokenizer: Tokenizer, ids: String, mask: String? = nil, segmentIDs: String? = nil) {
        self.tokenizer = tokenizer
        self.ids = ids
        self.mask = mask
        self.segmentIDs = segmentIDs
    }

    /// The longest delimiter pattern a regex tokenizer may have, in bytes.
    public static let maximumPatternBytes = 4096
    /// The longest token sequence an input may take.
    public static let maximumSequenceLength = 1 << 16

    /// The files in `assets/` the tokenizer reads.
    public var files: [String] {
        switch tokenizer {
        case .regex(_, let vocabulary), .wordPiece(let vocabulary): [vocabulary]
        case .sentencePiece(let model): [model]
        }
    }

    /// The inputs by role, in the order MediaPipe names them: ids, then (BERT) mask and segment ids.
    public var inputs: [String] { [ids] + [mask, segmentIDs].compactMap { $0 } }

    /// Why an input of `shape` cannot take a token sequence — `[1, n]` or `[n]`, `n` from 1 to
    /// `maximumSequenceLength` — or `nil` when it can.
    static func shapeProblem(_ shape: [Int]) -> String? {
        let vector = shape.count == 2 && [1, -1].contains(shape[0]) ? [shape[1]] : shape
        guard vector.count == 1, (1...maximumSequenceLength).contains(vector[0]) else {
            return "has shape \(shape); a text input is a sequence of token ids, [1, n] or [n] with n from 1 to \(maximumSequenceLength)"
        }
        return nil
    }

    /// The sequence length of a text input of `shape` (its last size).
    package static func sequenceLength(_ shape: [Int]) -> Int { shape.last ?? 0 }

    /// The `text` entry of `model.json` that reads back as this description.
    package var modelJSON: OrderedJSON {
        var members: [OrderedJSON.Member] = [.init(key: "tokenizer", value: .string(tokenizer.name))]
        switch tokenizer {
        case .regex(let pattern, let vocabulary):
            members += [.init(key: "pattern", value: .string(pattern)), .init(key: "vocabulary", value: .string(vocabulary))]
        case .wordPiece(let vocabulary): members.append(.init(key: "vocabulary", value: .string(vocabulary)))
        case .sentencePiece(let model): members.append(.init(key: "model", value: .string(model)))
        }
        members.append(.init(key: "ids", value: .string(ids)))
        if let mask { members.append(.init(key: "mask", value: .string(mask))) }
        if let segmentIDs { members.append(.init(key: "segment_ids", value: .string(segmentIDs))) }
        return .object(members)
    }
}
