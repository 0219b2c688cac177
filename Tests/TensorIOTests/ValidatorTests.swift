import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// The original's validator suite (`TIOModelBundleValidatorTests`, 14 cases) over the fixture bundles,
/// plus the checks this version adds: labels of every output, label counts, paths that leave the bundle.
@Suite("Bundle validator")
struct ValidatorTests {
    /// An error a custom check throws, to see it come back unchanged.
    struct CustomFailure: Error, Equatable {
        var reason: String
    }

    // MARK: - The original's cases

    @Test("a valid bundle passes", arguments: Fixtures.validBundles)
    func validBundle(_ name: String) throws {
        let validator = ModelBundleValidator(bundleAt: Fixtures.url(name))
        #expect(validator.issues() == [])
        let bundle = try validator.validate()
        #expect(bundle.url == Fixtures.url(name))
        #expect(!bundle.identifier.isEmpty)
    }

    @Test("an invalid bundle fails with the problem's path", arguments: [
        ("invalid-model-bad-json.tiobundle", "model.json", "is not valid JSON"),
        ("invalid-model-no-json.tiobundle", "model.json", "not found"),
        ("invalid-model-no-ext", "", "does not have the .tiobundle extension"),
        ("invalid-model-incorrect-model-file.tiobundle", "model.file", #""missing.tflite" is not in the bundle"#),
        ("invalid-model-incorrect-labels-file.tiobundle", "outputs[1].labels", #""missing-labels.txt" is not in the bundle's assets folder"#),
    ])
    func invalidBundle(_ name: String, _ path: String, _ message: String) throws {
        let validator = ModelBundleValidator(bundleAt: Fixtures.url(name))
        let issues = validator.issues()
        #expect(issues.map(\.path) == [path])
        #expect(issues.first?.message.contains(message) == true, "\(issues)")

        let error = #expect(throws: TensorIOError.self) { try validator.validate() }
        #expect(error?.code == .invalidBundle)
        #expect(error?.issues == issues)
        // ModelBundle(at:) refuses it the same way.
        let opening = #expect(throws: TensorIOError.self) { try ModelBundle(at: Fixtures.url(name)) }
        #expect(opening == error)
    }

    @Test("the bad-JSON bundle's message carries the parser's explanation")
    func badJSONMessage() throws {
        let issue = try #require(ModelBundleValidator(bundleAt: Fixtures.url("invalid-model-bad-json.tiobundle")).issues().first)
        #expect(issue.message.count > "is not valid JSON: ".count)
    }

    @Test("a path that does not exist, or is a file, is not a bundle")
    func notADirectory() throws {
        let missing = Fixtures.url("no-such-bundle.tiobundle")
        let error = #expect(throws: TensorIOError.self) { try ModelBundleValidator(bundleAt: missing).validate() }
        #expect(error?.code == .invalidBundle)
        #expect(error?.issues.count == 1)
        #expect(error?.description.contains("no-such-bundle.tiobundle does not exist") == true)

        let file = Fixtures.url("1_in_1_out_number_test.tiobundle").appendingPathComponent("model.json")
        #expect(ModelBundleValidator(bundleAt: file).issues().first?.message.contains("is a file, not a bundle folder") == true)
    }

    @Test("a custom check that passes: the bundle opens, and the check saw it")
    func customValidationPasses() throws {
        let seen = LockedBox<String?>(nil)
        let bundle = try ModelBundleValidator(bundleAt: Fixtures.url("1_in_1_out_number_test.tiobundle")).validate { bundle in
            seen.withLock { $0 = bundle.identifier }
        }
        #expect(bundle.identifier == "1_in_1_out_number_test")
        #expect(seen.withLock { $0 } == "1_in_1_out_number_test")
    }

    @Test("a custom check that throws: its error passes through unchanged")
    func customValidationFails() {
        let url = Fixtures.url("1_in_1_out_number_test.tiobundle")
        #expect(throws: CustomFailure(reason: "not today")) {
            try ModelBundleValidator(bundleAt: url).validate { _ in throw CustomFailure(reason: "not today") }
        }
        // A TensorIOError thrown by the check is not rewrapped either.
        let own = TensorIOError(.unsupported, "a custom refusal", location: "custom")
        let error = #expect(throws: TensorIOError.self) {
            try ModelBundleValidator(bundleAt: url).validate { _ in throw own }
        }
        #expect(error == own)
    }

