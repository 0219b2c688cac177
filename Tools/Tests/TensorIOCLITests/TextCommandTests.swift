import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio classify --text` and `tensorio embed --text` (issue 29, point 3), and `tensorio init` writing the
/// text entry with the tokenizer's files.
@Suite("CLI: classify and embed text")
struct TextCommandTests {
    static let classifier = TestData.path("task-models/tflite-support/text/test_model_nl_classifier_with_regex_tokenizer.tflite")
    static let embedder = TestData.path("task-models/tflite-support/text/regex_one_embedding_with_metadata.tflite")

    @Test("classify --text (repeatable) and --text-file: one JSON document of texts and their labels, in order", TestData.required(paths: classifier))
    func classify() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("reviews.txt")
            try Data("A triumph.\n\nNot worth the ticket.\n".utf8).write(to: file)
            let result = try await CLI.run("classify", Self.classifier, "--text", "This is the best movie I've seen in recent years.", "--text-file", file.path, "--json", "--top", "1")
            #expect(result.status == 0 && result.stdoutLines.count == 1, "\(result)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let texts = try #require(document["texts"] as? [[String: Any]])
            #expect(texts.map { $0["text"] as? String } == ["This is the best movie I've seen in recent years.", "A triumph.", "Not worth the ticket."])
            let first = try #require(texts[0]["classification"] as? [[String: Any]])
            #expect(first.count == 1 && ["Negative", "Positive"].contains(first[0]["label"] as? String ?? ""))
            let table = try await CLI.run("classify", Self.classifier, "--text", "A triumph.")
            #expect(table.status == 0 && table.stdoutLines.first == "A triumph." && table.stdoutLines.count == 3, "\(table)")
        }
    }

    @Test("a text model given files, an image model given --text, files and --text together: one clear error each", TestData.required(paths: classifier))
    func refusals() async throws {
        let image = try await CLI.run("classify", "Examples/efficientnet-lite0-float32.tiobundle", "--text", "hello")
        #expect(image.status != 0 && image.stderr.contains("takes no text"), "\(image)")
        let both = try await CLI.run("classify", Self.classifier, "README.md", "--text", "hello")
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both)")
        let missing = try await CLI.run("classify", Self.classifier, "--text-file", "nothing.txt")
        #expect(missing.status != 0 && missing.stderr.contains("nothing.txt"), "\(missing)")
    }

    @Test("embed --text: the vectors, normalized to length 1 with --normalize", TestData.required(paths: embedder))
    func embed() async throws {
        let result = try await CLI.run("embed", Self.embedder, "--text", "hello world", "--text", "a quiet evening", "--normalize", "--json")
        #expect(result.status == 0, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let embeddings = try #require(document["embeddings"] as? [[String: Any]])
        #expect(embeddings.map { $0["text"] as? String } == ["hello world", "a quiet evening"])
        let values = try #require(embeddings[0]["values"] as? [Double])
        #expect(values.count == 16 && abs(values.reduce(0) { $0 + $1 * $1 }.squareRoot() - 1) < 1e-5)
    }

    @Test("init writes the text entry and the tokenizer's file to assets/; the bundle classifies as the bare model",
          TestData.required(paths: classifier), arguments: [classifier, "Tests/Fixtures/Text/wordpiece/bert_wordpiece_echo.tflite", "Tests/Fixtures/Text/sentencepiece/bert_spm_identity_echo.tflite"])
    func initWritesText(_ model: String) async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("text.tiobundle")
            let written = try await CLI.run("init", model, "-o", bundle.path)
            #expect(written.status == 0, "\(written)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("model.json"))) as? [String: Any])
            let text = try #require(document["text"] as? [String: Any])
            let file = try #require((text["vocabulary"] ?? text["model"]) as? String)
            #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("assets").appendingPathComponent(file).path))
            let fromBundle = try await CLI.run("classify", bundle.path, "--text", "Café naïve, CLICHÉ! 好", "--json", "--top", "100")
            let fromModel = try await CLI.run("classify", model, "--text", "Café naïve, CLICHÉ! 好", "--json", "--top", "100")
            #expect(fromBundle.status == 0 && fromBundle.stdout == fromModel.stdout, "\(fromBundle)")
        }
    }
}
