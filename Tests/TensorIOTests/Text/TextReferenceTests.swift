import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOText

/// The same token ids and answers as MediaPipe 0.10.21 (issue 29, points 3 and 4), from
/// `Tests/Fixtures/Text/` (`scripts/fixtures/make_text_references.py`): the regex-tokenized movie-review
/// classifier and the two embedders of the TFLite Task Library, and the WordPiece and SentencePiece echo
/// models whose output is what MediaPipe fed them, on 25 sentences (punctuation, capitals, unknown words,
/// accents, CJK, emoji, NUL, whitespace, texts longer than the inputs).
@Suite("Text: the same ids and answers as MediaPipe")
struct TextReferenceTests {
    static let text = "task-models/tflite-support/text/"
    static let classifierModel = text + "test_model_nl_classifier_with_regex_tokenizer.tflite"
    static let embedders = ["regex_one_embedding_with_metadata", "regex_two_embeddings_with_metadata"]

    struct Regex: Decodable {
        struct Sentence: Decodable {
            struct Embedding: Decodable { let raw: [Double]; let l2_normalized: [Double]; let l2_normalized_quantized: [Int] }
            let name: String
            let text: String
            let ids: [String: [Int32]]
            let classifier_scores: [Double]
            let embeddings: [String: Embedding]
        }
        let sentences: [Sentence]
    }

    struct BERT: Decodable {
        struct Feed: Decodable { let ids: [Int32]; let mask: [Int32]; let segment_ids: [Int32] }
        struct Sentence: Decodable {
            let name: String
            let text: String
            let ids: [Int32]?
            let mask: [Int32]?
            let segment_ids: [Int32]?
            let nfkc: Feed?
            let identity: Feed?
        }
        let sentences: [Sentence]
    }

    static func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Text/" + name)))
    }

    static func model(_ name: String) throws -> TextModel {
        try TextModel(bundle: ModelBundle(modelAt: TestData.url(name), registry: .everyTask))
    }

    @Test("the movie-review classifier: MediaPipe's ids on every sentence, scores within 1e-5", TestData.required(classifierModel))
    func classifier() throws {
        let references = try Self.load("regex.json", as: Regex.self)
        let model = try Self.model(Self.classifierModel)
        let tokenizer = model.tokenizer
        #expect(try model.model.bundle.text?.tokenizer == .regex(pattern: #"[^\w\']+"#, vocabulary: "vocab.txt"))
        var worst = 0.0
        for sentence in references.sentences {
            #expect(try tokenizer.tokenize(sentence.text).ids == sentence.ids["classifier_vocab"], "\(sentence.name)")
            let result = try model.classify(text: sentence.text)
            #expect(result.scores.labels == ["Negative", "Positive"])
            for (score, expected) in zip(result.scores.scores, sentence.classifier_scores) { worst = max(worst, abs(Double(score) - expected)) }
        }
        print("text-reference | regex classifier | \(references.sentences.count) sentences, ids identical | scores within \(worst) of MediaPipe's")
        #expect(worst <= 1e-5)
    }

    @Test("the two regex embedders: MediaPipe's ids, embeddings plain, normalized and quantized", TestData.required(embedders.map { text + $0 + ".tflite" }), arguments: embedders)
    func embedder(_ name: String) throws {
        let references = try Self.load("regex.json", as: Regex.self)
        let model = try Self.model(Self.text + name + ".tflite")
        let tokenizer = model.tokenizer
        var worst = 0.0
        for sentence in references.sentences {
            #expect(try tokenizer.tokenize(sentence.text).ids == sentence.ids["embedder_vocab"], "\(sentence.name)")
            let expected = try #require(sentence.embeddings[name])
            let raw = try model.embed(text: sentence.text)
            let normalized = try model.embed(text: sentence.text, options: EmbeddingOptions(normalizes: true))
            let quantized = try model.embed(text: sentence.text, options: EmbeddingOptions(normalizes: true, quantizes: true))
            for (value, reference) in Array(zip(raw.values, expected.raw)) + Array(zip(normalized.values, expected.l2_normalized)) {
                worst = max(worst, abs(Double(value) - reference))
            }
            #expect(quantized.quantizedValues.map(Int.init) == expected.l2_normalized_quantized, "\(sentence.name)")
        }
        print("text-reference | \(name) | embeddings within \(worst) of MediaPipe's; quantized identical")
        #expect(worst <= 1e-5)
    }

    @Test("WordPiece: the ids, mask and segment ids MediaPipe fed its BERT echo model, on every sentence")
    func wordPiece() throws {
        let references = try Self.load("wordpiece.json", as: BERT.self)
        let bundle = try ModelBundle(modelAt: Fixtures.repositoryURL("Tests/Fixtures/Text/wordpiece/bert_wordpiece_echo.tflite"), registry: .everyTask)
        let tokenizer = try TextTokenizer(bundle: bundle)
        for sentence in references.sentences {
            let tokens = try tokenizer.tokenize(sentence.text)
            #expect(tokens.ids == sentence.ids && tokens.mask == sentence.mask && tokens.segmentIDs == sentence.segment_ids, "\(sentence.name)")
        }
    }

    @Test("SentencePiece: the ids MediaPipe fed its echo models (nmt_nfkc and identity normalization)", arguments: ["nfkc", "identity"])
    func sentencePiece(_ variant: String) throws {
        let references = try Self.load("sentencepiece.json", as: BERT.self)
        let bundle = try ModelBundle(modelAt: Fixtures.repositoryURL("Tests/Fixtures/Text/sentencepiece/bert_spm_\(variant)_echo.tflite"), registry: .everyTask)
        let tokenizer = try TextTokenizer(bundle: bundle)
        var differing: [String] = []
        for sentence in references.sentences {
            let expected = try #require(variant == "nfkc" ? sentence.nfkc : sentence.identity)
            let tokens = try tokenizer.tokenize(sentence.text)
            #expect(tokens.mask == expected.mask && tokens.segmentIDs == expected.segment_ids, "\(sentence.name)")
            if tokens.ids != expected.ids { differing.append(sentence.name) }
        }
        print("text-reference | sentencepiece \(variant) | ids differ from MediaPipe's on \(differing)")
        #expect(differing.isEmpty)
    }
}
