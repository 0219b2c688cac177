import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// The original's TensorFlow integration tests, ported, through the real TensorFlow C API: what only this
/// backend does (uint8, batches, placeholders, training, export). What LiteRT must do alike is in
/// `BackendParityTests`. The bundles are in `Tests/Fixtures/TensorFlowBundles` (its README says how they
/// were made and the numbers asserted here).
@Suite("TensorFlow backend")
struct TensorFlowIntegrationTests {
    /// A TensorFlow fixture's model as the runtime type that trains.
    static func trainable(_ name: String) throws -> TrainableRuntimeModel {
        try #require(try Fixtures.tensorFlowModel("\(name).tiobundle") as? TrainableRuntimeModel)
    }

    // MARK: - Prediction

    @Test("uint8 in and out: [0,1,127,254] → [1,2,128,255]")
    func uint8() throws {
        let output = try Fixtures.tensorFlowModel("tf_uint8_test.tiobundle").run([0, 1, 127, 254])["output"]
        #expect(output.value == .numbers(.uint8([1, 2, 128, 255]), shape: [4]))
    }

    // MARK: - Batches

    @Test("a batch of one and of three items through a -1 batch dimension")
    func batchNumber() throws {
        let model = try Fixtures.tensorFlowModel("tf_batch_number_test.tiobundle")
        #expect(try model.run(2)["output"].value(as: Double.self) == 25)
        let one = try model.run(Batch([["input": [2]]]))
        #expect(try one.map { try $0["output"].value(as: Double.self) } == [25])
        let three = try model.run(Batch([["input": [1]], ["input": [2]], ["input": [3]]]))
        #expect(try three.map { try $0["output"].value(as: Double.self) } == [15, 25, 35])
    }

    @Test("a batch of three items, two inputs and two outputs (the original took one item only: #159)")
    func batchTwoVectors() throws {
        let model = try Fixtures.tensorFlowModel("tf_batch_2_in_2_out_vectors_test.tiobundle")
        let batch = try Batch([
            ["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]],
            ["input1": [2, 2, 2, 2], "input2": [1, 1, 1, 1]],
            ["input1": [0, 1, 0, 1], "input2": [5, 0, 5, 0]],
        ])
        let results = try model.run(batch)
        #expect(try results.map { try $0["output1"].value(as: Double.self) } == [240, 8, 0])
        #expect(try results.map { try $0["output2"].value(as: Double.self) } == [64, 6, 0])
        // The same items one at a time agree.
        for (index, item) in batch.enumerated() {
            #expect(try model.run(.named(item)) == results[index])
        }
    }

    @Test("several items for a layer without a batch dimension are refused, naming the layer")
    func batchWithoutBatchDimension() throws {
        let model = try Fixtures.tensorFlowModel("tf_1_in_1_out_number_test.tiobundle")
        let error = #expect(throws: TensorIOError.self) {
            try model.run(Batch([["input": [1]], ["input": [2]]]))
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.location == "layer \"input\"")
        #expect(error?.message.contains("batch dimension") == true)
    }

    // MARK: - Training

    static let x: [[Float]] = [[1], [2], [3], [4]]
    static let y: [[Float]] = [[3], [5], [7], [9]]
    static var batch: Batch {
        get throws { try Batch(zip(x, y).map { ["x": $0.0.inputValue, "y": $0.1.inputValue] }) }
    }

