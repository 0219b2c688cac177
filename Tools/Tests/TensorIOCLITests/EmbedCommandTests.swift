import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// `tensorio embed` and `tensorio similar` on a bundle whose `embedding` entry names mobilenet's output.
@Suite("CLI: embed and similar")
struct EmbedCommandTests {
    static let mobilenet = TestData.path("task-models/tflite-support/vision/mobilenet_v1_0.25_224_quant.tflite")

    /// `tensorio init` of mobilenet with an `embedding` entry added to its model.json.
    static func bundle(in folder: URL) async throws -> String {
        let bundle = folder.appendingPathComponent("mobilenet.tiobundle")
        #expect(try await CLI.run("init", mobilenet, "-o", bundle.path).status == 0)
        let file = bundle.appendingPathComponent("model.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let output = try #require((document["outputs"] as? [[String: Any]])?.first?["name"] as? String)
        document["embedding"] = ["output": output, "normalize": false, "quantize": false]
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        return bundle.path
    }

    @Test("embed: one JSON line of vectors; --normalize makes them length 1, --quantize bytes", TestData.required(paths: mobilenet))
    func embed() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try await Self.bundle(in: folder)
            let result = try await CLI.run("embed", bundle, "Examples/photos/cat.jpg", "Examples/photos/china.jpg", "--json", "--normalize")
            #expect(result.status == 0 && result.stdoutLines.count == 1, "\(result)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let embeddings = try #require(document["embeddings"] as? [[String: Any]])
            #expect(embeddings.map { $0["path"] as? String } == ["Examples/photos/cat.jpg", "Examples/photos/china.jpg"])
            let values = try #require(embeddings.first?["values"] as? [Double])
            #expect(values.count == 1001 && abs(values.reduce(0) { $0 + $1 * $1 }.squareRoot() - 1) < 1e-4)
            let quantized = try await CLI.run("embed", bundle, "Examples/photos/cat.jpg", "--json", "--quantize")
            let bytes = try #require(((try JSONSerialization.jsonObject(with: Data(quantized.stdout.utf8)) as? [String: Any])?["embeddings"] as? [[String: Any]])?.first?["values"] as? [Int])
            #expect(bytes.count == 1001 && bytes.allSatisfy { (-128...127).contains($0) })
            let text = try await CLI.run("embed", bundle, "Examples/photos/cat.jpg")
            #expect(text.status == 0 && text.stdout.hasPrefix("Examples/photos/cat.jpg: 1001 values"), "\(text)")
        }
    }

    @Test("similar: a folder's photos ranked by cosine similarity, the query itself first at 1; --top; a missing query is one error", TestData.required(paths: mobilenet))
    func similar() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try await Self.bundle(in: folder)
            let result = try await CLI.run("similar", bundle, "Examples/photos/cat.jpg", "Examples/photos", "--top", "3", "--json")
            #expect(result.status == 0, "\(result)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(document["query"] as? String == "Examples/photos/cat.jpg")
            let matches = try #require(document["matches"] as? [[String: Any]])
            let similarities = matches.compactMap { $0["similarity"] as? Double }
            #expect(matches.count == 3 && matches.first?["path"] as? String == "Examples/photos/cat.jpg" && abs(similarities[0] - 1) < 1e-9)
            #expect(similarities == similarities.sorted(by: >))
            let missing = try await CLI.run("similar", bundle, "nothing.jpg", "Examples/photos")
            #expect(missing.status == 1 && missing.stderr.contains("nothing.jpg"), "\(missing)")
        }
    }

    @Test("similar on the EfficientNet-Lite0 feature-vector bundle: cat first at 1, coffee at MediaPipe's cosine_similarity")
    func similarEfficientNet() async throws {
        let result = try await CLI.run("similar", "Examples/efficientnet-lite0-embedding.tiobundle", "Examples/photos/cat.jpg", "Examples/photos", "--json")
        #expect(result.status == 0, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let matches = try #require(document["matches"] as? [[String: Any]])
        let similarity = Dictionary(uniqueKeysWithValues: matches.compactMap { match in
            (match["path"] as? String).flatMap { path in (match["similarity"] as? Double).map { (path, $0) } }
        })
        #expect(matches.count == 6 && matches.first?["path"] as? String == "Examples/photos/cat.jpg" && abs((similarity["Examples/photos/cat.jpg"] ?? 0) - 1) < 1e-9)
        // MediaPipe 0.10.21's ImageEmbedder.cosine_similarity of the two plain embeddings (Tests/Fixtures/Embedding).
        let references = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Embedding/references.json"))) as? [String: Any])
        let pair = try #require((references["cosine_similarity"] as? [[String: Any]])?.first { $0["a"] as? String == "Examples/photos/cat.jpg" && $0["b"] as? String == "Examples/photos/coffee.jpg" })
        let expected = try #require(pair["plain"] as? Double)
        let coffee = try #require(similarity["Examples/photos/coffee.jpg"])
        #expect(abs(coffee - expected) <= 1e-4 && coffee < 0.5, "cat ~ coffee: \(coffee) against MediaPipe's \(expected)")
    }
}
