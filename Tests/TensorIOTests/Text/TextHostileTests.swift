import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport
import TensorIOText

/// Hostile text models and texts (issue 29, point 7): a vocabulary of 10^7 lines or invalid UTF-8, a regex
/// that would backtrack catastrophically, text of 100 MB, broken SentencePiece models, the text entry of
/// model.json refused at its JSON path: a clear error or a bounded result, never a crash or a hang.
@Suite("Text: hostile tokenizers and texts")
struct TextHostileTests {
    /// A bundle over the number model whose only input is int32 [1, 8] ids with this `text` entry and assets.
    static func bundle(_ text: JSONObject, files: [String: Data] = [:], inputs: [JSONObject]? = nil) throws -> ModelBundle {
        try withTextBundle(text, files: files, inputs: inputs) { $0 }
    }

    /// `body` on the bundle while its folder exists (it is removed afterwards).
    static func withTextBundle<Result>(
        _ text: JSONObject, files: [String: Data] = [:], inputs: [JSONObject]? = nil, _ body: (ModelBundle) throws -> Result
    ) throws -> Result {
        var document = Fixtures.numberModelDocument()
        document["inputs"] = inputs ?? [["name": "ids", "type": "array", "shape": [1, 8], "dtype": "int32"]]
        document["text"] = text
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return try withBundle(json: String(decoding: data, as: UTF8.self), files: files) { try body(try ModelBundle(at: $0)) }
    }

    static let vocabulary = Data("<PAD> 0\n<START> 1\n<UNKNOWN> 2\ngood 3\nfilm 4\n".utf8)

    static func tokenizer(pattern: String = #"[^\w\']+"#, vocabulary: Data = vocabulary, limits: TextLimits = TextLimits()) throws -> TextTokenizer {
        try withTextBundle(["tokenizer": "regex", "pattern": pattern, "vocabulary": "vocab.txt", "ids": "ids"], files: ["assets/vocab.txt": vocabulary]) {
            try TextTokenizer(bundle: $0, limits: limits)
        }
    }

    @Test("a regex bundle tokenizes: <START>, ids, <UNKNOWN>, <PAD>; a NUL ends the text; extra tokens are cut")
    func regex() throws {
        let tokenizer = try Self.tokenizer()
        #expect(try tokenizer.tokenize("good film, Good\0 film").ids == [1, 3, 4, 2, 0, 0, 0, 0])
        let long = try tokenizer.tokenize(String(repeating: "good ", count: 20))
        #expect(long.ids == [1] + Array(repeating: 3, count: 7) && long.isTruncated)
    }

