import Foundation
import TensorIO

/// BERT's WordPiece tokenizer, as MediaPipe's `BertPreprocessorCalculator` runs it (tflite-support's
/// `BertTokenizer`, tensorflow_text's `RegexSplit` and `WordpieceTokenizer`): the text up to its first NUL,
/// ASCII lower-cased (no accent stripping, no Unicode normalization), split at whitespace, punctuation and
/// CJK ideographs (each kept as a token but whitespace), then each word cut greedily into the longest
/// vocabulary pieces, `##` before the pieces after the first; a word over 100 bytes, or with a position no
/// piece starts, is `[UNK]`.
struct WordPieceTokenizer: Sendable {
    let delimiters: RegexPattern
    let keptDelimiters: RegexPattern
    let vocabulary: Vocabulary

    /// The delimiters: whitespace runs (RE2's `\s`: tab, newline, form feed, carriage return, space), ASCII
    /// punctuation and symbols, Unicode punctuation, CJK ideographs (tflite-support's `kDefaultDelimRe`).
    static let delimiterPattern = #"((\s+|[!-/]|[:-@]|[\[-`]|[{-~]|[\p{P}]|[\x{4E00}-\x{9FFF}]|[\x{3400}-\x{4DBF}]|[\x{20000}-\x{2A6DF}]|[\x{2A700}-\x{2B73F}]|[\x{2B740}-\x{2B81F}]|[\x{2B820}-\x{2CEAF}]|[\x{F900}-\x{FAFF}]|[\x{2F800}-\x{2FA1F}]))"#
    /// The delimiters kept as tokens: all but whitespace (`kDefaultIncludeDelimRe`).
    static let keptDelimiterPattern = #"(([!-/]|[:-@]|[\[-`]|[{-~]|[\p{P}]|[\x{4E00}-\x{9FFF}]|[\x{3400}-\x{4DBF}]|[\x{20000}-\x{2A6DF}]|[\x{2A700}-\x{2B73F}]|[\x{2B740}-\x{2B81F}]|[\x{2B820}-\x{2CEAF}]|[\x{F900}-\x{FAFF}]|[\x{2F800}-\x{2FA1F}]))"#
    /// A word longer than this many bytes is `[UNK]` (`max_bytes_per_token`).
    static let maximumWordBytes = 100
    /// The longest piece tried, in characters (`max_chars_per_subtoken`).
    static let maximumPieceCharacters = 100

    init(vocabulary data: Data, file: String, limits: TextLimits) throws {
        delimiters = try RegexPattern(Self.delimiterPattern, maximumMemory: limits.maximumPatternMemory)
        keptDelimiters = try RegexPattern(Self.keptDelimiterPattern, maximumMemory: limits.maximumPatternMemory)
        vocabulary = try Vocabulary.lines(data, file: file, limits: limits)
    }

    func tokenize(_ text: String, length: Int) -> TokenizedText {
        let bytes = TokenizerInputBytes.asciiLowercased(TokenizerInputBytes.cString(text))
        let room = max(0, length - 2)
        var ids: [Int32] = []
        var cut = false
        bytes.withUnsafeBufferPointer { buffer in
            // Each word gives at least one piece: room + 1 words are enough to fill the input and see the cut.
            let words = delimiters.split(buffer, keepingMatches: { keptDelimiters.matchesWhole(buffer, $0) }, limit: room + 1)
            for word in words {
                guard ids.count <= room else { break }
                ids += Self.wordPieces(buffer[word], vocabulary: vocabulary)
            }
            cut = ids.count > room
        }
        // A piece missing from the vocabulary ([UNK] itself, say) has id 0, as in MediaPipe.
        return BERTLayout.feed(Array(ids.prefix(room)), cut: cut, length: length) { vocabulary[$0] ?? 0 }
    }

    /// A word's pieces' ids: greedy longest match from the left, at character boundaries; `[UNK]`'s id
    /// (0 when the vocabulary has none) for a word too long or with a position no piece starts.
    static func wordPieces(_ word: Slice<UnsafeBufferPointer<UInt8>>, vocabulary: Vocabulary) -> [Int32] {
        let unknown = [vocabulary["[UNK]"] ?? 0]
        guard word.count <= maximumWordBytes else { return unknown }
        // Character boundaries (UTF-8 lead bytes); the word is valid UTF-8, a slice of the text.
        let boundaries = word.indices.filter { word[$0] & 0xC0 != 0x80 } + [word.endIndex]
        var ids: [Int32] = []
        var startIndex = 0
        while startIndex < boundaries.count - 1 {
            var endIndex = min(boundaries.count - 1, startIndex + maximumPieceCharacters)
            var found: Int32?
            while endIndex > startIndex {
                let piece = word[boundaries[startIndex]..<boundaries[endIndex]]
                found = startIndex > 0 ? vocabulary[Array("##".utf8) + piece] : vocabulary[piece]
                if found != nil { break }
                endIndex -= 1
            }
            guard let found else { return unknown }
            ids.append(found)
            startIndex = endIndex
        }
        return ids
    }
}

/// BERT's inputs around the pieces' ids: `[CLS]`, the ids, `[SEP]`, then padding with 0; the mask 1 over
/// those, the segment ids all 0.
enum BERTLayout {
    static func feed(_ ids: [Int32], cut: Bool, length: Int, id: (String) -> Int32) -> TokenizedText {
        var tokens = [id("[CLS]")] + ids + [id("[SEP]")]
        let used = min(tokens.count, length)
        tokens = Array(tokens.prefix(length))
        let mask = [Int32](repeating: 1, count: used) + [Int32](repeating: 0, count: length - used)
        tokens += repeatElement(0, count: length - used)
        return TokenizedText(ids: tokens, mask: mask, segmentIDs: [Int32](repeating: 0, count: length), isTruncated: cut)
    }
}
