import ArgumentParser
import Foundation
import TensorIO
@testable import TensorIOCLI
import Testing
import TensorIOTestSupport

/// How `tensorio init` prepares the photos of a bare model's image input, run in-process.
extension InitCommandTests {
    /// Runs `init` in-process into a temporary folder and returns the written model.json's first input.
    static func writtenInput(_ arguments: [String], in folder: URL) throws -> [String: Any] {
        let bundle = folder.appendingPathComponent("out.tiobundle")
        let command = try InitCommand.parse(arguments + ["--output", bundle.path])
        try command.run()
        let data = try Data(contentsOf: bundle.appendingPathComponent("model.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(try Self.layers(json, "inputs").first)
    }

    @Test("a bare model whose only output is an unlabelled vector: model.json stretches photos bilinearly, as MediaPipe's ImageEmbedder; with labels the default stays")
    func embedderPreparation() throws {
        try withTemporaryDirectory { folder in
            let embedder = Fixtures.repositoryURL("Examples/efficientnet-lite0-embedding.tiobundle/model.tflite").path
            let input = try Self.writtenInput([embedder, "--image", "image", "--normalize", "[-1,1]"], in: folder)
            #expect(input["resize"] as? String == "stretch" && input["scaling"] as? String == "bilinear", "\(input)")
            let inferred = try ModelBundle.infer(
                fromModelAt: URL(fileURLWithPath: embedder),
                options: BundleInferenceOptions(imageInputs: ["image"], normalization: .standard(.minusOneToOne)), registry: .everyTask
            )
            #expect(inferred.notes.contains { $0.kind == .inferred && $0.message.contains("as MediaPipe's ImageEmbedder") }, "\(inferred.notes)")
            #expect(try inferred.bundle.embedding == nil, "the rule implies the embedding; model.json names none")
        }
        // A classifier given its labels is not a bare vector: it keeps the default (fill, box).
        try withTemporaryDirectory { folder in
            let classifier = Fixtures.repositoryURL("Examples/efficientnet-lite0-float32.tiobundle")
            let input = try Self.writtenInput([
                classifier.appendingPathComponent("model.tflite").path, "--image", "image", "--normalize", "[-1,1]",
                "--labels", "classification=" + classifier.appendingPathComponent("assets/labels.txt").path,
            ], in: folder)
            #expect(input["resize"] == nil && input["scaling"] == nil, "\(input)")
        }
    }
}