    @Test("the text entry is refused at its JSON path when wrong")
    func entry() {
        func issues(_ text: JSONObject, inputs: [JSONObject]? = nil) -> [String] {
            let error = #expect(throws: TensorIOError.self) { try Self.bundle(text, files: ["assets/vocab.txt": Self.vocabulary], inputs: inputs) }
            return error?.issues.map(\.path) ?? []
        }
        #expect(issues(["tokenizer": "bpe", "ids": "ids"]) == ["text.tokenizer"])
        #expect(issues(["tokenizer": "regex", "vocabulary": "vocab.txt", "ids": "ids"]) == ["text.pattern"])
        #expect(issues(["tokenizer": "regex", "pattern": "", "vocabulary": "vocab.txt", "ids": "ids"]) == ["text.pattern"])
        #expect(issues(["tokenizer": "regex", "pattern": " ", "vocabulary": "../vocab.txt", "ids": "ids"]).contains("text.vocabulary"))
        #expect(issues(["tokenizer": "regex", "pattern": " ", "vocabulary": "missing.txt", "ids": "ids"]) == ["text"])
        #expect(issues(["tokenizer": "regex", "pattern": " ", "vocabulary": "vocab.txt", "ids": "nothing"]) == ["text.ids"])
        #expect(issues(["tokenizer": "regex", "pattern": " ", "vocabulary": "vocab.txt", "ids": "ids", "mask": "ids"]) == ["text.mask"])
        #expect(issues(["tokenizer": "wordpiece", "vocabulary": "vocab.txt", "ids": "ids"]) == ["text.mask", "text.segment_ids"])
        #expect(issues(
            ["tokenizer": "regex", "pattern": " ", "vocabulary": "vocab.txt", "ids": "ids"],
            inputs: [["name": "ids", "type": "array", "shape": [1, 8], "dtype": "float32"]]
        ) == ["text.ids"])
    }

    @Test("a vocabulary of 10^7 lines stops at the entry limit; one over the byte limit is refused unread")
    func hugeVocabulary() throws {
        var lines = "<PAD> 0\n<UNKNOWN> 1\n"
        lines += (0..<200).map { "w\($0) \($0 + 2)\n" }.joined()
        let limited = #expect(throws: TensorIOError.self) {
            try Self.tokenizer(vocabulary: Data(lines.utf8), limits: TextLimits(maximumVocabularyEntries: 100))
        }
        #expect(limited?.code == .limitExceeded)
        // 10^7 lines (40 MB): refused at the default entry limit of 2^20 without reading them all.
        let million = Data(String(repeating: "x 1\n", count: 1_000_000).utf8)
        let big = (0..<10).reduce(into: Data(capacity: 40_000_000)) { data, _ in data.append(million) }
        let error = #expect(throws: TensorIOError.self) { try Self.tokenizer(vocabulary: big) }
        #expect(error?.code == .limitExceeded)
        let bytes = #expect(throws: TensorIOError.self) { try Self.tokenizer(vocabulary: big, limits: TextLimits(maximumVocabularyBytes: 1000)) }
        #expect(bytes?.code == .limitExceeded)
    }

    @Test("vocabularies with invalid UTF-8, lines that are not TOKEN ID, no <PAD>: a bounded result or one error")
    func brokenVocabularies() throws {
        let invalid = Data("<PAD> 0\n<UNKNOWN> 1\n\u{FF}\u{FE} 2\ngood 3\n".utf8.map { $0 == 0xC3 ? 0xFF : $0 })
        #expect(try Self.tokenizer(vocabulary: invalid).tokenize("good").ids.prefix(1) == [3])
        #expect(throws: TensorIOError.self) { try Self.tokenizer(vocabulary: Data("<PAD> 0\n<UNKNOWN>\n".utf8)) }
        #expect(throws: TensorIOError.self) { try Self.tokenizer(vocabulary: Data("<PAD> 0\n<UNKNOWN> 99999999999\n".utf8)) }
        #expect(throws: TensorIOError.self) { try Self.tokenizer(vocabulary: Data("<UNKNOWN> 0\n".utf8)) }
    }

    @Test("patterns that backtrack catastrophically elsewhere run in linear time with RE2; patterns RE2 refuses are one error")
    func catastrophicRegex() throws {
        let tokenizer = try Self.tokenizer(pattern: "(a+)+b")
        let started = ContinuousClock.now
        _ = try tokenizer.tokenize(String(repeating: "a", count: 100_000) + "c")
        #expect(ContinuousClock.now - started < .seconds(5))
        // Empty matches are no delimiters: the loop moves on.
        #expect(try Self.tokenizer(pattern: "x*").tokenize("good film").ids.count == 8)
        #expect(throws: TensorIOError.self) { try Self.tokenizer(pattern: "(unclosed") }
        #expect(throws: TensorIOError.self) { try Self.tokenizer(pattern: #"(\1)"#) }
        #expect(throws: TensorIOError.self) {
            try Self.tokenizer(pattern: "a{1000}b{1000}", limits: TextLimits(maximumPatternMemory: 1 << 12))
        }
    }

    @Test("text of 100 MB: refused past the limit without tokenizing; within it, bounded by the input's length")
    func hugeText() throws {
        let tokenizer = try Self.tokenizer()
        let huge = String(repeating: "good film ", count: 10_000_000)
        let error = #expect(throws: TensorIOError.self) { try tokenizer.tokenize(huge) }
        #expect(error?.code == .limitExceeded)
        let generous = try Self.tokenizer(limits: TextLimits(maximumTextBytes: 200 << 20))
        let started = ContinuousClock.now
        #expect(try generous.tokenize(huge).isTruncated)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("SentencePiece models that are not: empty, truncated, bit flips, a character map pointing outside itself — one error each")
    func brokenSentencePiece() throws {
        let model = try #require(try ModelBundle(modelAt: Fixtures.repositoryURL("Tests/Fixtures/Text/sentencepiece/bert_spm_nfkc_echo.tflite"), registry: .everyTask).inferredAssets["sentencepiece.model"])
        let inputs: [JSONObject] = ["ids", "mask", "segments"].map { ["name": $0, "type": "array", "shape": [1, 8], "dtype": "int32"] }
        func load(_ data: Data) throws -> TextTokenizer {
            try Self.withTextBundle(
                ["tokenizer": "sentencepiece", "model": "sp.model", "ids": "ids", "mask": "mask", "segment_ids": "segments"],
                files: ["assets/sp.model": data], inputs: inputs
            ) { try TextTokenizer(bundle: $0) }
        }
        #expect(try load(model).tokenize("hello").ids.count == 8)
        #expect(throws: TensorIOError.self) { try load(Data()) }
        #expect(throws: TensorIOError.self) { try load(Data("not a model".utf8)) }
        var generator = SeededGenerator(seed: 29)
        for length in stride(from: 1, to: model.count, by: max(1, model.count / 31)) {
            _ = try? load(model.prefix(length))
        }
        for _ in 0..<60 {
            var mutated = model
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let tokenizer = try? load(mutated) { _ = try? tokenizer.tokenize("Héllo, wörld … 好") }
        }
    }
}
