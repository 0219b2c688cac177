import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// Embeddings (issue 28, first part): the `embedding` description, MediaPipe's L2 normalization and scalar
/// quantization, cosine similarity and its errors, and `model.embed` on a real model.
@Suite("Embeddings")
struct EmbeddingTests {
    static let mobilenet = "task-models/tflite-support/vision/mobilenet_v1_0.25_224_quant.tflite"

    @Test("cosine similarity: 1 for the same direction, −1 for the opposite; errors for other sizes, kinds and zero vectors")
    func cosine() throws {
        let a = Embedding(values: [1, 2, 3]), b = Embedding(values: [2, 4, 6]), c = Embedding(values: [-1, -2, -3])
        let same = try a.cosineSimilarity(to: b), opposite = try a.cosineSimilarity(to: c)
        #expect(abs(same - 1) < 1e-12 && abs(opposite + 1) < 1e-12)
        let orthogonal = try Embedding(values: [1, 0]).cosineSimilarity(to: Embedding(values: [0, 1]))
        #expect(abs(orthogonal) < 1e-12)
        for other in [Embedding(values: [1, 2]), Embedding(values: [0, 0, 0]), Embedding(quantizedValues: [1, 2, 3]), Embedding(values: [.nan, 1, 1])] {
            let error = #expect(throws: TensorIOError.self) { try a.cosineSimilarity(to: other) }
            #expect(error?.code == .invalidInput)
        }
        #expect(throws: TensorIOError.self) { try Embedding(values: []).cosineSimilarity(to: Embedding(values: [])) }
    }

    @Test("normalization divides by the length; quantization is clamp(round(v × 128), −128, 127), halves away from zero")
    func normalizeAndQuantize() {
        let normalized = Embedding(raw: [3, 4], normalizing: true, quantizing: false)
        #expect(normalized.values == [0.6, 0.8])
        #expect(Embedding(raw: [0, 0], normalizing: true, quantizing: false).values == [0, 0])
        let quantized = Embedding(raw: [0.5, -0.5, 2, -2, 0.00390625, -0.00390625, .nan, .infinity], normalizing: false, quantizing: true)
        #expect(quantized.quantizedValues == [64, -64, 127, -128, 1, -1, 0, 127] && quantized.isQuantized && quantized.values.isEmpty)
        #expect(Embedding(raw: [3, 4], normalizing: true, quantizing: true).quantizedValues == [77, 102])
    }

    /// mobilenet's bundle with an `embedding` entry naming its output (its 1,001 scores stand in for a vector).
    static func bundle(_ entry: JSONObject?, in folder: URL? = nil) throws -> ModelBundle {
        let inferred = try ModelBundle(modelAt: TestData.url(mobilenet), registry: .everyTask)
        var document = Fixtures.numberModelDocument()
        document["model"] = ["file": "model.tflite", "backend": "tflite", "quantized": true]
        document["inputs"] = [["name": inferred.inputs[0].name, "type": "image", "shape": [224, 224, 3], "format": "RGB", "dtype": "uint8"]]
        document["outputs"] = [["name": inferred.outputs[0].name, "type": "array", "shape": [1, 1001], "dtype": "uint8", "dequantize": ["from": "tensor"]]]
        if let entry { document["embedding"] = entry }
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        guard let folder else {
            return try withBundle(json: String(decoding: data, as: UTF8.self), files: [:]) { try ModelBundle(at: $0) }
        }
        // A bundle that outlives this call, for a model loaded from it.
        let bundle = folder.appendingPathComponent("mobilenet.tiobundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try data.write(to: bundle.appendingPathComponent("model.json"))
        try FileManager.default.copyItem(at: TestData.url(mobilenet), to: bundle.appendingPathComponent("model.tflite"))
        return try ModelBundle(at: bundle)
    }

    static func embed(_ model: any Model, _ photo: PixelBuffer, options: EmbeddingOptions = EmbeddingOptions()) throws -> Embedding {
        try model.embed(photo, options: options)
    }

    @Test("model.embed: the description's output, normalized and quantized as the description or the options say", TestData.required(mobilenet))
    func embed() async throws {
        try await withTemporaryDirectory { folder in try await Self.embed(in: folder) }
    }

    static func embed(in folder: URL) async throws {
        let output = try ModelBundle(modelAt: TestData.url(mobilenet), registry: .everyTask).outputs[0].name
        let bundle = try Self.bundle(["output": output, "normalize": true], in: folder)
        #expect(bundle.embedding == EmbeddingDescription(output: output, normalizes: true, quantizes: false))
        let model = try bundle.makeModel()
        let cat = try model.embed(contentsOf: Fixtures.repositoryURL("Examples/photos/cat.jpg"))
        let length = cat.values.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
        #expect(cat.count == 1001 && abs(length - 1) < 1e-5)
        let photo = try PixelBuffer(contentsOf: Fixtures.repositoryURL("Examples/photos/grace_hopper.jpg"))
        let asynchronous = try await model.embed(photo)
        let synchronous = try Self.embed(model, photo)
        #expect(asynchronous == synchronous)
        let different = try cat.cosineSimilarity(to: asynchronous), itself = try cat.cosineSimilarity(to: cat)
        #expect(different < 0.9 && abs(itself - 1) < 1e-9)
        let quantized = try Self.embed(model, photo, options: EmbeddingOptions(quantizes: true))
        #expect(quantized.isQuantized && quantized.count == 1001)
        // Refused at its JSON path: an unknown output, a shape that is not a vector, an unknown key.
        for (entry, path) in [(["output": "nothing"], "embedding.output"), (["output": output, "scale": 2], "embedding.scale"), (["normalize": true], "embedding.output")] as [(JSONObject, String)] {
            let error = #expect(throws: TensorIOError.self) { try Self.bundle(entry) }
            #expect(error?.issues.map(\.path).contains(path) == true, "\(String(describing: error))")
        }
        #expect(EmbeddingDescription.shapeProblem([1, 4, 4, 3]) != nil && EmbeddingDescription.shapeProblem([1, 1280]) == nil)
    }
}
