import CTextTokenizers
import TensorIO

/// A delimiter pattern compiled by RE2, whose matching time is linear in the text whatever the pattern:
/// no pattern, however crafted, backtracks. RE2 objects match from any number of threads at once.
final class RegexPattern: @unchecked Sendable {
    private let regex: OpaquePointer

    /// Compiles `pattern`.
    ///
    /// - Throws: `TensorIOError` (`TensorIOError.Code.invalidInput`) with RE2's message when it does not
    ///   compile or needs more than `maximumMemory` bytes.
    init(_ pattern: String, maximumMemory: Int) throws {
        var error = [CChar](repeating: 0, count: 256)
        let compiled = pattern.utf8CString.withUnsafeBufferPointer { text in
            tio_regex_create(text.baseAddress!, text.count - 1, Int64(maximumMemory), &error, error.count)
        }
        guard let compiled else {
            throw TensorIOError(.invalidInput, "the delimiter pattern \(pattern) does not compile: \(String(cMessage: error))")
        }
        regex = compiled
    }

    deinit { tio_regex_destroy(regex) }

    /// The first match in `text[offset...]`, as byte offsets; `nil` when there is none.
    func firstMatch(in text: UnsafeBufferPointer<UInt8>, from offset: Int) -> Range<Int>? {
        var start = 0
        var end = 0
        let found = CStringView.with(text) { characters, count in
            tio_regex_find(regex, characters, count, offset, &start, &end)
        }
        return found == 1 ? start..<end : nil
    }

    /// Whether the pattern matches all of `text[range]`.
    func matchesWhole(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        CStringView.with(text) { characters, _ in
            tio_regex_full_match(regex, characters, range.lowerBound, range.upperBound) == 1
        }
    }

    /// The text split at every non-empty match: the pieces between matches (empty ones left out) and, when
    /// `keep` says so, each match itself — tensorflow_text's `RegexSplit`, which the TFLite regex and BERT
    /// tokenizers split with. An empty match is not a delimiter (RE2's `FindAndConsume` would not move
    /// past it); the search goes on one byte further. Stops after `limit` pieces.
    func split(_ text: UnsafeBufferPointer<UInt8>, keepingMatches keep: (Range<Int>) -> Bool = { _ in false }, limit: Int) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var tokenStart = 0
        var searchFrom = 0
        while pieces.count < limit, searchFrom <= text.count, let match = firstMatch(in: text, from: searchFrom) {
            if match.isEmpty {
                searchFrom = match.upperBound + 1
                continue
            }
            if match.lowerBound > tokenStart { pieces.append(tokenStart..<match.lowerBound) }
            if keep(match), pieces.count < limit { pieces.append(match) }
            tokenStart = match.upperBound
            searchFrom = match.upperBound
        }
        if pieces.count < limit, tokenStart < text.count { pieces.append(tokenStart..<text.count) }
        return pieces
    }
}
