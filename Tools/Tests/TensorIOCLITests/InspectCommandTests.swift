import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio inspect BUNDLE [--json]`: metadata, layers, and the real tensors the backend reports.
@Suite("tensorio inspect")
struct InspectCommandTests {
    private func inspectJSON(_ name: String, _ extra: [String] = []) async throws -> (ProcessResult, [String: Any]) {
        let result = try await CLI.run(["inspect", Fixtures.path(name), "--json"] + extra)
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines.count == 1, "--json prints one line: \(result)")
        return (result, try jsonObject(result))
    }

    private func object(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(value as? [String: Any], "not an object: \(String(describing: value))", sourceLocation: sourceLocation)
    }

    private func objects(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try #require(value as? [[String: Any]], "not an array of objects: \(String(describing: value))",
                     sourceLocation: sourceLocation)
    }

    private func integers(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int] {
        try numbers(value, sourceLocation: sourceLocation).map { Int($0) }
    }

    @Test("a trainable TensorFlow bundle: placeholders, the train section and the graph's tensors (tags \"train\")")
    func trainableTensorFlowBundle() async throws {
        let path = "Examples/digits-training/digits-train-tensorflow.tiobundle"
        let result = try await CLI.run(["inspect", path, "--json"])
        #expect(result.exited && result.status == 0, "\(result)")
        let json = try jsonObject(result)
        let train = try object(json["train"])
        #expect(train["ops"] as? [String] == ["train"])
        #expect(train["inputs"] as? [String] == ["label"])
        #expect(train["outputs"] as? [String] == ["loss", "accuracy"])
        #expect(try objects(json["placeholders"]).map { $0["name"] as? String } == ["learning_rate"])
        let tensors = try object(json["tensors"])
        #expect(tensors["signature"] as? String == "train")
        #expect(try objects(tensors["outputs"]).map { $0["name"] as? String } == ["probabilities", "loss", "accuracy"])

        let text = try await CLI.run(["inspect", path])
        #expect(text.stdout.contains("Training:\n  ops: train\n  training-only inputs: label\n  training-only outputs: loss, accuracy\n"), "\(text)")
    }

    @Test("--json for the number model: metadata, layers and tensors")
    func numberModelJSON() async throws {
        let (result, json) = try await inspectJSON("1_in_1_out_number_test.tiobundle")
        #expect(topLevelKeys(result.stdout) == [
            "name", "details", "id", "version", "author", "license", "placeholder", "model", "inputs", "outputs",
            "placeholders", "train", "tensors", "options",
        ])
        #expect(json["train"] is NSNull)
        #expect((json["placeholders"] as? [Any])?.isEmpty == true)
        #expect(json["name"] as? String == "1 in 1 out numeric test")
        #expect(json["details"] as? String == "Simple model with a single valued input and single valued output")
        #expect(json["id"] as? String == "1_in_1_out_number_test")
        #expect(json["version"] as? String == "1")
        #expect(json["author"] as? String == "doc.ai")
        #expect(json["license"] as? String == "Apache 2")
        #expect((json["placeholder"] as? NSNumber)?.boolValue == false)

        let model = try object(json["model"])
        #expect(model["file"] as? String == "model.tflite")
        #expect(model["backend"] as? String == "tflite")
        #expect((model["quantized"] as? NSNumber)?.boolValue == false)
        #expect(model["modes"] as? [String] == ["predict"])

        let inputs = try objects(json["inputs"])
        #expect(inputs.count == 1)
        #expect(inputs.first?["name"] as? String == "input")
        #expect(inputs.first?["type"] as? String == "array")
        #expect(inputs.first?["dtype"] as? String == "float32")
        #expect(try integers(inputs.first?["shape"]) == [1])
        let outputs = try objects(json["outputs"])
        #expect(outputs.map { $0["name"] as? String } == ["output"])

        let tensors = try object(json["tensors"])
        #expect(tensors["signature"] as? String == "serving_default")
        let input = try #require(try objects(tensors["inputs"]).first)
        #expect(input["name"] as? String == "input")
        #expect(input["tensor_name"] as? String == "serving_default_input:0")
        #expect(input["layer"] as? String == "input")
        #expect(input["dtype"] as? String == "float32")
        #expect(try integers(input["shape"]) == [1])
        #expect(input["quantization"] is NSNull)
        let output = try #require(try objects(tensors["outputs"]).first)
        #expect(output["name"] as? String == "output")
        #expect(output["layer"] as? String == "output")
        #expect(output["dtype"] as? String == "float32")
        #expect(try integers(output["shape"]) == [1])
        #expect(output["quantization"] is NSNull)

        let options = try object(json["options"])
        #expect(options["device_position"] is NSNull)
        #expect(options["output_format"] as? String == "")
    }

    @Test("--json for the quantized model reports each tensor's scale and zero point")
    func quantizedModelJSON() async throws {
        let (_, json) = try await inspectJSON("quantized_uint8_test.tiobundle")
        #expect((try object(json["model"])["quantized"] as? NSNumber)?.boolValue == true)
        #expect(try objects(json["inputs"]).first?["dtype"] as? String == "uint8")
        #expect(try objects(json["outputs"]).first?["dtype"] as? String == "uint8")

        let tensors = try object(json["tensors"])
        let input = try #require(try objects(tensors["inputs"]).first)
        #expect(input["dtype"] as? String == "uint8")
        #expect(try integers(input["shape"]) == [4])
        let inputQuantization = try object(input["quantization"])
        let inputScale = try #require((inputQuantization["scale"] as? NSNumber)?.doubleValue)
        #expect(abs(inputScale - 1.0 / 255) < 1e-8, "scale \(inputScale)")
        #expect((inputQuantization["zero_point"] as? NSNumber)?.intValue == 0)

        let output = try #require(try objects(tensors["outputs"]).first)
        #expect(output["dtype"] as? String == "uint8")
        let outputQuantization = try object(output["quantization"])
        let outputScale = try #require((outputQuantization["scale"] as? NSNumber)?.doubleValue)
        #expect(abs(outputScale - 0.75 / 255) < 1e-8, "scale \(outputScale)")
        #expect((outputQuantization["zero_point"] as? NSNumber)?.intValue == 0)
    }

    @Test("--json for output_types_test: layers in model.json order, each tensor's real dtype")
    func outputTypesJSON() async throws {
        let (_, json) = try await inspectJSON("output_types_test.tiobundle")
        let names = ["as_int8", "as_int16", "as_bool", "as_float16", "as_float32"]
        let dtypes = ["int8", "int16", "bool", "float16", "float32"]
        let layers = try objects(json["outputs"])
        #expect(layers.map { $0["name"] as? String } == names)
        #expect(layers.map { $0["dtype"] as? String } == dtypes)

        let tensors = try objects(try object(json["tensors"])["outputs"])
        #expect(tensors.map { $0["layer"] as? String } == names)
        #expect(tensors.map { $0["name"] as? String } == names)
        #expect(tensors.map { $0["dtype"] as? String } == dtypes)
        for tensor in tensors {
            #expect(try integers(tensor["shape"]) == [4])
            #expect((tensor["tensor_name"] as? String)?.hasPrefix("PartitionedCall:") == true)
        }
        let input = try #require(try objects(try object(json["tensors"])["inputs"]).first)
        #expect(input["dtype"] as? String == "float32")
    }

    @Test("--json for unnamed_inputs_test shows which signature tensor each layer is bound to")
    func unnamedInputsJSON() async throws {
        let (_, json) = try await inspectJSON("unnamed_inputs_test.tiobundle")
        let tensors = try object(json["tensors"])
        let inputs = try objects(tensors["inputs"])
        #expect(inputs.map { $0["layer"] as? String } == ["first", "second"])
        #expect(inputs.map { $0["name"] as? String } == ["in_b", "in_a"])
        #expect(try inputs.map { try integers($0["shape"]) } == [[1, 3], [1, 2]])
        let outputs = try objects(tensors["outputs"])
        #expect(outputs.map { $0["layer"] as? String } == ["result"])
        #expect(outputs.map { $0["name"] as? String } == ["out"])
    }

    @Test("--json for the labelled model gives the label count")
    func labelledJSON() async throws {
        let (_, json) = try await inspectJSON("labeled_vectors_test.tiobundle")
        let output = try #require(try objects(json["outputs"]).first)
        #expect((output["labels"] as? NSNumber)?.intValue == 4)
        #expect(try objects(json["inputs"]).first?["labels"] == nil)
    }

    @Test("--json for the string model: string layers over a float32 tensor")
    func stringJSON() async throws {
        let (_, json) = try await inspectJSON("1_in_1_out_string_test.tiobundle")
        for layer in try objects(json["inputs"]) + objects(json["outputs"]) {
            #expect(layer["type"] as? String == "string")
            #expect(layer["dtype"] as? String == "float32")
        }
    }

    @Test("--json for the placeholder: no tensors, no signature")
    func placeholderJSON() async throws {
        let (_, json) = try await inspectJSON("placeholder.tiobundle")
        #expect((json["placeholder"] as? NSNumber)?.boolValue == true)
        #expect(try object(json["model"])["file"] as? String == "")
        let tensors = try object(json["tensors"])
        #expect(tensors["signature"] is NSNull)
        #expect(try objects(tensors["inputs"]).isEmpty)
        #expect(try objects(tensors["outputs"]).isEmpty)
        #expect(try objects(json["inputs"]).map { $0["name"] as? String } == ["input"])
    }

    @Test("--json for the 2-in-2-out models lists both layers in model.json order",
          arguments: ["2_in_2_out_vectors_test.tiobundle", "2_in_2_out_matrices_test.tiobundle"])
    func twoInTwoOutJSON(name: String) async throws {
        let (_, json) = try await inspectJSON(name)
        let shape = name.contains("matrices") ? [4, 4] : [1, 4]
        let inputs = try objects(json["inputs"])
        #expect(inputs.map { $0["name"] as? String } == ["input1", "input2"])
        #expect(try inputs.map { try integers($0["shape"]) } == [shape, shape])
        #expect(try objects(json["outputs"]).map { $0["name"] as? String } == ["output1", "output2"])
        let tensors = try object(json["tensors"])
        #expect(try objects(tensors["inputs"]).map { $0["layer"] as? String } == ["input1", "input2"])
        #expect(try objects(tensors["outputs"]).map { $0["layer"] as? String } == ["output1", "output2"])
    }

    @Test("--json with --threads 2")
    func jsonWithThreads() async throws {
        let (_, json) = try await inspectJSON("1_in_1_out_number_test.tiobundle", ["--threads", "2"])
        #expect(json["id"] as? String == "1_in_1_out_number_test")
    }

    @Test("text output for the number model")
    func numberModelText() async throws {
        let result = try await CLI.run("inspect", Fixtures.path("1_in_1_out_number_test.tiobundle"))
        expectSuccess(result, stdout: """
            1 in 1 out numeric test (1_in_1_out_number_test) version 1
              Simple model with a single valued input and single valued output
              author: doc.ai; license: Apache 2
              model: model.tflite, backend tflite, quantized false, modes [predict]
            Inputs:
              input: array float32 [1]
            Outputs:
              output: array float32 [1]
            Tensors (signature "serving_default"):
              in  input (serving_default_input:0): float32 [1] -> layer "input"
              out output (PartitionedCall:0): float32 [1] -> layer "output"
            """)
    }

    @Test("text output for the quantized model shows the tensors' quantization")
    func quantizedText() async throws {
        let result = try await CLI.run("inspect", Fixtures.path("quantized_uint8_test.tiobundle"))
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines.contains("  input: array uint8 [4], quantize from tensor"), "\(result)")
        #expect(result.stdoutLines.contains("  output: array uint8 [4], dequantize from tensor"), "\(result)")
        #expect(result.stdoutLines.contains {
            $0.hasPrefix("  in  input (serving_default_input:0): uint8 [4] -> layer \"input\", quantized scale 0.00392")
                && $0.hasSuffix(" zero point 0")
        }, "\(result)")
    }

    @Test("text output for the placeholder says it has no model file")
    func placeholderText() async throws {
        let result = try await CLI.run("inspect", Fixtures.path("placeholder.tiobundle"))
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdoutLines.contains("  placeholder: no model file"), "\(result)")
        #expect(!result.stdout.contains("Tensors"), "\(result)")
    }

    @Test("text output for the labelled model names the labels file")
    func labelledText() async throws {
        let result = try await CLI.run("inspect", Fixtures.path("labeled_vectors_test.tiobundle"))
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdoutLines.contains("  output: array float32 [4], labels labels.txt (4)"), "\(result)")
    }

    @Test("a bundle that disagrees with its model: layers beside the real tensors, every disagreement marked, exit 1")
    func disagreeingBundle() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("b.tiobundle")
            try FileManager.default.copyItem(at: Fixtures.url("2_in_2_out_vectors_test.tiobundle"), to: bundle)
            let jsonURL = bundle.appendingPathComponent("model.json")
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: jsonURL)) as? [String: Any])
            var inputs = try #require(document["inputs"] as? [[String: Any]])
            inputs[0]["dtype"] = "uint8"
            inputs[1]["shape"] = [1, 5]
            document["inputs"] = inputs
            var outputs = try #require(document["outputs"] as? [[String: Any]])
            outputs.append(["name": "extra", "type": "array", "shape": [2]])
            document["outputs"] = outputs
            try JSONSerialization.data(withJSONObject: document).write(to: jsonURL)

            let text = try await CLI.run("inspect", bundle.path)
            #expect(text.status == 1, "\(text)")
            #expect(text.stderrLines.count == 1 && text.stderr.contains("disagrees with the model in 3 places"), "\(text)")
            let marked = text.stdoutLines.filter { $0.contains("✗") }
            #expect(marked.count == 3, "\(text)")
            #expect(marked.contains { $0.contains("input1") && $0.contains("its dtype is uint8, but the model's tensor \"input1\" holds float32 values") })
            #expect(marked.contains { $0.contains("input2") && $0.contains("[1, 5] has 5 elements") })
            #expect(marked.contains { $0.contains("extra") && $0.contains("no output tensor") })
            #expect(text.stdoutLines.filter { $0.contains("✓") }.count == 2)

            let json = try await CLI.run("inspect", bundle.path, "--json")
            #expect(json.status == 1)
            let disagreements = try #require(try jsonObject(json)["disagreements"] as? [[String: Any]])
            #expect(disagreements.compactMap { $0["layer"] as? String } == ["input1", "input2", "extra"])
        }
    }

    @Test("a TensorFlow bundle naming an operation the graph lacks: the signature's tensors are shown")
    func disagreeingTensorFlowBundle() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("t.tiobundle")
            try FileManager.default.copyItem(
                at: Fixtures.tensorFlowURL("tf_1_in_1_out_number_test.tiobundle"), to: bundle
            )
            let jsonURL = bundle.appendingPathComponent("model.json")
            let text = try String(contentsOf: jsonURL, encoding: .utf8).replacingOccurrences(of: #""name": "input""#, with: #""name": "x""#)
            try text.write(to: jsonURL, atomically: true, encoding: .utf8)
            let result = try await CLI.run("inspect", bundle.path)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdoutLines.contains { $0.contains("x: array") && $0.contains("✗") && $0.contains("no input tensor") }, "\(result)")
            #expect(result.stdoutLines.contains { $0.contains("(no layer)") && $0.contains("input: float32") }, "\(result)")
        }
    }
}
