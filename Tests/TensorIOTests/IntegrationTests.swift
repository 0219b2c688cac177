import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// The original's integration suite (`TIOTFLiteModelIntegrationTests`) run through LiteRT, plus binding
/// by name and by order, layer checks at load, the model registry and the model lifecycle. What the
/// TensorFlow backend must do alike (number, vectors, matrices, tensors, the lifecycle) is in
/// `BackendParityTests`, run on both.
@Suite("Integration")
struct IntegrationTests {
    // MARK: - Vectors, outputs, strings

    @Test("an array of numbers is one value whatever the model: a 2-input model refuses a nested array")
    func nestedNumbersAreOneValue() throws {
        let model = try Fixtures.model("2_in_2_out_vectors_test.tiobundle")
        let error = #expect(throws: TensorIOError.self) { try model.run([[1, 2, 3, 4], [10, 20, 30, 40]]) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("got 8 numbers") == true, "\(String(describing: error))")
        #expect(error?.message.contains("InputValue.positional") == true)
        // Two numbers for two inputs are not split between the layers either.
        #expect(throws: TensorIOError.self) { try model.run([1, 2]) }
        // The same nested array is a 2×2 matrix for a one-input model.
        let vectors = try Fixtures.model("1_in_1_out_vectors_test.tiobundle")
        #expect(try vectors.run([[1, 2], [3, 4]])["output"].values(as: Float.self) == [2, 2, 4, 4])
    }

    @Test("asking for an output the run did not produce is an error naming the outputs")
    func missingOutput() throws {
        let outputs = try Fixtures.model("2_in_2_out_vectors_test.tiobundle")
            .run(["input1": [1, 2, 3, 4], "input2": [10, 20, 30, 40]])
        let error = #expect(throws: TensorIOError.self) { try outputs["output3"] }
        #expect(error?.code == .outputMismatch)
        #expect(error?.description == #"output "output3": no output named "output3"; the outputs are "output1", "output2""#)
        // Testing for a name, as LayerList does.
        #expect(outputs.index(forName: "output2") == 1)
        #expect(outputs.index(forName: "output3") == nil)
        #expect(throws: TensorIOError.self) { try outputs["output1"].value(as: Bool.self) }
        #expect(throws: TensorIOError.self) { try outputs["output1"].value(as: Int8.self) }  // 240 does not fit
        #expect(try outputs["output2"].value(as: UInt8.self) == 64)
    }

    @Test("string model: the bytes of float 2 → the bytes of float 25")
    func string() throws {
        let model = try Fixtures.model("1_in_1_out_string_test.tiobundle")
        let output = try model.run(Data(float32LittleEndian: [2]))["output"]
        #expect(output.value == .bytes(Data(float32LittleEndian: [25])))
        #expect(try output.bytes == Data([0x00, 0x00, 0xC8, 0x41]))
        #expect(throws: TensorIOError.self) { try output.values(as: Float.self) }
    }

    // MARK: - Labelled outputs

    @Test("labelled vectors: scores keep the labels file's order")
    func labelledVectors() throws {
        let model = try Fixtures.model("labeled_vectors_test.tiobundle")
        let scores = try model.run([1, 2, 3, 4])["output"].labeled
        #expect(scores.labels == ["alpha", "beta", "gamma", "delta"])
        #expect(scores.scores == [2, 2, 4, 4])
        #expect(scores.map(\.label) == ["alpha", "beta", "gamma", "delta"])
        #expect(scores["beta"] == 2)
        #expect(scores["gamma"] == 4)
        #expect(scores["omega"] == nil)
        #expect(scores.dictionary == ["alpha": 2, "beta": 2, "gamma": 4, "delta": 4])
        #expect(scores[0] == LabeledScores.Entry(label: "alpha", score: 2))
    }