    @Test("training returns the loss as a number; a learning-rate placeholder drives the step",
          arguments: ["tf_trainable_linear_test", "tf_trainable_placholders_test"])
    func training(_ name: String) throws {
        let model = try Self.trainable(name)
        #expect(model.bundle.placeholders.names == ["learning_rate"])
        // A rate of 0 changes nothing: the loss stays 41.
        for _ in 0..<2 {
            let outputs = try model.train(try Self.batch, placeholders: ["learning_rate": 0.0])
            #expect(outputs.names == ["loss"])
            #expect(try outputs["loss"].value(as: Double.self) == 41)
        }
        // At 0.1 the fetched loss is the one before each step: 41, then 18.414999, 8.274352, …
        let expected: [Double] = [41.0, 18.414999, 8.274352, 3.721012, 1.676291]
        for value in expected {
            let loss = try model.train(try Self.batch, placeholders: ["learning_rate": 0.1])["loss"].value(as: Double.self)
            #expect(abs(loss - value) < 1e-4)
        }
        // Prediction leaves out the training-only label and loss; the model's inputs and outputs have them.
        #expect(model.predictionInputs.names == ["x"])
        #expect(model.predictionOutputs.names == ["prediction"])
        #expect(model.inputs.names == ["x", "y"])
        #expect(model.outputs.names == ["loss", "prediction"])
        let prediction = try model.run([10])["prediction"].value(as: Double.self)
        #expect(prediction > 15)
    }

    @Test("training without a declared placeholder is refused, naming it; a prediction that needs a training-only input names it")
    func missingPlaceholder() throws {
        let model = try Self.trainable("tf_trainable_linear_test")
        let error = #expect(throws: TensorIOError.self) { try model.train(try Self.batch) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("\"learning_rate\"") == true)
        // The training graph's loss needs the label: fetching it in a prediction is TensorFlow's to refuse.
        try withFixtureCopy("tf_trainable_linear_test.tiobundle", from: Fixtures.tensorFlowBundlesDirectory, edit: { $0[path: "train.outputs"] = nil }) { url in
            let predicting = try ModelBundle(at: url).makeModel()
            let failure = #expect(throws: TensorIOError.self) { try predicting.run([1]) }
            #expect(failure?.code == .invalidInput)
            #expect(failure?.location == "layer \"y\"")
            #expect(failure?.message.contains("only training feeds") == true)
        }
    }

