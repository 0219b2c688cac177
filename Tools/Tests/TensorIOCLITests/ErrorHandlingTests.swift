import Foundation
import Testing
import TensorIOTestSupport

/// Any failure of `tensorio` is exactly one line on stderr starting with "error: ", exit status 1, nothing
/// on stdout — never a crash or a signal. (`validate` reports its problems as one line each instead; see
/// ValidateCommandTests.)
@Suite("tensorio errors")
struct ErrorHandlingTests {
    private let number = Fixtures.path("1_in_1_out_number_test.tiobundle")
    private let vectors = Fixtures.path("1_in_1_out_vectors_test.tiobundle")
    private let twoInputs = Fixtures.path("2_in_2_out_vectors_test.tiobundle")

    // MARK: Input values

    @Test("an unknown layer name")
    func unknownLayer() async throws {
        expectUsageError(try await CLI.run("run", number, "--input", "nope=2"),
                           containing: [#"--input nope=2"#, #""nope""#, "input"])
        expectUsageError(try await CLI.run("run", twoInputs, "--input", "input1=[1,2,3,4]", "--input", "input3=[1,2,3,4]"),
                           containing: [#""input3""#])
    }

    @Test("the documented message for an unknown layer")
    func unknownLayerExactMessage() async throws {
        let result = try await CLI.run("run", number, "--input", "nope=2")
        #expect(result.stderr == "error: --input nope=2: the model has no input layer named \"nope\" (inputs: input)\n",
                "\(result)")
    }

    @Test("a missing input: one of two, or none at all")
    func missingInput() async throws {
        expectOneLineError(try await CLI.run("run", twoInputs, "--input", "input1=[1,2,3,4]"), containing: ["input2"])
        expectOneLineError(try await CLI.run("run", twoInputs, "--input", "input2=[1,2,3,4]"), containing: ["input1"])
        expectUsageError(try await CLI.run("run", number), containing: ["--input"])
        expectUsageError(try await CLI.run("run", twoInputs), containing: ["--input", "input1", "input2"])
    }

    @Test("the wrong number of elements", arguments: [
        ("1_in_1_out_vectors_test.tiobundle", "[1,2,3]"),
        ("1_in_1_out_vectors_test.tiobundle", "[1,2,3,4,5]"),
        ("1_in_1_out_vectors_test.tiobundle", "2"),
        ("1_in_1_out_vectors_test.tiobundle", "[]"),
        ("1_in_1_out_vectors_test.tiobundle", "[[1,2],[3]]"),
        ("1_in_1_out_number_test.tiobundle", "[1,2]"),
        ("1_in_1_out_tensors_test.tiobundle", "[1,2,3]"),
        ("1_in_1_out_string_test.tiobundle", "[1,2]"),
    ])
    func wrongElementCount(name: String, value: String) async throws {
        expectOneLineError(try await CLI.run("run", Fixtures.path(name), "--input", value), containing: [#"layer "input""#])
    }

    @Test("the wrong element count names the layer, the expected count and the count given")
    func wrongElementCountMessage() async throws {
        expectOneLineError(try await CLI.run("run", vectors, "--input", "[1,2,3]"),
                           containing: [#"layer "input""#, "4", "3"])
        expectOneLineError(try await CLI.run("run", twoInputs, "--input", "input1=[1,2,3,4]", "--input", "input2=[1,2]"),
                           containing: [#"layer "input2""#])
    }

    @Test("a malformed JSON value", arguments: ["[1,", "abc", "[1 2]", "--", "2,", "", "input=", "{", "NaN"])
    func malformedJSON(value: String) async throws {
        expectOneLineError(try await CLI.run("run", number, "--input", value))
    }

    @Test("JSON that is not a number or array of numbers", arguments: [#""abc""#, #"{"a":1}"#, "null", #"["a"]"#, "[null]"])
    func notNumbers(value: String) async throws {
        expectOneLineError(try await CLI.run("run", number, "--input", value))
    }

    @Test("a malformed .json file names the file")
    func malformedJSONFile() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("bad.json")
            try Data("[1, 2".utf8).write(to: file)
            expectOneLineError(try await CLI.run("run", number, "--input", "@\(file.path)"), containing: [file.path])
        }
    }

    @Test("a value that does not fit an integer layer", arguments: [
        ("1_in_1_out_number_int32_test.tiobundle", "1e20"),
        ("1_in_1_out_number_int64_test.tiobundle", "1e30"),
        ("quantized_uint8_raw_test.tiobundle", "[-1,0,0,0]"),
        ("quantized_uint8_raw_test.tiobundle", "[256,0,0,0]"),
    ])
    func valueOutOfRange(name: String, value: String) async throws {
        expectOneLineError(try await CLI.run("run", Fixtures.path(name), "--input", value), containing: [#"layer "input""#])
    }

    @Test("a nonexistent @file", arguments: ["/nonexistent/value.json", "/nonexistent/value.bin", "no-such-file.json", ""])
    func missingFile(path: String) async throws {
        let result = try await CLI.run("run", number, "--input", "@\(path)")
        expectOneLineError(result, containing: path.isEmpty ? ["--input"] : [path])
    }

    @Test("@ naming a folder")
    func fileIsAFolder() async throws {
        try await withTemporaryDirectory { folder in
            expectOneLineError(try await CLI.run("run", number, "--input", "@\(folder.path)"))
        }
    }

    @Test("raw bytes of the wrong size")
    func rawBytesWrongSize() async throws {
        try await withTemporaryDirectory { folder in
            for count in [0, 2, 8] {
                let file = folder.appendingPathComponent("value\(count).bin")
                try Data(repeating: 0, count: count).write(to: file)
                expectOneLineError(try await CLI.run("run", number, "--input", "@\(file.path)"), containing: [#"layer "input""#])
            }
        }
    }

    @Test("a multi-input model given a single unnamed value")
    func unnamedValueForSeveralInputs() async throws {
        expectUsageError(try await CLI.run("run", twoInputs, "--input", "[1,2,3,4]"), containing: ["input1", "input2"])
        expectUsageError(try await CLI.run("run", twoInputs, "--input", "[1,2,3,4]", "--input", "[1,2,3,4]"),
                           containing: ["NAME=VALUE"])
        expectUsageError(try await CLI.run("run", twoInputs, "--input", "input1=[1,2,3,4]", "--input", "[1,2,3,4]"))
    }

    @Test("the same input twice: a usage error for a model with several inputs")
    func duplicateInput() async throws {
        expectUsageError(try await CLI.run("run", twoInputs, "--input", "input1=[1,2,3,4]", "--input", "input1=[1,2,3,4]",
                                           "--input", "input2=[1,2,3,4]"), containing: ["input1", "given twice"])
    }

    // MARK: Options

    @Test("--top must be at least 1", arguments: ["0", "-1"])
    func topZero(value: String) async throws {
        let bundle = Fixtures.path("labeled_vectors_test.tiobundle")
        expectUsageError(try await CLI.run("run", bundle, "--input", "[1,2,3,4]", "--top", value), containing: ["--top"])
    }

    @Test("--threads out of range", arguments: ["0", "-2", "100000", "abc"])
    func badThreads(value: String) async throws {
        expectUsageError(try await CLI.run("run", number, "--input", "2", "--threads", value), containing: ["threads"])
        expectUsageError(try await CLI.run("inspect", number, "--threads", value), containing: ["threads"])
    }

    @Test("an option value that does not parse", arguments: [["--top", "abc"], ["--threshold", "abc"], ["--top", "1.5"]])
    func badOptionValue(option: [String]) async throws {
        let bundle = Fixtures.path("labeled_vectors_test.tiobundle")
        expectUsageError(try await CLI.run(["run", bundle, "--input", "[1,2,3,4]"] + option), containing: [option[0]])
    }

    // MARK: Bundles

    @Test("a nonexistent bundle", arguments: ["run", "inspect"])
    func missingBundle(command: String) async throws {
        let path = "Tests/Fixtures/Bundles/no-such-bundle.tiobundle"
        let arguments = command == "run" ? ["run", path, "--input", "2"] : ["inspect", path]
        expectOneLineError(try await CLI.run(arguments), containing: [path])
    }

    /// For each invalid fixture (``Fixtures/invalidBundles`` and the folder without the extension): the
    /// inputs `run` would otherwise accept, and what the error names.
    static let problems: [String: (inputs: [String], fragments: [String])] = [
        "invalid-model-bad-json.tiobundle": (["2"], ["model.json", "line 5"]),
        "invalid-model-no-json.tiobundle": (["2"], ["model.json"]),
        "invalid-model-incorrect-model-file.tiobundle": (["2"], ["model.file", "missing.tflite"]),
        "invalid-model-incorrect-labels-file.tiobundle":
            (["input1=[1,2,3,4]", "input2=[10,20,30,40]"], ["outputs[1].labels", "missing-labels.txt"]),
        Fixtures.bundleWithoutExtension: (["2"], [".tiobundle"]),
    ]

    static let invalidBundles = Fixtures.invalidBundles + [Fixtures.bundleWithoutExtension]

    @Test("run with each invalid fixture", arguments: invalidBundles)
    func runInvalidBundle(_ name: String) async throws {
        let (inputs, fragments) = try #require(Self.problems[name], "no expected problem for \(name)")
        let result = try await CLI.run(["run", Fixtures.path(name)] + inputs.flatMap { ["--input", $0] })
        expectOneLineError(result, containing: fragments)
    }

    @Test("inspect with each invalid fixture", arguments: invalidBundles)
    func inspectInvalidBundle(_ name: String) async throws {
        let fragments = try #require(Self.problems[name], "no expected problem for \(name)").fragments
        expectOneLineError(try await CLI.run("inspect", Fixtures.path(name)), containing: fragments)
        expectOneLineError(try await CLI.run("inspect", Fixtures.path(name), "--json"), containing: fragments)
    }

    @Test("a bundle path that is a file, not a folder")
    func bundleIsAFile() async throws {
        let file = "\(number)/model.json"
        expectOneLineError(try await CLI.run("run", file, "--input", "2"))
        expectOneLineError(try await CLI.run("inspect", file))
    }

    @Test("a model layer that disagrees with the tensor fails at run time, as one line; inspect marks it in its table")
    func layerMismatch() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("wrong-shape.tiobundle")
            try FileManager.default.copyItem(at: Fixtures.url("1_in_1_out_number_test.tiobundle"), to: bundle)
            let json = bundle.appendingPathComponent("model.json")
            let text = try String(contentsOf: json, encoding: .utf8)
                .replacingOccurrences(of: "\"shape\": [1]", with: "\"shape\": [2]")
            try text.write(to: json, atomically: true, encoding: .utf8)
            expectOneLineError(try await CLI.run("run", bundle.path, "--input", "[1,2]"), containing: [#"layer "input""#])
            // inspect shows every disagreement rather than the first (InspectCommandTests covers the table),
            // still with one error line on stderr.
            let inspect = try await CLI.run("inspect", bundle.path)
            #expect(inspect.exited && inspect.status == 1, "\(inspect)")
            #expect(inspect.stderrLines.count == 1, "\(inspect)")
            #expect(inspect.stderrLines.first?.contains("disagrees with the model in 2 places") == true, "\(inspect)")
            #expect(inspect.stdoutLines.contains { $0.hasPrefix("  input:") && $0.contains("✗") }, "\(inspect)")
        }
    }

    @Test("a library warning does not make a failure two lines", arguments: [
        "deprecated.tfbundle", "1_in_1_out_number_test_no_backend.tiobundle",
    ])
    func warningThenError(name: String) async throws {
        expectUsageError(try await CLI.run("run", Fixtures.path(name)), containing: ["--input"])
        expectOneLineError(try await CLI.run("run", Fixtures.path(name), "--input", "[1,2]"), containing: [#"layer "input""#])
        expectOneLineError(
            try await CLI.run(["run", Fixtures.path(name), "--input", "2"],
                              environment: ["TENSORIO_LITERT_LIBRARY": "/nonexistent/libLiteRt.so"]),
            containing: ["make setup"]
        )
    }

    // MARK: Usage

    @Test("an unknown subcommand")
    func unknownSubcommand() async throws {
        expectUsageError(try await CLI.run("frobnicate"), containing: ["frobnicate"])
        expectUsageError(try await CLI.run("frobnicate", number))
    }

    @Test("a missing argument", arguments: [
        ["run"], ["inspect"], ["validate"], ["validate", "--load"], ["inspect", "--json"],
        ["run", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "--input"],
        ["run", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "--input", "2", "--top"],
        ["run", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "--input", "2", "--threads"],
    ])
    func missingArgument(arguments: [String]) async throws {
        expectUsageError(try await CLI.run(arguments))
    }

    @Test("an unknown option or an extra argument", arguments: [
        ["run", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "--input", "2", "--bogus"],
        ["inspect", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "--yaml"],
        ["validate", "--frobnicate", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle"],
        ["inspect", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "Tests/Fixtures/Bundles/1_in_1_out_vectors_test.tiobundle"],
        ["run", "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle", "2"],
    ])
    func unknownOption(arguments: [String]) async throws {
        expectUsageError(try await CLI.run(arguments))
    }

    @Test("--help is not an error", arguments: [["--help"], ["run", "--help"], ["help", "inspect"], ["validate", "-h"]])
    func help(arguments: [String]) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.exited && result.status == 0, "\(result)")
        #expect(result.stdout.contains("USAGE: tensorio"), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    // MARK: Runtime

    @Test("a missing runtime: one line saying how to install it", arguments: ["run", "inspect"])
    func missingRuntime(command: String) async throws {
        let arguments = command == "run" ? ["run", number, "--input", "2"] : ["inspect", number, "--json"]
        let result = try await CLI.run(arguments, environment: ["TENSORIO_LITERT_LIBRARY": "/nonexistent/libLiteRt.so"])
        expectOneLineError(result, containing: ["make setup", "scripts/install-litert.sh", "/nonexistent/libLiteRt.so"])
    }

    @Test("validate --load with a missing runtime: one problem line saying how to install it")
    func missingRuntimeValidate() async throws {
        let result = try await CLI.run(
            ["validate", "--load", number], environment: ["TENSORIO_LITERT_LIBRARY": "/nonexistent/libLiteRt.so"]
        )
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let line = try #require(result.stderrLines.first)
        #expect(line.hasPrefix("\(number): "), "\(result)")
        #expect(line.contains("make setup") && line.contains("scripts/install-litert.sh"), "\(result)")
    }

    @Test("a placeholder needs no runtime")
    func placeholderWithoutRuntime() async throws {
        let result = try await CLI.run(
            ["run", Fixtures.path("placeholder.tiobundle"), "--input", "2"],
            environment: ["TENSORIO_LITERT_LIBRARY": "/nonexistent/libLiteRt.so"]
        )
        expectSuccess(result, stdout: "{}")
    }

    @Test("a file that is not a runtime library")
    func notALibrary() async throws {
        let result = try await CLI.run(
            ["run", number, "--input", "2"],
            environment: ["TENSORIO_LITERT_LIBRARY": Fixtures.url("1_in_1_out_number_test.tiobundle/model.json").path]
        )
        expectOneLineError(result, containing: ["make setup"])
    }

    // MARK: Output

    @Test("a closed stdout ends the command quietly with status 141, not a signal", arguments: ["run", "inspect", "validate"])
    func closedStdout(command: String) async throws {
        let arguments = switch command {
        case "run": ["run", number, "--input", "2"]
        case "inspect": ["inspect", number]
        default: ["validate", number]
        }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()  // nobody will read: writing gives EPIPE
        let result = try await CLI.run(arguments, standardOutput: .handle(pipe.fileHandleForWriting))
        try? pipe.fileHandleForWriting.close()
        #expect(result.exited && result.status == 141, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("a full disk on stdout is an error", .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")))
    func fullStdout() async throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let result = try await CLI.run(["run", number, "--input", "2"], standardOutput: .handle(full))
        expectOneLineError(result)
    }
}
