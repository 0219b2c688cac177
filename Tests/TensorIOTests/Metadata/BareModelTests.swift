import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// `ModelBundle(modelAt:, registry: .everyTask)` and the SavedModel signature reader, on real files and damaged ones.
@Suite("Bare models")
struct BareModelTests {
    static let savedModel = Fixtures.tensorFlowURL("tf_2_in_2_out_vectors_test.tiobundle").appendingPathComponent("predict")

    @Test("a SavedModel's serving_default signature, read without the runtime")
    func savedModelSignature() throws {
        let signature = try SavedModelSignature.read(savedModelAt: Self.savedModel)
        #expect(signature.key == "serving_default")
        #expect(signature.tags == ["serve"])
        #expect(signature.inputs.map(\.layerName) == ["input1", "input2"])
        #expect(signature.inputs.map(\.dataType) == [.float32, .float32])
        #expect(signature.inputs.map(\.shape) == [[1, 4], [1, 4]])
        #expect(signature.outputs.map(\.layerName) == ["output1", "output2"])

        let bundle = try ModelBundle(modelAt: Self.savedModel, registry: .everyTask)
        #expect(bundle.isInferred)
        #expect(bundle.modelFile.backend == "tensorflow")
        let outputs = try bundle.makeModel().run(["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]])
        #expect(try outputs["output1"].value(as: Double.self) == 240)
    }

    @Test("a missing meta graph or signature is named with those there are")
    func missingSignature() throws {
        let tag = #expect(throws: TensorIOError.self) { try SavedModelSignature.read(savedModelAt: Self.savedModel, tag: "train") }
        #expect(tag?.message.contains(#"no meta graph tagged "train" (tags: [serve])"#) == true)
        let key = #expect(throws: TensorIOError.self) { try SavedModelSignature.read(savedModelAt: Self.savedModel, key: "other") }
        #expect(key?.message.contains(#"no signature "other" (signatures: "serving_default")"#) == true)
    }

    @Test("a damaged saved_model.pb is an error, never a crash: every truncation and flipped bytes")
    func damagedSavedModel() throws {
        let data = try Data(contentsOf: Self.savedModel.appendingPathComponent("saved_model.pb"))
        var generator = SystemRandomNumberGenerator()
        var cases: [Data] = stride(from: 0, to: data.count, by: max(1, data.count / 200)).map { data.prefix($0) }
        for _ in 0..<200 {
            var copy = data
            for _ in 0..<4 { copy[Int.random(in: 0..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            cases.append(copy)
        }
        for bytes in cases {
            do {
                let signature = try bytes.withUnsafeBytes { try SavedModelSignature.read(savedModel: $0, name: "m", tag: "serve", key: "serving_default") }
                #expect(signature.inputs.count + signature.outputs.count <= SavedModelSignature.maximumTensorCount)
            } catch let error as TensorIOError {
                #expect([.invalidModelFile, .limitExceeded].contains(error.code))
            }
        }
    }

    @Test("a .tflite file: layers from its tensors; ModelBundle.open tells bare models from bundles")
    func tfliteFile() throws {
        let file = Fixtures.url("1_in_1_out_number_test.tiobundle").appendingPathComponent("model.tflite")
        let bundle = try ModelBundle.open(file, registry: .everyTask)
        #expect(bundle.isInferred)
        #expect(bundle.identifier == "model")
        #expect(try bundle.makeModel().run(2)["output"].value(as: Double.self) == 25)
        #expect(!(try ModelBundle.open(Fixtures.url("1_in_1_out_number_test.tiobundle"), registry: .everyTask)).isInferred)
        #expect(ModelBundle.isBareModel(Self.savedModel))
        #expect(!ModelBundle.isBareModel(Fixtures.url("1_in_1_out_number_test.tiobundle")))
    }
}