    @Test("the original's placeholder test: input1 fed as an input, input2 as a placeholder → 240 and 64")
    func placeholderFed() throws {
        let model = try Fixtures.tensorFlowModel("tf_1_in_1_placeholder_2_out_vectors_test.tiobundle")
        #expect(model.inputs.names == ["input1"])
        let outputs = try model.run(.numbers(.float32([1, 2, 3, 4])), placeholders: ["input2": .numbers(.float32([10, 20, 30, 40]))])
        #expect(try outputs["output1"].value(as: Double.self) == 240)
        #expect(try outputs["output2"].value(as: Double.self) == 64)
        // Left out, the placeholder is named in TensorIO's words (TensorFlow only says it by failing).
        let error = #expect(throws: TensorIOError.self) { try model.run(.numbers(.float32([1, 2, 3, 4]))) }
        #expect(error?.code == .invalidInput)
        #expect(error?.location == "layer \"input2\"")
        #expect(error?.message.contains("the placeholder \"input2\" was not given a value") == true)
        #expect(error?.runtimeMessage == nil)
        let unknown = #expect(throws: TensorIOError.self) {
            try model.run(.numbers(.float32([1, 2, 3, 4])), placeholders: ["input3": 1])
        }
        #expect(unknown?.message.contains("no placeholder named \"input3\"") == true)
    }

    @Test("an unknown placeholder, a batch missing a layer or with an extra one are refused before running")
    func badTrainingInputs() throws {
        let model = try Self.trainable("tf_trainable_linear_test")
        let unknown = #expect(throws: TensorIOError.self) {
            try model.train(try Self.batch, placeholders: ["rate": 0.1])
        }
        #expect(unknown?.message.contains("no placeholder named \"rate\"") == true)
        let missing = #expect(throws: TensorIOError.self) {
            try model.train(Batch([["x": [1]]]), placeholders: ["learning_rate": 0.1])
        }
        #expect(missing?.message.contains("no values for \"y\"") == true)
        let extra = #expect(throws: TensorIOError.self) {
            try model.train(Batch([["x": [1], "y": [1], "z": [1]]]), placeholders: ["learning_rate": 0.1])
        }
        #expect(extra?.message.contains("no input layer named \"z\"") == true)
    }

    @Test("a model without train in its modes is not a TrainableModel, and makeTrainableModel says why")
    func predictOnly() throws {
        let model = try Fixtures.tensorFlowModel("tf_batch_number_test.tiobundle")
        #expect(model is RuntimeModel)
        #expect(!(model is any TrainableModel), "a predict-only model cannot be cast to a trainable one")
        let bundle = try ModelBundle(at: Fixtures.tensorFlowURL("tf_batch_number_test.tiobundle"))
        let error = #expect(throws: TensorIOError.self) { try bundle.makeTrainableModel() }
        #expect(error?.code == .unsupported)
        #expect(error?.location == "model.modes")
    }

    @Test("export writes a bundle that opens with the trained weights; the original is untouched")
    func export() throws {
        let model = try Self.trainable("tf_trainable_linear_test")
        for _ in 0..<50 { _ = try model.train(try Self.batch, placeholders: ["learning_rate": 0.05]) }
        let trained = try model.run([10])["prediction"].value(as: Double.self)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tio-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("trained.tiobundle")
        try model.export(to: destination)

        let reloaded = try ModelBundle(at: destination).makeModel()
        #expect(try reloaded.run([10])["prediction"].value(as: Double.self) == trained)
        let fresh = try Fixtures.tensorFlowModel("tf_trainable_linear_test.tiobundle")
        #expect(try fresh.run([10])["prediction"].value(as: Double.self) == 0)
        // Nothing but the bundle was left next to it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["trained.tiobundle"])

        // A folder that is taken is refused, and left as it was.
        let error = #expect(throws: TensorIOError.self) { try model.export(to: destination) }
        #expect(error?.code == .io)
        #expect(try reloaded.run([10])["prediction"].value(as: Double.self) == trained)
    }

    // MARK: - Loading

    @Test("a layer the graph does not have, or of another type, is named when the model loads")
    func layerMismatch() throws {
        try withFixtureCopy("tf_1_in_1_out_number_test.tiobundle", from: Fixtures.tensorFlowBundlesDirectory, edit: { $0[path: "inputs[0].name"] = "nothing" }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url).makeModel().load() }
            #expect(error?.code == .layerMismatch)
            #expect(error?.location == "layer \"nothing\"")
        }
        try withFixtureCopy("tf_1_in_1_out_number_test.tiobundle", from: Fixtures.tensorFlowBundlesDirectory, edit: { $0[path: "inputs[0].dtype"] = "int32" }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url).makeModel().load() }
            #expect(error?.code == .layerMismatch)
            #expect(error?.message.contains("float32") == true)
        }
        try withFixtureCopy("tf_1_in_1_out_vectors_test.tiobundle", from: Fixtures.tensorFlowBundlesDirectory, edit: { $0[path: "inputs[0].shape"] = [5] }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url).makeModel().load() }
            #expect(error?.code == .layerMismatch)
            #expect(error?.message.contains("[4]") == true)
        }
    }

    @Test("tensorDescriptions reports the graph's tensors and the tag-set loaded")
    func descriptions() throws {
        let tensors = try Fixtures.tensorFlowModel("tf_trainable_linear_test.tiobundle").tensorDescriptions()
        #expect(tensors.signature == "train")
        #expect(tensors.inputs.map(\.name) == ["x", "y"])
        #expect(tensors.outputs.map(\.name) == ["loss", "prediction"])
        #expect(tensors.outputs.first?.shape == [])
        let serving = try Fixtures.tensorFlowModel("tf_batch_number_test.tiobundle").tensorDescriptions()
        #expect(serving.signature == "serve")
        #expect(serving.inputs.first?.shape == [-1, 1])
    }
}
