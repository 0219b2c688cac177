import Foundation
import Testing
import TensorIO
import TensorIOTestSupport
import TensorIOText

/// A `TextModel` owns its tokenizer (issue 38, point 5: no process-wide cache behind `classify(text:)`): read
/// once when the text model is made, from the model's bundle, and used for every text without looking
/// anything up or checking a file again. Over the committed WordPiece echo model, whose output is the ids,
/// mask and segment ids it was fed, as floats.
@Suite("Text: a TextModel and its tokenizer")
struct TextModelTests {
    static let echo = "Tests/Fixtures/Text/wordpiece/bert_wordpiece_echo.tflite"
    static let text = "This is the best movie I've seen in recent years."

    /// What the echo model answers for `tokens`: the ids, mask and segment ids, in that order.
    static func echoed(_ tokens: TokenizedText) throws -> [Float] {
        (tokens.ids + (try #require(tokens.mask)) + (try #require(tokens.segmentIDs))).map(Float.init)
    }

    /// The synchronous call (in an async context Swift would choose the async overload).
    static func classify(_ model: TextModel, _ text: String) throws -> TextClassification {
        try model.classify(text: text)
    }

    @Test("the tokenizer is read when the text model is made and kept: the model file gone afterwards, each text runs as before")
    func tokenizerReadOnce() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("echo.tflite")
            try FileManager.default.copyItem(at: Fixtures.repositoryURL(Self.echo), to: file)
            let model = try TextModel(bundle: ModelBundle(modelAt: file, registry: .text))
            try model.model.load()
            let before = try Self.classify(model, Self.text)
            // The tokenizer's vocabulary is packed in the model file: nothing may read it again.
            try FileManager.default.removeItem(at: file)
            let tokens = try model.tokenizer.tokenize(Self.text)
            #expect(tokens.ids.first == 2 && tokens.ids.count == 32)  // [CLS], then the pieces, padded to the inputs' length
            let after = try Self.classify(model, Self.text)
            #expect(after.scores.scores == before.scores.scores)
            #expect(after.scores.scores == (try Self.echoed(tokens)))
            let asynchronous = try await model.classify(text: Self.text)
            #expect(asynchronous.scores.scores == after.scores.scores && asynchronous.output == after.output)
            let other = try Self.classify(model, "A triumph.")
            #expect(other.scores.scores == (try Self.echoed(try model.tokenizer.tokenize("A triumph."))))
        }
    }

    @Test("one text model shared by concurrent tasks: each text gets its own answer")
    func shared() async throws {
        let model = try TextModel(bundle: ModelBundle(modelAt: Fixtures.repositoryURL(Self.echo), registry: .text))
        let texts = (0..<24).map { "review \($0): " + String(repeating: "good ", count: $0 % 7) + "film" }
        let answers = try await withThrowingTaskGroup(of: (Int, [Float]).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, try await model.classify(text: text).scores.scores) }
            }
            return try await group.reduce(into: [Int: [Float]]()) { $0[$1.0] = $1.1 }
        }
        for (index, text) in texts.enumerated() {
            #expect(answers[index] == (try Self.echoed(try model.tokenizer.tokenize(text))), "\(text)")
        }
    }

    @Test("a model without a text entry is refused when the text model is made, not at its first text")
    func noTextEntry() throws {
        let error = #expect(throws: TensorIOError.self) {
            try TextModel(model: try Fixtures.model("1_in_1_out_number_test.tiobundle"))
        }
        #expect(error?.code == .unsupported && error?.location == "text", "\(String(describing: error))")
        #expect(error?.message.contains("\"text\" entry") == true, "\(String(describing: error))")
    }

    @Test("a text model takes a model made with a configuration of its own, and embeds only what describes an embedding")
    func fromModel() throws {
        let model = try ModelBundle(modelAt: Fixtures.repositoryURL(Self.echo), registry: .text).makeModel(configuration: ModelConfiguration(threadCount: 1))
        let text = try TextModel(model: model)
        #expect(text.model === model)
        #expect(try text.classify(text: "a quiet evening").scores.scores == (try Self.echoed(try text.tokenizer.tokenize("a quiet evening"))))
        let error = #expect(throws: TensorIOError.self) { try text.embed(text: "a quiet evening") }
        #expect(error?.code == .unsupported, "\(String(describing: error))")
    }
}