    @Test("top(_:threshold:) keeps scores strictly above the threshold, best first")
    func labelledTop() throws {
        let model = try Fixtures.model("labeled_vectors_test.tiobundle")
        // [0, 5, 1, 0] + [1, 0, 1, 0] = alpha 1, beta 5, gamma 2, delta 0
        let scores = try model.run([0, 5, 1, 0])["output"].labeled
        #expect(scores.top(3).map(\.label) == ["beta", "gamma", "alpha"])
        #expect(scores.top(10).map(\.label) == ["beta", "gamma", "alpha", "delta"])
        #expect(scores.top(10, threshold: 1).map(\.label) == ["beta", "gamma"])  // 1 is not above 1
        #expect(scores.top(10, threshold: 0.99).map(\.label) == ["beta", "gamma", "alpha"])
        #expect(scores.top(1, threshold: 0).map(\.score) == [5])
        #expect(scores.top(5, threshold: 5).isEmpty)
        #expect(scores.top(0).isEmpty)

        // Equal scores keep the labels file's order.
        let ties = try model.run([1, 2, 3, 4])["output"].labeled
        #expect(ties.top(4).map(\.label) == ["gamma", "delta", "alpha", "beta"])
        #expect(ties.top(2, threshold: 2).map(\.label) == ["gamma", "delta"])
    }

    @Test("LabeledScores refuses a different number of labels and scores")
    func labeledScoresCounts() throws {
        #expect(throws: TensorIOError.self) { try LabeledScores(labels: ["a", "b"], scores: [1]) }
        let scores = try LabeledScores(labels: ["a", "b"], scores: [1, 3])
        #expect(scores.top(1).first?.label == "b")
    }

    // MARK: - Bundles without a backend, without modes, placeholders

    @Test("a placeholder bundle makes a PlaceholderModel whose runs return no outputs")
    func placeholder() throws {
        let model = try Fixtures.model("placeholder.tiobundle")
        #expect(model is PlaceholderModel)
        #expect(!model.isLoaded)
        let outputs = try model.run(2)
        #expect(outputs.isEmpty)
        #expect(model.isLoaded, "a run loads the model")
        model.unload()
        #expect(!model.isLoaded)
        try model.load()
        #expect(model.isLoaded)
        #expect(try model.tensorDescriptions() == ModelTensors(signature: nil, inputs: [], outputs: []))
        #expect(model.inputs.names == ["input"])
    }

    @Test("a bundle without model.backend uses the default backend: 2 → 25")
    func noBackend() throws {
        let bundle = try Fixtures.bundle("1_in_1_out_number_test_no_backend.tiobundle")
        #expect(bundle.modelFile.backend == nil)
        let model = try bundle.makeModel()
        #expect(model.backendEngine is LiteRTEngine)
        #expect(try model.run(2)["output"].value(as: Double.self) == 25)
    }

    @Test("a bundle without model.modes predicts: 2 → 25")
    func noModes() throws {
        let bundle = try Fixtures.bundle("1_in_1_out_number_test_no_modes.tiobundle")
        #expect(bundle.modelFile.modes == [.predict])
        #expect(try bundle.makeModel().run(2)["output"].value(as: Double.self) == 25)
    }

    @Test("the deprecated .tfbundle runs: 2 → 25")
    func deprecatedBundle() throws {
        #expect(try Fixtures.model("deprecated.tfbundle").run(2)["output"].value(as: Double.self) == 25)
    }