    @Test("a custom check is not run on a bundle the built-in checks refuse")
    func customValidationSkippedForInvalidBundles() {
        let called = LockedBox(false)
        let error = #expect(throws: TensorIOError.self) {
            try ModelBundleValidator(bundleAt: Fixtures.url("invalid-model-no-json.tiobundle")).validate { _ in
                called.withLock { $0 = true }
                throw CustomFailure(reason: "should not run")
            }
        }
        #expect(error?.code == .invalidBundle)
        #expect(called.withLock { $0 } == false)
    }

    // MARK: - Beyond the original

    @Test("the labels files of all outputs are checked, not only up to the first without labels")
    func labelsOfEveryOutput() {
        // output1 has no labels; output2's are missing. The original's loop stopped at output1.
        let issues = ModelBundleValidator(bundleAt: Fixtures.url("invalid-model-incorrect-labels-file.tiobundle")).issues()
        #expect(issues == [BundleIssue(
            path: "outputs[1].labels", message: #""missing-labels.txt" is not in the bundle's assets folder"#
        )])
    }

    @Test("a model file outside the bundle is refused with its JSON path", arguments: [
        "../model.tflite", "/tmp/model.tflite", "assets/../../model.tflite", "~/model.tflite",
    ])
    func modelFileEscapes(_ file: String) throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", edit: { $0[path: "model.file"] = file }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url) }
            #expect(error?.issues.map(\.path) == ["model.file"])
            #expect(error?.issues.first?.message.contains(file) == true)
        }
    }

    @Test("a labels file outside the bundle's assets is refused with its JSON path", arguments: [
        "../labels.txt", "/etc/hostname",
    ])
    func labelsFileEscapes(_ file: String) throws {
        try withFixtureCopy("labeled_vectors_test.tiobundle", edit: { $0[path: "outputs[0].labels"] = file }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url) }
            #expect(error?.issues.map(\.path) == ["outputs[0].labels"])
        }
    }

    @Test("a model file that is a symbolic link out of the bundle is refused")
    func modelFileSymlinkEscapes() throws {
        try withTemporaryDirectory { directory in
            let bundle = try copyFixture("1_in_1_out_number_test.tiobundle", into: directory)
            let outside = directory.appendingPathComponent("outside.tflite")
            try FileManager.default.moveItem(at: bundle.appendingPathComponent("model.tflite"), to: outside)
            try FileManager.default.createSymbolicLink(
                at: bundle.appendingPathComponent("model.tflite"), withDestinationURL: outside
            )
            #expect(ModelBundleValidator(bundleAt: bundle).issues().map(\.path) == ["model.file"])
        }
    }

    @Test("a labels file whose count differs from the layer's element count is refused", arguments: [
        "alpha\nbeta\ngamma\n", "alpha\nbeta\ngamma\ndelta\nepsilon", "",
    ])
    func labelCountMismatch(_ labels: String) throws {
        try withFixtureCopy("labeled_vectors_test.tiobundle") { url in
            try Data(labels.utf8).write(to: url.appendingPathComponent("assets/labels.txt"))
            let issues = ModelBundleValidator(bundleAt: url).issues()
            #expect(issues.map(\.path) == ["outputs[0].labels"])
            #expect(issues.first?.message.contains("but the layer has 4 elements") == true, "\(issues)")
        }
    }

    @Test("a labels file that is not UTF-8 is refused")
    func labelsNotUTF8() throws {
        try withFixtureCopy("labeled_vectors_test.tiobundle") { url in
            try Data([0x61, 0x0A, 0xFF, 0xFE, 0x0A, 0x63, 0x0A, 0x64]).write(to: url.appendingPathComponent("assets/labels.txt"))
            #expect(ModelBundleValidator(bundleAt: url).issues().map(\.path) == ["outputs[0].labels"])
        }
    }

    @Test("the deprecated .tfbundle extension is accepted")
    func deprecatedExtension() throws {
        let bundle = try ModelBundleValidator(bundleAt: Fixtures.url("deprecated.tfbundle")).validate()
        #expect(bundle.identifier == "deprecated_tfbundle_test")
        #expect(bundle.url.pathExtension == "tfbundle")
    }

    @Test("other extensions are refused even when the bundle is otherwise complete", arguments: [
        "number.bundle", "number.tiobundle.zip", "number",
    ])
    func otherExtensions(_ name: String) throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle", as: name) { url in
            let issues = ModelBundleValidator(bundleAt: url).issues()
            #expect(issues.count == 1)
            #expect(issues.first?.message.contains("does not have the .tiobundle extension") == true)
        }
    }

    @Test("a placeholder bundle needs no model file")
    func placeholderWithoutModelFile() throws {
        let url = Fixtures.url("placeholder.tiobundle")
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("model.tflite").path))
        let bundle = try ModelBundleValidator(bundleAt: url).validate()
        #expect(bundle.isPlaceholder)
        #expect(bundle.modelFileURL == nil)
    }

    @Test("a bundle that is not a placeholder does need its model file")
    func nonPlaceholderNeedsModelFile() throws {
        try withFixtureCopy("placeholder.tiobundle", edit: {
            $0["placeholder"] = false
            $0[path: "model.file"] = "model.tflite"
        }) { url in
            #expect(ModelBundleValidator(bundleAt: url).issues().map(\.path) == ["model.file"])
        }
    }

    @Test("issues found in model.json are reported before the file checks run")
    func schemaIssuesFirst() throws {
        try withFixtureCopy("invalid-model-incorrect-model-file.tiobundle", edit: { $0["colour"] = "blue" }) { url in
            // The missing model file is not reported while model.json itself is wrong.
            #expect(ModelBundleValidator(bundleAt: url).issues().map(\.path) == ["colour"])
        }
    }

    @Test("a missing model file and a missing labels file are reported together")
    func fileIssuesTogether() throws {
        try withFixtureCopy("invalid-model-incorrect-labels-file.tiobundle", edit: {
            $0[path: "model.file"] = "missing.tflite"
        }) { url in
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: url) }
            #expect(error?.issues.map(\.path) == ["model.file", "outputs[1].labels"])
            #expect(error?.description.hasPrefix("2 problems: ") == true)
        }
    }
}
