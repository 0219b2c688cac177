import Foundation
import TensorIO

/// The TFLite regex tokenizer, as MediaPipe's `RegexPreprocessorCalculator` runs it: the text (up to its
/// first NUL, not lower-cased) split at each match of the delimiter pattern (RE2: `\w` is ASCII, so every
/// other character is a delimiter too), each token's id from the vocabulary or `<UNKNOWN>`'s, after
/// `<START>` when the vocabulary has one, padded with `<PAD>`.
struct RegexTokenizer: Sendable {
    let pattern: RegexPattern
    let vocabulary: Vocabulary
    let start: Int32?
    let pad: Int32
    let unknown: Int32

    init(pattern: String, vocabulary data: Data, file: String, limits: TextLimits) throws {
        self.pattern = try RegexPattern(pattern, maximumMemory: limits.maximumPatternMemory)
        vocabulary = try Vocabulary.tokensAndIDs(data, file: file, limits: limits)
        guard let pad = vocabulary["<PAD>"], let unknown = vocabulary["<UNKNOWN>"] else {
            throw TensorIOError(.invalidBundle, "\(file) has no <PAD> or no <UNKNOWN> token: a regex tokenizer's vocabulary needs both", location: "text")
        }
        self.pad = pad
        self.unknown = unknown
        start = vocabulary["<START>"]
    }

    func tokenize(_ text: String, length: Int) -> TokenizedText {
        let bytes = TokenizerInputBytes.cString(text)
        let room = length - (start == nil ? 0 : 1)
        // One token more than there is room for tells whether the text was cut.
        let tokens = bytes.withUnsafeBufferPointer { pattern.split($0, limit: room + 1) }
        var ids: [Int32] = []
        ids.reserveCapacity(length)
        if let start { ids.append(start) }
        for token in tokens.prefix(room) {
            ids.append(vocabulary[bytes[token]] ?? unknown)
        }
        ids.append(contentsOf: repeatElement(pad, count: length - ids.count))
        return TokenizedText(ids: ids, mask: nil, segmentIDs: nil, isTruncated: tokens.count > room)
    }
}
