import Foundation
import TensorIO

/// A tokenizer's vocabulary: token → id, read as MediaPipe reads it (`vocab_utils.cc`): lines split at
/// `\n`, empty lines skipped, a trailing `\r` removed; a later line with the same token wins.
///
/// Tokens are compared as UTF-8 bytes, as MediaPipe compares them: not as Swift strings, which would find
/// a precomposed `é` for a decomposed one. A line that is not UTF-8 keeps its place (its index, for BERT)
/// but no text can produce it.
struct Vocabulary: Sendable {
    private(set) var ids: [[UInt8]: Int32] = [:]
    /// Entries read, lines that are not UTF-8 included.
    private(set) var count = 0

    /// A vocabulary of one token a line, each token's id its index among the non-empty lines (BERT's).
    static func lines(_ data: Data, file: String, limits: TextLimits) throws -> Vocabulary {
        var vocabulary = Vocabulary()
        try vocabulary.read(data, file: file, limits: limits) { vocabulary, line, _ in
            vocabulary.ids[Array(line)] = Int32(vocabulary.count)
        }
        return vocabulary
    }

    /// A vocabulary of `TOKEN ID` lines (the regex tokenizer's): the token up to the first space, the id
    /// the integer after it.
    static func tokensAndIDs(_ data: Data, file: String, limits: TextLimits) throws -> Vocabulary {
        var vocabulary = Vocabulary()
        try vocabulary.read(data, file: file, limits: limits) { vocabulary, line, number in
            let space = line.firstIndex(of: UInt8(ascii: " "))
            let idBytes = space.map { line[($0 + 1)...].prefix { $0 != UInt8(ascii: " ") } }
            guard let space, let idBytes, let text = String(validating: idBytes, as: UTF8.self), let id = Int32(text) else {
                throw TensorIOError(.invalidBundle, "\(file), line \(number): expected TOKEN ID, a token and its integer id separated by a space", location: "text")
            }
            vocabulary.ids[Array(line[..<space])] = id
        }
        return vocabulary
    }

    private mutating func read(
        _ data: Data, file: String, limits: TextLimits, entry: (inout Vocabulary, ArraySlice<UInt8>, Int) throws -> Void
    ) throws {
        guard data.count <= limits.maximumVocabularyBytes else {
            throw TensorIOError(.limitExceeded, "\(file) is \(data.count) bytes, more than the limit of \(limits.maximumVocabularyBytes) (TextLimits.maximumVocabularyBytes)", location: "text")
        }
        let bytes = [UInt8](data)
        var lineNumber = 0
        var start = 0
        // Line by line, without making them all first: a file of 10^7 lines stops at the entry limit.
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            lineNumber += 1
            guard !line.isEmpty else { continue }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard count < limits.maximumVocabularyEntries else {
                throw TensorIOError(.limitExceeded, "\(file) has more than \(limits.maximumVocabularyEntries) entries, the limit (TextLimits.maximumVocabularyEntries)", location: "text")
            }
            try entry(&self, line, lineNumber)
            count += 1
        }
    }

    /// The id of the token with these UTF-8 bytes, if the vocabulary has it.
    subscript(token: some Collection<UInt8>) -> Int32? { ids[Array(token)] }

    /// The id of `token`, if the vocabulary has it.
    subscript(token: String) -> Int32? { ids[Array(token.utf8)] }
}
