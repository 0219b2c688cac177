import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio run BUNDLE [--input [NAME=]VALUE]... [--top N] [--threshold T] [--threads N]`: one JSON object
/// on stdout, keyed by output name in model.json order.
@Suite("tensorio run")
struct RunCommandTests {
    private let number = Fixtures.path("1_in_1_out_number_test.tiobundle")

    // MARK: Number model

    @Test("the documented example: --input 2 prints {\"output\":25}")
    func numberModel() async throws {
        expectSuccess(try await CLI.run("run", number, "--input", "2"), stdout: #"{"output":25}"#)
    }

    @Test("the original's scalar bundles, TensorFlow Lite and TensorFlow: --input 2 prints {\"output\":25}",
          arguments: Fixtures.Backend.allCases)
    func scalarBundles(backend: Fixtures.Backend) async throws {
        expectSuccess(try await CLI.run("run", backend.path("scalar_test.tiobundle"), "--input", "2"), stdout: #"{"output":25}"#)
    }

    @Test("--placeholder NAME=VALUE feeds a TensorFlow placeholder; one left out is named in one line")
    func placeholders() async throws {
        let bundle = "Tests/Fixtures/TensorFlowBundles/tf_1_in_1_placeholder_2_out_vectors_test.tiobundle"
        expectSuccess(
            try await CLI.run("run", bundle, "--input", "[1,2,3,4]", "--placeholder", "input2=[10,20,30,40]"),
            stdout: #"{"output1":240,"output2":64}"#
        )
        expectOneLineError(
            try await CLI.run("run", bundle, "--input", "[1,2,3,4]"),
            containing: [#"the placeholder "input2" was not given a value"#, "--placeholder input2=VALUE"]
        )
        expectOneLineError(
            try await CLI.run("run", bundle, "--input", "[1,2,3,4]", "--placeholder", "input3=[1]"),
            containing: [#"no placeholder named "input3""#, "input2"], status: 64
        )
        expectOneLineError(
            try await CLI.run("run", number, "--input", "2", "--placeholder", "rate=1"),
            containing: [#"no placeholder named "rate""#, "none"], status: 64
        )
    }

    @Test("--input NAME=VALUE")
    func numberModelByName() async throws {
        expectSuccess(try await CLI.run("run", number, "--input", "input=2"), stdout: #"{"output":25}"#)
    }

    @Test("other spellings of one number", arguments: ["[2]", "[[2]]", "2.0", "2e0", "input=[2]"])
    func numberSpellings(value: String) async throws {
        expectSuccess(try await CLI.run("run", number, "--input", value), stdout: #"{"output":25}"#)
    }

    @Test("a non-integer result prints as a short decimal")
    func fractionalResult() async throws {
        // 10 * 0.25 + 5 = 7.5 exactly.
        expectSuccess(try await CLI.run("run", number, "--input", "0.25"), stdout: #"{"output":7.5}"#)
    }

    @Test("a negative number is a value, not an option", arguments: ["-1", "-1e0", "input=-1", "[-1]"])
    func negativeValue(value: String) async throws {
        expectSuccess(try await CLI.run("run", number, "--input", value), stdout: #"{"output":-5}"#)
    }

    @Test("--input @FILE.json", arguments: ["2", "[2]", " [ [ 2 ] ] "])
    func numberFromJSONFile(contents: String) async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("value.json")
            try Data((contents + "\n").utf8).write(to: file)
            expectSuccess(try await CLI.run("run", number, "--input", "@\(file.path)"), stdout: #"{"output":25}"#)
            expectSuccess(try await CLI.run("run", number, "--input", "input=@\(file.path)"), stdout: #"{"output":25}"#)
        }
    }

    @Test("--input @FILE with any other extension is raw little-endian bytes in the layer's dtype")
    func numberFromRawBytes() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("two.bin")
            let bytes = Data(float32LittleEndian: [2])
            #expect(bytes == Data([0x00, 0x00, 0x00, 0x40]))
            try bytes.write(to: file)
            expectSuccess(try await CLI.run("run", number, "--input", "@\(file.path)"), stdout: #"{"output":25}"#)
            expectSuccess(try await CLI.run("run", number, "--input", "input=@\(file.path)"), stdout: #"{"output":25}"#)
        }
    }

    @Test("a relative @FILE path is relative to the working directory")
    func relativeFile() async throws {
        try await withTemporaryDirectory { folder in
            try Data("2".utf8).write(to: folder.appendingPathComponent("value.json"))
            let result = try await CLI.run(
                ["run", Fixtures.url("1_in_1_out_number_test.tiobundle").path, "--input", "@value.json"],
                currentDirectory: folder
            )
            expectSuccess(result, stdout: #"{"output":25}"#)
        }
    }

    @Test("the number model's variants", arguments: [
        "1_in_1_out_number_test_no_modes.tiobundle",
        "1_in_1_out_number_test_no_backend.tiobundle",
        "deprecated.tfbundle",
    ])
    func numberVariants(name: String) async throws {
        let result = try await CLI.run("run", Fixtures.path(name), "--input", "2")
        // The last two log a warning on stderr, which is fine on success.
        expectSuccess(result, stdout: #"{"output":25}"#, quietStderr: name.hasSuffix("no_modes.tiobundle"))
    }

    @Test("int32 and int64 models print an integer", arguments: [
        "1_in_1_out_number_int32_test.tiobundle", "1_in_1_out_number_int64_test.tiobundle",
    ])
    func integerModels(name: String) async throws {
        expectSuccess(try await CLI.run("run", Fixtures.path(name), "--input", "2"), stdout: #"{"output":25}"#)
        expectSuccess(try await CLI.run("run", Fixtures.path(name), "--input", "-3"), stdout: #"{"output":-25}"#)
    }

    @Test("--threads 2")
    func threads() async throws {
        expectSuccess(try await CLI.run("run", number, "--input", "2", "--threads", "2"), stdout: #"{"output":25}"#)
        expectSuccess(try await CLI.run("run", "--threads", "2", number, "--input", "2"), stdout: #"{"output":25}"#)
    }

    @Test("the runtime is found without TENSORIO_LITERT_LIBRARY")
    func runtimeWithoutEnvironment() async throws {
        let result = try await CLI.run(["run", number, "--input", "2"], environment: ["TENSORIO_LITERT_LIBRARY": nil])
        expectSuccess(result, stdout: #"{"output":25}"#)
    }

    @Test("the runtime's own messages reach the tool's log: hidden by default, shown with TENSORIO_LOG_LEVEL=debug")
    func runtimeMessagesInTheLog() async throws {
        expectSuccess(try await CLI.run("run", number, "--input", "2"), stdout: #"{"output":25}"#)
        let result = try await CLI.run(["run", number, "--input", "2"], environment: ["TENSORIO_LOG_LEVEL": "debug"])
        expectSuccess(result, stdout: #"{"output":25}"#, quietStderr: false)
        #expect(result.stderrLines.contains("debug: Created TensorFlow Lite XNNPACK delegate for CPU."), "\(result)")
    }

    @Test("an absolute bundle path, from another working directory")
    func absoluteBundlePath() async throws {
        let result = try await CLI.run(
            ["run", Fixtures.url("1_in_1_out_number_test.tiobundle").path, "--input", "2"],
            currentDirectory: FileManager.default.temporaryDirectory
        )
        expectSuccess(result, stdout: #"{"output":25}"#)
    }

    // MARK: Vectors, matrices, tensors

    @Test("vectors: a 4-element output prints as an array")
    func vectors() async throws {
        let bundle = Fixtures.path("1_in_1_out_vectors_test.tiobundle")
        expectSuccess(try await CLI.run("run", bundle, "--input", "[1,2,3,4]"), stdout: #"{"output":[2,2,4,4]}"#)
        expectSuccess(try await CLI.run("run", bundle, "--input", "input=[[1,2],[3,4]]"), stdout: #"{"output":[2,2,4,4]}"#)
        expectSuccess(try await CLI.run("run", bundle, "--input", "[0.5, -1, 0, 1e2]"),
                      stdout: #"{"output":[1.5,-1,1,100]}"#)
    }

    @Test("2-in-2-out vectors by name: 240 and 64, output1 before output2 whatever the input order",
          arguments: [
              ["input1=[[1,2,3,4]]", "input2=[[10,20,30,40]]"],
              ["input2=[[10,20,30,40]]", "input1=[[1,2,3,4]]"],
              ["input1=[1,2,3,4]", "input2=[10,20,30,40]"],
          ])
    func twoInTwoOutVectors(inputs: [String]) async throws {
        let bundle = Fixtures.path("2_in_2_out_vectors_test.tiobundle")
        let result = try await CLI.run(["run", bundle] + inputs.flatMap { ["--input", $0] })
        expectSuccess(result, stdout: #"{"output1":240,"output2":64}"#)
        #expect(topLevelKeys(result.stdout) == ["output1", "output2"])
    }

    @Test("2-in-2-out vectors from files: one .json, one raw")
    func twoInTwoOutVectorsFromFiles() async throws {
        try await withTemporaryDirectory { folder in
            let first = folder.appendingPathComponent("input1.json")
            let second = folder.appendingPathComponent("input2.f32")
            try Data("[[1, 2, 3, 4]]".utf8).write(to: first)
            try Data(float32LittleEndian: [10, 20, 30, 40]).write(to: second)
            let result = try await CLI.run(
                "run", Fixtures.path("2_in_2_out_vectors_test.tiobundle"),
                "--input", "input1=@\(first.path)", "--input", "input2=@\(second.path)"
            )
            expectSuccess(result, stdout: #"{"output1":240,"output2":64}"#)
        }
    }

    @Test("matrices from .json files: flat row-major 4×4 outputs, output1 before output2")
    func matrices() async throws {
        try await withTemporaryDirectory { folder in
            let powers = [1.0, 10, 100, 1000]
            let x = powers.map { p in [1.0, 2, 3, 4].map { $0 * p } }
            let y = powers.map { p in [5.0, 6, 7, 8].map { $0 * p } }
            let xFile = folder.appendingPathComponent("x.json")
            let yFile = folder.appendingPathComponent("y.json")
            try JSONSerialization.data(withJSONObject: x).write(to: xFile)
            try JSONSerialization.data(withJSONObject: y).write(to: yFile)

            let result = try await CLI.run(
                "run", Fixtures.path("2_in_2_out_matrices_test.tiobundle"),
                "--input", "input1=@\(xFile.path)", "--input", "input2=@\(yFile.path)"
            )
            #expect(result.exited && result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(topLevelKeys(result.stdout) == ["output1", "output2"], "\(result)")
            let json = try jsonObject(result)
            let expected1 = (0..<4).flatMap { n in [56.0, 72, 56, 72].map { $0 * pow(100, Double(n)) } }
            let expected2 = (0..<4).flatMap { n in [Double](repeating: 18 * pow(10, Double(n)), count: 4) }
            #expect(try numbers(json["output1"]) == expected1, "\(result)")
            #expect(try numbers(json["output2"]) == expected2, "\(result)")
        }
    }

    @Test("tensors 3×3×3: a nested input, a flat row-major output of 27")
    func tensors() async throws {
        // input[i][j][k] = (3j + k + 1)·10^i; output[i][j][k] = input[i][j][k] + (i + 1).
        func element(_ i: Int, _ j: Int, _ k: Int) -> Double { Double(3 * j + k + 1) * pow(10, Double(i)) }
        var input: [[[Double]]] = []
        var expected: [Double] = []
        for i in 0..<3 {
            var slice: [[Double]] = []
            for j in 0..<3 {
                let row: [Double] = (0..<3).map { k in element(i, j, k) }
                slice.append(row)
                expected += row.map { $0 + Double(i + 1) }
            }
            input.append(slice)
        }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
        let result = try await CLI.run("run", Fixtures.path("1_in_1_out_tensors_test.tiobundle"), "--input", text)
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(try numbers(jsonObject(result)["output"]) == expected, "\(result)")
        #expect(result.stdout == #"{"output":[2,3,4,5,6,7,8,9,10,12,22,32,42,52,62,72,82,92,103,203,303,403,503,603,703,803,903]}"# + "\n")
    }

    @Test("inputs bound by signature name and by order", arguments: [
        ("reordered_inputs_test.tiobundle", ["in_a=[[1,2]]", "in_b=[[3,4,5]]"], #"{"out":1203}"#),
        ("reordered_inputs_test.tiobundle", ["in_b=[[3,4,5]]", "in_a=[[1,2]]"], #"{"out":1203}"#),
        ("unnamed_inputs_test.tiobundle", ["first=[[3,4,5]]", "second=[[1,2]]"], #"{"result":1203}"#),
    ])
    func inputBinding(name: String, inputs: [String], expected: String) async throws {
        let result = try await CLI.run(["run", Fixtures.path(name)] + inputs.flatMap { ["--input", $0] })
        expectSuccess(result, stdout: expected)
    }

    // MARK: String layers

    @Test("a string layer prints base64: 25.0f is AADIQQ==")
    func stringModel() async throws {
        let bundle = Fixtures.path("1_in_1_out_string_test.tiobundle")
        let result = try await CLI.run("run", bundle, "--input", "2")
        expectSuccess(result, stdout: #"{"output":"AADIQQ=="}"#)
        let base64 = try #require(try jsonObject(result)["output"] as? String)
        let bytes = try #require(Data(base64Encoded: base64))
        #expect(bytes == Data([0x00, 0x00, 0xC8, 0x41]))
        #expect(bytes == Data(float32LittleEndian: [25]))
    }

    @Test("a string layer takes raw bytes from a file")
    func stringModelFromBytes() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("two.bin")
            try Data([0x00, 0x00, 0x00, 0x40]).write(to: file)
            let result = try await CLI.run("run", Fixtures.path("1_in_1_out_string_test.tiobundle"), "--input", "@\(file.path)")
            expectSuccess(result, stdout: #"{"output":"AADIQQ=="}"#)
        }
    }

    // MARK: Labelled outputs

    private let labelled = Fixtures.path("labeled_vectors_test.tiobundle")

    @Test("a labelled output prints label → score in label order")
    func labelledAll() async throws {
        let result = try await CLI.run("run", labelled, "--input", "[1,2,3,4]")
        expectSuccess(result, stdout: #"{"output":{"alpha":2,"beta":2,"gamma":4,"delta":4}}"#)
        // Label order is the labels file's, not the scores'.
        expectSuccess(try await CLI.run("run", labelled, "--input", "[0,5,1,3]"),
                      stdout: #"{"output":{"alpha":1,"beta":5,"gamma":2,"delta":3}}"#)
    }

    @Test("--top 2 keeps the two best, best first")
    func labelledTop() async throws {
        expectSuccess(try await CLI.run("run", labelled, "--input", "[1,2,3,4]", "--top", "2"),
                      stdout: #"{"output":{"gamma":4,"delta":4}}"#)
        // alpha 1, beta 5, gamma 2, delta 3: sorted by score, not by label.
        let result = try await CLI.run("run", labelled, "--input", "[0,5,1,3]", "--top", "2")
        expectSuccess(result, stdout: #"{"output":{"beta":5,"delta":3}}"#)
        #expect(try (jsonObject(result)["output"] as? [String: Any])?.count == 2)
        expectSuccess(try await CLI.run("run", labelled, "--input", "[0,5,1,3]", "--top", "1"),
                      stdout: #"{"output":{"beta":5}}"#)
    }

    @Test("--top larger than the label count keeps them all, best first")
    func labelledTopTooLarge() async throws {
        expectSuccess(try await CLI.run("run", labelled, "--input", "[0,5,1,3]", "--top", "10"),
                      stdout: #"{"output":{"beta":5,"delta":3,"gamma":2,"alpha":1}}"#)
    }

    @Test("--threshold keeps scores strictly above T")
    func labelledThreshold() async throws {
        expectSuccess(try await CLI.run("run", labelled, "--input", "[1,2,3,4]", "--threshold", "3"),
                      stdout: #"{"output":{"gamma":4,"delta":4}}"#)
        // alpha and beta score exactly 2: not above 2.
        expectSuccess(try await CLI.run("run", labelled, "--input", "[1,2,3,4]", "--threshold", "2"),
                      stdout: #"{"output":{"gamma":4,"delta":4}}"#)
        expectSuccess(try await CLI.run("run", labelled, "--input", "[1,2,3,4]", "--threshold", "1.5"),
                      stdout: #"{"output":{"gamma":4,"delta":4,"alpha":2,"beta":2}}"#)
        expectSuccess(try await CLI.run("run", labelled, "--input", "[1,2,3,4]", "--threshold", "4"),
                      stdout: #"{"output":{}}"#)
        expectSuccess(try await CLI.run("run", labelled, "--input", "[0,5,1,3]", "--threshold", "1.5"),
                      stdout: #"{"output":{"beta":5,"delta":3,"gamma":2}}"#)
        // A negative threshold is a value, not an option.
        expectSuccess(try await CLI.run("run", labelled, "--input", "[-3,2,-1,4]", "--threshold", "-1.5"),
                      stdout: #"{"output":{"delta":4,"beta":2,"gamma":0}}"#)  // alpha is -2
    }

    @Test("--top and --threshold together")
    func labelledTopAndThreshold() async throws {
        expectSuccess(try await CLI.run("run", labelled, "--input", "[0,5,1,3]", "--top", "2", "--threshold", "4"),
                      stdout: #"{"output":{"beta":5}}"#)
        expectSuccess(try await CLI.run("run", labelled, "--input", "[0,5,1,3]", "--top", "2", "--threshold", "0"),
                      stdout: #"{"output":{"beta":5,"delta":3}}"#)
    }

    @Test("a one-input model given several values runs once per value: a JSON line each, in order, failures last")
    func severalValues() async throws {
        let number = Fixtures.path("1_in_1_out_number_test.tiobundle")
        let result = try await CLI.run("run", number, "--input", "2", "--input", "@no-such.npy", "--input", "input=3",
                                       "--input", "[1,2]", "--input", "@Tests/Fixtures/NumPy/vector-f8.npy")
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdoutLines == [#"{"output":25}"#, #"{"output":35}"#], "\(result)")
        #expect(result.stderrLines == [
            "error: --input @no-such.npy: no-such.npy does not exist",
            #"error: --input [1,2]: layer "input": expected 1 number (shape [1]), got 2"#,
            #"error: --input @Tests/Fixtures/NumPy/vector-f8.npy: layer "input": expected 1 number (shape [1]), got 4"#,
        ], "\(result)")

        let images = try await CLI.run("run", "Examples/efficientnet-lite0-float32.tiobundle", "--image", "Examples/photos/cat.jpg",
                                       "--image", "no-such.jpg", "--image", "Examples/photos/coffee.jpg", "--top", "1")
        #expect(images.status == 1, "\(images)")
        #expect(images.stdoutLines.count == 2 && images.stdoutLines[1].contains("espresso"), "\(images)")
        #expect(images.stderrLines == ["error: no-such.jpg: the image does not exist"], "\(images)")
    }

    @Test("--top and --threshold leave unlabelled outputs alone, with a warning for each option without effect")
    func topOnUnlabelled() async throws {
        let result = try await CLI.run("run", Fixtures.path("1_in_1_out_vectors_test.tiobundle"),
                                       "--input", "[1,2,3,4]", "--top", "1", "--threshold", "3", "--resize", "fit",
                                       "--output-dir", "unused")
        expectSuccess(result, stdout: #"{"output":[2,2,4,4]}"#, quietStderr: false)
        #expect(result.stderrLines == [
            "warning: --top has no effect: the model has no labelled output",
            "warning: --threshold has no effect: the model has no labelled output",
            "warning: --output-dir has no effect: the model has no image output",
            "warning: --resize and --scaling have no effect without --image",
        ], "\(result)")
        #expect(!FileManager.default.fileExists(atPath: Fixtures.repositoryRoot.appendingPathComponent("unused").path))
        // After a failure the warnings are dropped: the report stays one line.
        expectOneLineError(try await CLI.run("run", Fixtures.path("1_in_1_out_vectors_test.tiobundle"), "--input", "[1,2]", "--top", "1"),
                           containing: [#"layer "input""#])
    }

    // MARK: Quantized models

    @Test("quantized_uint8_test: real inputs, dequantized float outputs")
    func quantized() async throws {
        let result = try await CLI.run("run", Fixtures.path("quantized_uint8_test.tiobundle"), "--input", "[0,0.25,0.5,1]")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let values = try numbers(jsonObject(result)["output"])
        let quantum = 0.75 / 255
        let exact = [0.25, 0.375, 0.5, 0.75]
        #expect(values.count == 4, "\(result)")
        for (value, expected) in zip(values, exact) {
            #expect(abs(value - expected) <= quantum + 1e-6, "\(value) vs \(expected): \(result)")
        }
        // Dequantized means floats in the output's real range, not raw uint8 codes.
        #expect(values.allSatisfy { $0 >= 0 && $0 <= 0.75 + 1e-6 }, "\(result)")
    }

    @Test("quantized_uint8_raw_test: raw uint8 codes in and out")
    func quantizedRaw() async throws {
        let result = try await CLI.run("run", Fixtures.path("quantized_uint8_raw_test.tiobundle"), "--input", "[0,64,128,255]")
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let values = try numbers(jsonObject(result)["output"])
        #expect(values.count == 4, "\(result)")
        for (value, expected) in zip(values, [85.0, 128, 170, 255]) {
            #expect(abs(value - expected) <= 1, "\(value) vs \(expected): \(result)")
            #expect(value == value.rounded(), "uint8 codes print as integers: \(result)")
        }
        #expect(!result.stdout.contains("."), "\(result)")
    }

    // MARK: Output types

    @Test("output_types_test: int8, int16, bool as true/false, float16, float32, in model.json order")
    func outputTypes() async throws {
        let result = try await CLI.run("run", Fixtures.path("output_types_test.tiobundle"), "--input", "[-1,0,2,100]")
        expectSuccess(result, stdout: #"""
            {"as_int8":[-1,0,2,100],"as_int16":[-1,0,2,100],"as_bool":[false,false,true,true],"as_float16":[-1,0,2,100],"as_float32":[-0.5,0,1,50]}
            """#)
        #expect(topLevelKeys(result.stdout) == ["as_int8", "as_int16", "as_bool", "as_float16", "as_float32"])
    }

    // MARK: Placeholder

    @Test("a placeholder bundle runs and prints {}")
    func placeholder() async throws {
        expectSuccess(try await CLI.run("run", Fixtures.path("placeholder.tiobundle"), "--input", "2"), stdout: "{}")
    }
}
