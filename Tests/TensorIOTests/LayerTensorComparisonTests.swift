import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
import TensorIOModelFile
import TensorIOTestSupport

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

/// The one layer-against-tensor check, on shapes a crafted model file may declare.
@Suite("Layer against tensor check")
struct LayerTensorCheckTests {
    static let layer = LayerDescription(name: "x", shape: [2, 2], declaredDataType: .float32, kind: .array())

    static func problems(_ shape: [Int]?) -> [LayerTensorCheck.Problem] {
        LayerTensorCheck.problems(
            layer: layer, tensor: TensorFacts(name: "t", dataType: .float32, typeName: "float32", shape: shape),
            quantizedModel: nil, isInput: true
        )
    }

    @Test("a shape whose element count overflows is a disagreement, not a trap",
          arguments: [[Int.max, 2], [-1, Int.max, Int.max], [4_611_686_018_427_387_904, 4]])
    func overflowingShape(_ shape: [Int]) {
        let found = Self.problems(shape)
        #expect(found.map(\.kind) == [.elementCount], "\(found)")
        #expect(found.first?.message.contains("more elements than a count can hold") == true, "\(found)")
    }

    @Test("shapes that fit: the same count, a batch dimension, dimensions the tensor leaves open")
    func fittingShapes() {
        for shape: [Int]? in [[2, 2], [4], [1, 4], [-1, 4], [2, -1], nil] {
            #expect(Self.problems(shape).isEmpty, "\(shape.map { "\($0)" } ?? "nil")")
        }
        #expect(Self.problems([3, 2]).map(\.kind) == [.elementCount])
    }
}
