import Foundation
import Testing
@_spi(Tools) @testable import TensorIO

/// `LayerTensorComparison` reads the model file without loading it; these check that it pairs layers
/// with the tensors loading would bind them to.
@Suite("Layers beside tensors")
struct LayerTensorComparisonTests {
    @Test("layers that match no tensor by name pair in LiteRT's order, the subgraph's, not the signature's")
    func liteRTOrder() throws {
        let bundle = try Fixtures.bundle("unnamed_inputs_test.tiobundle")
        let comparison = try LayerTensorComparison(bundle: bundle)
        #expect(comparison.rows.filter { $0.side == "input" }.map(\.tensorName) == ["in_b", "in_a"])
        #expect(try TFLiteEntryPoints.readPredictionEntry(of: bundle).inputs.map(\.name) == ["in_b", "in_a"])
    }

    @Test("a trainable model is compared with the signature predictions run (infer), not its first one")
    func trainableModel() throws {
        let bundle = try TrainingFixtures.digitsBundle("digits-train-tflite.tiobundle")
        let entry = try TFLiteEntryPoints.readPredictionEntry(of: bundle)
        #expect(entry.signatureKey == "infer")
        let comparison = try LayerTensorComparison(bundle: bundle)
        #expect(comparison.agrees, "\(comparison.rows.flatMap(\.problems))")
    }

    @Test("fixtures that load agree with their model files", arguments: [
        "1_in_1_out_number_test.tiobundle", "2_in_2_out_vectors_test.tiobundle", "reordered_inputs_test.tiobundle",
    ])
    func fixturesAgree(name: String) throws {
        let comparison = try LayerTensorComparison(bundle: Fixtures.bundle(name))
        #expect(comparison.agrees, "\(comparison.rows.flatMap(\.problems))")
    }
}
