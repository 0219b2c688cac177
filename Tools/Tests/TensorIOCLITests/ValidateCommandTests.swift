import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio validate BUNDLE... [--load]`: exit 0 and "PATH: valid" on stdout for valid bundles; otherwise
/// exit 1 and one line per problem on stderr, "PATH: FIELD: MESSAGE".
@Suite("tensorio validate")
struct ValidateCommandTests {
    /// Bundles whose library warning (swift-log, on stderr) is expected on success.
    static let bundlesWithWarnings: Set<String> = [
        "deprecated.tfbundle",  // the .tfbundle extension is deprecated
        "1_in_1_out_number_test_no_backend.tiobundle",  // model.backend is not given (when the model is made)
    ]

    /// The one problem of each invalid fixture (``Fixtures/invalidBundles``): the JSON field (or file) it
    /// names, and what the message says.
    static let problems: [String: (field: String, message: String)] = [
        "invalid-model-bad-json.tiobundle": ("model.json", "is not valid JSON: line 5, column 13"),
        "invalid-model-no-json.tiobundle": ("model.json", "not found"),
        "invalid-model-incorrect-model-file.tiobundle": ("model.file", "\"missing.tflite\" is not in the bundle"),
        "invalid-model-incorrect-labels-file.tiobundle":
            ("outputs[1].labels", "\"missing-labels.txt\" is not in the bundle's assets folder"),
    ]

    @Test("a valid bundle prints PATH: valid", arguments: Fixtures.validBundles)
    func validBundle(name: String) async throws {
        let path = Fixtures.path(name)
        let result = try await CLI.run("validate", path)
        expectSuccess(result, stdout: "\(path): valid", quietStderr: name != "deprecated.tfbundle")
    }

    @Test("several valid bundles print one line each, in argument order")
    func severalValidBundles() async throws {
        let paths = Fixtures.validBundles.filter { !Self.bundlesWithWarnings.contains($0) }.map(Fixtures.path)
        let result = try await CLI.run(["validate"] + paths)
        expectSuccess(result, stdout: paths.map { "\($0): valid" }.joined(separator: "\n"))
    }

    @Test("the exact line for the incorrect-labels fixture")
    func incorrectLabelsExactLine() async throws {
        let path = Fixtures.path("invalid-model-incorrect-labels-file.tiobundle")
        let result = try await CLI.run("validate", path)
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "\(path): outputs[1].labels: \"missing-labels.txt\" is not in the bundle's assets folder\n",
                "\(result)")
    }

    @Test("an invalid bundle gives exit 1 and one line naming the field",
          arguments: Fixtures.invalidBundles)
    func invalidBundle(_ name: String) async throws {
        let (field, message) = try #require(Self.problems[name], "no expected problem for \(name)")
        let path = Fixtures.path(name)
        let result = try await CLI.run("validate", path)
        #expect(result.exited, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let line = try #require(result.stderrLines.first)
        #expect(line.hasPrefix("\(path): \(field): "), "\(result)")
        #expect(line.contains(message), "\(result)")
    }

    @Test("a complete bundle in a folder without the .tiobundle extension is invalid")
    func folderWithoutExtension() async throws {
        let path = Fixtures.path(Fixtures.bundleWithoutExtension)
        let result = try await CLI.run("validate", path)
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let line = try #require(result.stderrLines.first)
        #expect(line.hasPrefix("\(path): "), "\(result)")
        #expect(line.contains(".tiobundle"), "\(result)")
    }

    @Test("valid and invalid bundles together: valid ones on stdout, one stderr line per problem, exit 1")
    func mixedBundles() async throws {
        let valid = Fixtures.path("1_in_1_out_number_test.tiobundle")
        let labels = Fixtures.path("invalid-model-incorrect-labels-file.tiobundle")
        let vectors = Fixtures.path("1_in_1_out_vectors_test.tiobundle")
        let modelFile = Fixtures.path("invalid-model-incorrect-model-file.tiobundle")
        let result = try await CLI.run("validate", valid, labels, vectors, modelFile)
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdoutLines == ["\(valid): valid", "\(vectors): valid"], "\(result)")
        #expect(result.stderrLines == [
            "\(labels): outputs[1].labels: \"missing-labels.txt\" is not in the bundle's assets folder",
            "\(modelFile): model.file: \"missing.tflite\" is not in the bundle",
        ], "\(result)")
    }

    @Test("every fixture at once: exit 1, each valid one on stdout, each invalid one on stderr")
    func allFixtures() async throws {
        let invalid = Fixtures.invalidBundles + [Fixtures.bundleWithoutExtension]
        let all = (Fixtures.validBundles + invalid).sorted()
        let result = try await CLI.run(["validate"] + all.map(Fixtures.path))
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdoutLines == all.filter(Fixtures.validBundles.contains).map { "\(Fixtures.path($0)): valid" },
                "\(result)")
        // One line per problem and nothing else: no library warning (deprecated.tfbundle) on a failure.
        #expect(result.stderrLines.count == invalid.count, "\(result)")
        for (line, name) in zip(result.stderrLines, all.filter(invalid.contains)) {
            #expect(line.hasPrefix("\(Fixtures.path(name)): "), "\(result)")
        }
    }

    @Test("a bundle with two problems gives two lines")
    func twoProblems() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("two-problems.tiobundle")
            try FileManager.default.copyItem(at: Fixtures.url("labeled_vectors_test.tiobundle"), to: bundle)
            try FileManager.default.removeItem(at: bundle.appendingPathComponent("assets"))
            let json = bundle.appendingPathComponent("model.json")
            let text = try String(contentsOf: json, encoding: .utf8)
                .replacingOccurrences(of: "\"file\": \"model.tflite\"", with: "\"file\": \"gone.tflite\"")
            try text.write(to: json, atomically: true, encoding: .utf8)

            let result = try await CLI.run("validate", bundle.path)
            #expect(result.exited && result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines == [
                "\(bundle.path): model.file: \"gone.tflite\" is not in the bundle",
                "\(bundle.path): outputs[0].labels: \"labels.txt\" is not in the bundle's assets folder",
            ], "\(result)")
        }
    }

    @Test("a bundle that does not exist is a problem line")
    func missingBundle() async throws {
        let path = "Tests/Fixtures/Bundles/no-such-bundle.tiobundle"
        let result = try await CLI.run("validate", path)
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("\(path): ") == true, "\(result)")
    }

    // MARK: --load

    @Test("--load loads each valid model; success prints nothing on stderr",
          arguments: Fixtures.validBundles.filter { !bundlesWithWarnings.contains($0) })
    func loadValidBundle(name: String) async throws {
        let path = Fixtures.path(name)
        let result = try await CLI.run("validate", "--load", path)
        // No runtime chatter ("INFO: Created TensorFlow Lite XNNPACK delegate") either.
        expectSuccess(result, stdout: "\(path): valid")
    }

    @Test("--load with a bundle that warns still succeeds", arguments: bundlesWithWarnings.sorted())
    func loadBundleWithWarning(name: String) async throws {
        let path = Fixtures.path(name)
        let result = try await CLI.run("validate", "--load", path)
        expectSuccess(result, stdout: "\(path): valid", quietStderr: false)
    }

    @Test("--load reports a layer whose shape disagrees with the model's tensor, as one line")
    func loadFindsShapeMismatch() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("wrong-shape.tiobundle")
            try FileManager.default.copyItem(at: Fixtures.url("1_in_1_out_number_test.tiobundle"), to: bundle)
            let json = bundle.appendingPathComponent("model.json")
            let original = try String(contentsOf: json, encoding: .utf8)
            let text = original.replacingOccurrences(of: "\"shape\": [1]", with: "\"shape\": [2]")
            #expect(text != original)
            try text.write(to: json, atomically: true, encoding: .utf8)

            // The schema alone cannot tell.
            let plain = try await CLI.run("validate", bundle.path)
            expectSuccess(plain, stdout: "\(bundle.path): valid")

            let loaded = try await CLI.run("validate", "--load", bundle.path)
            #expect(loaded.exited && loaded.status == 1, "\(loaded)")
            #expect(loaded.stdout.isEmpty, "\(loaded)")
            #expect(loaded.stderrLines.count == 1, "\(loaded)")
            let line = try #require(loaded.stderrLines.first)
            #expect(line.hasPrefix("\(bundle.path): layer \"input\": "), "\(loaded)")
            #expect(line.contains("[2]") && line.contains("[1]"), "\(loaded)")
        }
    }

    @Test("--load with valid and invalid bundles: one line per problem, valid ones on stdout")
    func loadMixed() async throws {
        let valid = Fixtures.path("2_in_2_out_vectors_test.tiobundle")
        let invalid = Fixtures.path("invalid-model-incorrect-model-file.tiobundle")
        let result = try await CLI.run("validate", "--load", valid, invalid)
        #expect(result.exited && result.status == 1, "\(result)")
        #expect(result.stdoutLines == ["\(valid): valid"], "\(result)")
        #expect(result.stderrLines == ["\(invalid): model.file: \"missing.tflite\" is not in the bundle"], "\(result)")
    }

    @Test("without --load, a missing runtime does not matter")
    func noLoadNoRuntime() async throws {
        let path = Fixtures.path("1_in_1_out_number_test.tiobundle")
        let result = try await CLI.run(
            ["validate", path], environment: ["TENSORIO_LITERT_LIBRARY": "/nonexistent/libLiteRt.so"]
        )
        expectSuccess(result, stdout: "\(path): valid")
    }

    // MARK: --load isolation

    @Test("--load refuses a bundle that disagrees with its model (quantized: true on a float model), in the child")
    func loadRefusesQuantizedFloatModel() async throws {
        let path = "Tests/Fixtures/Hostile/quantized-float-model.tiobundle"
        for mode in [[], ["--in-process"]] {
            let result = try await CLI.run(["validate", "--load"] + mode + [path])
            #expect(result.exited && result.status == 1, "\(result)")
            #expect(result.stderrLines == [
                "\(path): layer \"input\": model.quantized is true and no dtype is given, which means uint8, but the model's tensor \"input\" holds float32 values",
            ], "\(result)")
        }
    }

    @Test("--load survives a runtime that crashes or hangs: one line naming the signal or the time limit, exit 1")
    func loadSurvivesCrashAndHang() async throws {
        try await withTemporaryDirectory { folder in
            let crash = folder.appendingPathComponent("crash")
            try Data("#!/bin/sh\necho '{\"phase\":\"loading\"}'\nkill -SEGV $$\n".utf8).write(to: crash)
            let hang = folder.appendingPathComponent("hang")
            try Data("#!/bin/sh\necho '{\"phase\":\"loading\"}'\nsleep 60\n".utf8).write(to: hang)
            chmod(crash.path, 0o755)
            chmod(hang.path, 0o755)
            let path = Fixtures.path("1_in_1_out_number_test.tiobundle")
            let crashed = try await CLI.run(["validate", "--load", path], environment: ["TENSORIO_LOAD_CHECK": crash.path])
            #expect(crashed.exited && crashed.status == 1, "\(crashed)")
            #expect(crashed.stderrLines == ["\(path): the runtime crashed loading model.tflite (SIGSEGV)"], "\(crashed)")

            let hung = try await CLI.run(
                ["validate", "--load", "--time-limit", "0.5", path], environment: ["TENSORIO_LOAD_CHECK": hang.path])
            #expect(hung.exited && hung.status == 1, "\(hung)")
            #expect(hung.stderrLines == [
                "\(path): the runtime did not finish loading model.tflite within 0.5 s (the load check was stopped)",
            ], "\(hung)")
        }
    }

    @Test("isolation options without --load, or out of range, are usage errors", arguments: [
        ["--in-process"], ["--time-limit", "5"], ["--load", "--time-limit", "0"], ["--load", "--memory-limit", "1"],
    ])
    func isolationOptionErrors(_ options: [String]) async throws {
        let result = try await CLI.run(["validate"] + options + [Fixtures.path("1_in_1_out_number_test.tiobundle")])
        #expect(result.exited && result.status != 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}