    @Test("\"modes\": [] means the model cannot predict: run throws unsupported")
    func emptyModes() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.modes"] = [String]() }) { url in
            let model = try ModelBundle(at: url).makeModel()
            let error = #expect(throws: TensorIOError.self) { try model.run(2) }
            #expect(error?.code == .unsupported)
            #expect(error?.location == "model.modes")
        }
    }

    @Test("a train-only model cannot predict either")
    func trainOnly() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.modes"] = ["train"] }) { url in
            let model = try ModelBundle(at: url).makeModel()
            let error = #expect(throws: TensorIOError.self) { try model.run(2) }
            #expect(error?.code == .unsupported)
        }
    }

    // MARK: - Binding layers to tensors

    @Test("layers bind by name when their names match the signature's")
    func reorderedInputs() throws {
        let model = try Fixtures.model("reordered_inputs_test.tiobundle")
        #expect(model.inputs.names == ["in_a", "in_b"])
        let byName = try model.run(["in_a": [[1, 2]], "in_b": [[3, 4, 5]]] as [String: [[Int]]])
        #expect(try byName["out"].value(as: Double.self) == 1203)
        // Values by position go in model.json order: in_a, then in_b — not the subgraph's order.
        let byList = try model.run(.positional([[1, 2], [3, 4, 5]]))
        #expect(try byList["out"].value(as: Double.self) == 1203)
        let other = try model.run(["in_b": [0, 0, 1], "in_a": [2, 0]] as [String: [Int]])
        #expect(try other["out"].value(as: Double.self) == 102)
    }

    @Test("layers whose names match nothing bind in the order LiteRT lists the tensors")
    func unnamedInputs() throws {
        let model = try Fixtures.model("unnamed_inputs_test.tiobundle")
        #expect(model.inputs.names == ["first", "second"])
        let byList = try model.run(.positional([[3, 4, 5], [1, 2]]))
        #expect(try byList["result"].value(as: Double.self) == 1203)
        let byName = try model.run(["second": [1, 2], "first": [3, 4, 5]] as [String: [Int]])
        #expect(try byName["result"].value(as: Double.self) == 1203)
    }

    // MARK: - Layers checked against the real tensors

    @Test("a layer that disagrees with its tensor is refused at load, naming the layer", arguments: [
        ("1_in_1_out_number_test.tiobundle", "inputs[0].shape", [2] as any Sendable, #"layer "input""#),
        ("1_in_1_out_number_test.tiobundle", "outputs[0].shape", [1, 3], #"layer "output""#),
        ("1_in_1_out_number_test.tiobundle", "inputs[0].dtype", "int32", #"layer "input""#),
        ("1_in_1_out_number_test.tiobundle", "outputs[0].dtype", "uint8", #"layer "output""#),
        ("1_in_1_out_number_test.tiobundle", "model.quantized", true, #"layer "input""#),
        ("1_in_1_out_number_test.tiobundle", "inputs[0].quantize", ["standard": "[0,1]"], #"layer "input""#),
        ("1_in_1_out_number_int32_test.tiobundle", "outputs[0].dequantize", ["from": "tensor"], #"layer "output""#),
        ("2_in_2_out_vectors_test.tiobundle", "inputs[1].shape", [1, 5], #"layer "input2""#),
        ("1_in_1_out_vectors_test.tiobundle", "inputs[0].shape", [2, 2], nil),
        ("2_in_2_out_vectors_test.tiobundle", "inputs[0].shape", [-1, 4], nil),
    ] as [(String, String, any Sendable, String?)])
    func layerMismatch(_ name: String, _ path: String, _ value: any Sendable, _ location: String?) throws {
        try withFixtureCopy(name, edit: { $0[path: path] = value }) { url in
            let model = try ModelBundle(at: url).makeModel()
            guard let location else {
                // Control cases: the same element count in another shape binds fine.
                try model.load()
                #expect(model.isLoaded)
                return
            }
            let error = #expect(throws: TensorIOError.self) { try model.load() }
            #expect(error?.code == .layerMismatch)
            #expect(error?.location == location)
            #expect(!model.isLoaded)
            // Describing the tensors, or a run, reports the same problem.
            let describeError = #expect(throws: TensorIOError.self) { try model.tensorDescriptions() }
            #expect(describeError == error)
            if model.inputs.count == 1 {
                let runError = #expect(throws: TensorIOError.self) { try model.run(Data()) }
                #expect(runError == error)
            }
        }
    }

    @Test("a layer's wrong dtype is explained with both types")
    func dtypeMismatchMessage() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "inputs[0].dtype"] = "int32" }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url).makeModel().load() }
            #expect(error?.message.contains("int32") == true, "\(String(describing: error))")
            #expect(error?.message.contains("float32") == true, "\(String(describing: error))")
        }
    }

    @Test("a different number of inputs or outputs is refused at load", arguments: [
        ("1_in_1_out_number_test.tiobundle", "inputs", "inputs"),
        ("1_in_1_out_number_test.tiobundle", "outputs", "outputs"),
        ("2_in_2_out_vectors_test.tiobundle", "inputs", "inputs"),
    ])
    func layerCountMismatch(_ name: String, _ key: String, _ location: String) throws {
        try withFixtureCopy(name, edit: { json in
            var layers = json[key] as! [Any]
            if layers.count > 1 {
                layers.removeLast()
            } else {
                layers.append(["name": "extra", "type": "array", "shape": [1]] as JSONObject)
            }
            json[key] = layers
        }) { url in
            let model = try ModelBundle(at: url).makeModel()
            let error = #expect(throws: TensorIOError.self) { try model.load() }
            #expect(error?.code == .layerMismatch)
            #expect(error?.location == location)
            #expect(error?.message.contains("serving_default") == true, "\(String(describing: error))")
        }
    }

    @Test("a model file that is not a TFLite model is refused by the verifier before LiteRT sees it")
    func corruptModelFile() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle") { url in
            try Data("not a flatbuffer".utf8).write(to: url.appendingPathComponent("model.tflite"))
            let model = try ModelBundle(at: url).makeModel()
            let error = #expect(throws: TensorIOError.self) { try model.load() }
            #expect(error?.code == .invalidModelFile)
            #expect(error?.location == "model.file")
            #expect(!model.isLoaded)
        }
    }

    // MARK: - Registry

    @Test("a custom model.class registered by name is used instead of the backend")
    func customModelClass() throws {
        let className = "IntegrationTests.EchoModel"
        var registry = ModelRegistry.builtIn
        registry.register(modelClass: className) { bundle, configuration in
            EchoModel(bundle: bundle, configuration: configuration)
        }
        #expect(registry.modelClassNames == [className])
        #expect(ModelRegistry.builtIn.modelClassNames.isEmpty)
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.class"] = className }) { url in
            let bundle = try ModelBundle(at: url)
            #expect(bundle.modelFile.className == className)
            #expect(bundle.modelFile.backend == "tflite")
            let model = try bundle.makeModel(configuration: ModelConfiguration(threadCount: 3), registry: registry)
            let echo = try #require(model as? EchoModel)
            #expect(echo.configuration.threadCount == 3)
            #expect(try model.run(7)["echo"].value(as: Int64.self) == 7)
        }
    }

    @Test("an unknown model.class is unsupported")
    func unknownModelClass() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.class"] = "NoSuchModelClass" }) { url in
            let bundle = try ModelBundle(at: url)
            let error = #expect(throws: TensorIOError.self) { try bundle.makeModel() }
            #expect(error?.code == .unsupported)
            #expect(error?.location == "model.class")
            #expect(error?.message.contains("NoSuchModelClass") == true)
        }
    }

    @Test("a custom backend registered by name is chosen by model.backend, case-insensitively")
    func customBackend() throws {
        var registry = ModelRegistry()
        registry.register(backend: "Integration-Echo") { bundle, configuration in
            EchoModel(bundle: bundle, configuration: configuration)
        }
        #expect(registry.backendNames == ["integration-echo", "tensorflow", "tflite"])
        #expect(ModelRegistry.builtIn.backendNames == ["tensorflow", "tflite"])
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.backend"] = "INTEGRATION-echo" }) { url in
            // Validation knows the backends of the registry it is given, and only those.
            let unknown = #expect(throws: TensorIOError.self) { try ModelBundle(at: url) }
            #expect(unknown?.issues.map(\.path) == ["model.backend"], "\(String(describing: unknown))")
            let bundle = try ModelBundle(at: url, registry: registry)
            #expect(bundle.modelFile.backend == "integration-echo")
            #expect(throws: TensorIOError.self) { try bundle.makeModel() }
            let model = try bundle.makeModel(registry: registry)
            #expect(model is EchoModel)
            #expect(try model.run(3)["echo"].value(as: Int64.self) == 3)
        }
    }

    @Test("a .tflite file in a bundle that says backend tensorflow fails to load, with TensorFlow's reason")
    func wrongBackend() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.backend"] = "tensorflow" }) { url in
            let bundle = try ModelBundle(at: url)
            let model = try bundle.makeModel()
            #expect(model.backendEngine is TensorFlowEngine)
            let error = #expect(throws: TensorIOError.self) { try model.run(2) }
            #expect(error?.code == .runtimeFailure)
            #expect(error?.location == "model.file")
            #expect(error?.message.contains("loading the SavedModel") == true)
            #expect(error?.runtimeMessage?.isEmpty == false)
        }
    }

    @Test("a registry of its own: a factory's error passes through; a placeholder never reaches a factory")
    func privateRegistry() throws {
        struct FactoryFailure: Error, Equatable {}
        var registry = ModelRegistry()
        #expect(registry.backendNames == ["tensorflow", "tflite"])
        #expect(registry.modelClassNames == [])
        registry.register(backend: "tflite") { _, _ in throw FactoryFailure() }
        let bundle = try Fixtures.bundle("1_in_1_out_number_test.tiobundle")
        #expect(throws: FactoryFailure()) { try registry.makeModel(for: bundle, configuration: ModelConfiguration()) }
        let placeholder = try Fixtures.bundle("placeholder.tiobundle")
        #expect(try registry.makeModel(for: placeholder, configuration: ModelConfiguration()) is PlaceholderModel)
        // A copy is a registry of its own: the built-in one is untouched.
        #expect(try bundle.makeModel() .backendEngine is LiteRTEngine)
        #expect(try bundle.makeModel(registry: .builtIn) .backendEngine is LiteRTEngine)
    }

    // MARK: - Layers and configuration

    @Test("a model's inputs and outputs are its bundle's")
    func modelLayers() throws {
        let bundle = try Fixtures.bundle("2_in_2_out_vectors_test.tiobundle")
        let model = try bundle.makeModel()
        #expect(model.bundle == bundle)
        #expect(model.inputs == bundle.inputs)
        #expect(model.outputs == bundle.outputs)
        #expect(model.predictionInputs == bundle.predictionInputs)
        #expect(model.predictionOutputs == bundle.predictionOutputs)
    }

    @Test("ModelConfiguration(threadCount:) is used; counts below 1 become 1", arguments: [2, 4])
    func threadCount(_ count: Int) throws {
        let configuration = ModelConfiguration(threadCount: count)
        #expect(configuration.threadCount == count)
        let model = try Fixtures.model("2_in_2_out_matrices_test.tiobundle", configuration: configuration)
        #expect(model.configuration.threadCount == count)
        let ones = [[Float]](repeating: [1, 1, 1, 1], count: 4)
        let outputs = try model.run(.positional([ones.inputValue, ones.inputValue]))
        #expect(try outputs["output2"].values(as: Float.self) == [Float](repeating: 4, count: 16))
        #expect(ModelConfiguration(threadCount: 0).threadCount == 1)
        #expect(ModelConfiguration(threadCount: -3).threadCount == 1)
        #expect(ModelConfiguration().threadCount == 1)
        #expect(ModelConfiguration(threadCount: .max).threadCount == ModelConfiguration.maximumThreadCount)
    }

    // MARK: - Tensor descriptions

    @Test("tensorDescriptions() reports names, types and shapes")
    func tensorDescriptions() throws {
        let model = try Fixtures.model("2_in_2_out_vectors_test.tiobundle")
        let tensors = try model.tensorDescriptions()
        #expect(model.isLoaded, "describing the tensors loads the model")
        #expect(tensors.signature == "serving_default")
        #expect(tensors.inputs.map(\.name) == ["input1", "input2"])
        #expect(tensors.inputs.map(\.layerName) == ["input1", "input2"])
        #expect(tensors.inputs.map(\.typeName) == ["float32", "float32"])
        #expect(tensors.inputs.map(\.shape) == [[1, 4], [1, 4]])
        #expect(tensors.outputs.map(\.name) == ["output1", "output2"])
        #expect(tensors.outputs.map(\.shape) == [[1, 1], [1, 1]])
        #expect(tensors.inputs.allSatisfy { $0.quantization == nil })
    }

    @Test("tensorDescriptions() of the output types model")
    func tensorDescriptionsOutputTypes() throws {
        let tensors = try Fixtures.model("output_types_test.tiobundle").tensorDescriptions()
        #expect(tensors.outputs.map(\.layerName) == ["as_int8", "as_int16", "as_bool", "as_float16", "as_float32"])
        #expect(tensors.outputs.map(\.name) == tensors.outputs.map(\.layerName))
        #expect(tensors.outputs.map(\.typeName) == ["int8", "int16", "bool", "float16", "float32"])
        #expect(tensors.outputs.allSatisfy { $0.shape == [4] })
    }

    @Test("tensorDescriptions() of the unnamed-inputs model pairs each layer with the tensor it bound")
    func tensorDescriptionsUnnamed() throws {
        let tensors = try Fixtures.model("unnamed_inputs_test.tiobundle").tensorDescriptions()
        #expect(tensors.inputs.map(\.layerName) == ["first", "second"])
        #expect(tensors.inputs.map(\.name) == ["in_b", "in_a"])
        #expect(tensors.inputs.map(\.shape) == [[1, 3], [1, 2]])
        #expect(tensors.outputs.map(\.layerName) == ["result"])
        #expect(tensors.outputs.map(\.name) == ["out"])
    }

    @Test("tensorDescriptions() reports the quantized model's scale and zero point")
    func tensorDescriptionsQuantized() throws {
        let tensors = try Fixtures.model("quantized_uint8_test.tiobundle").tensorDescriptions()
        let input = try #require(tensors.inputs.first)
        let output = try #require(tensors.outputs.first)
        #expect(input.typeName == "uint8")
        #expect(output.typeName == "uint8")
        #expect(input.tensorName == "serving_default_input:0")
        #expect(output.tensorName == "PartitionedCall:0")
        #expect(input.quantization == .perTensor(scale: Float(0.003921568859368563), zeroPoint: 0))
        #expect(output.quantization == .perTensor(scale: Float(0.0029411765281111), zeroPoint: 0))
    }

    @Test("tensorDescriptions() of a model that fails to load throws")
    func tensorDescriptionsFailure() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "inputs[0].shape"] = [3] }) { url in
            let model = try ModelBundle(at: url).makeModel()
            let error = #expect(throws: TensorIOError.self) { try model.tensorDescriptions() }
            #expect(error?.code == .layerMismatch)
        }
    }
}

/// A model of the tests' own, for the registry: it returns its input's numbers as `echo`.
final class EchoModel: Model {
    let bundle: ModelBundle
    let configuration: ModelConfiguration
    private let loaded = LockedBox(false)

    init(bundle: ModelBundle, configuration: ModelConfiguration) {
        self.bundle = bundle
        self.configuration = configuration
    }

    var isLoaded: Bool { loaded.withLock { $0 } }

    func load() throws { loaded.withLock { $0 = true } }

    func unload() { loaded.withLock { $0 = false } }

    func run(_ input: InputValue) throws -> Outputs {
        try load()
        guard case .numbers(let numbers) = input, numbers.count > 0 else {
            throw TensorIOError(.invalidInput, "EchoModel takes numbers")
        }
        return Outputs([Output(name: "echo", value: .numbers(numbers, shape: [numbers.count]))])
    }

    func tensorDescriptions() throws -> ModelTensors {
        ModelTensors(signature: nil, inputs: [], outputs: [])
    }
}
