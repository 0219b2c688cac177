import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// The bundle manager (`TIOModelBundleManager`): every bundle in a folder, sorted, found by identifier.
@Suite("Bundle manager")
struct BundleManagerTests {
    @Test("loads every bundle in the fixtures folder; the invalid ones land in failures")
    func loadsFixtures() throws {
        let manager = try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory)
        let opened = Set(manager.bundles.map(\.url.lastPathComponent))
        #expect(opened == Set(Fixtures.validBundles))
        #expect(manager.bundles.count == Fixtures.validBundles.count)

        let failed = manager.failures.map(\.url.lastPathComponent).sorted()
        #expect(failed == Fixtures.invalidBundles.sorted())
        for failure in manager.failures {
            #expect(failure.error.code == .invalidBundle)
            #expect(!failure.error.issues.isEmpty)
        }
        // A folder without the bundle extension is not a candidate at all.
        #expect(!opened.contains("invalid-model-no-ext"))
        #expect(!failed.contains("invalid-model-no-ext"))
    }

    @Test("bundles are sorted by name, case-insensitively")
    func sortedByName() throws {
        let manager = try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory)
        let names = manager.bundles.map(\.name)
        for (first, second) in zip(names, names.dropFirst()) {
            #expect(first.localizedCaseInsensitiveCompare(second) != .orderedDescending, "\(first) before \(second)")
        }

        // Names whose case-sensitive order differs from the case-insensitive one.
        try withTemporaryDirectory { directory in
            for (folder, name) in [("a.tiobundle", "charlie"), ("b.tiobundle", "Bravo"), ("c.tiobundle", "alpha"), ("d.tfbundle", "Delta")] {
                try copyFixture("1_in_1_out_number_test.tiobundle", into: directory, as: folder) { json in
                    json["name"] = name
                    json["id"] = "id-\(name)"
                }
            }
            let manager = try ModelBundleManager(loadingBundlesIn: directory)
            #expect(manager.bundles.map(\.name) == ["alpha", "Bravo", "charlie", "Delta"])
            #expect(manager.failures.isEmpty)
        }
    }

    @Test("finds a bundle by identifier", arguments: [
        ("1_in_1_out_number_test", "1_in_1_out_number_test.tiobundle"),
        ("no_backend_test", "1_in_1_out_number_test_no_backend.tiobundle"),
        ("deprecated_tfbundle_test", "deprecated.tfbundle"),
        ("placeholder_test", "placeholder.tiobundle"),
    ])
    func findByIdentifier(_ identifier: String, _ folder: String) throws {
        let manager = try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory)
        let bundle = try #require(manager.bundle(withIdentifier: identifier))
        #expect(bundle.identifier == identifier)
        #expect(bundle.url.lastPathComponent == folder)
    }

    @Test("an unknown identifier, or the identifier of a bundle that failed, finds nothing")
    func unknownIdentifier() throws {
        let manager = try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory)
        #expect(manager.bundle(withIdentifier: "no-such-model") == nil)
        #expect(manager.bundle(withIdentifier: "invalid-model-incorrect-labels-file") == nil)
        #expect(manager.bundle(withIdentifier: "") == nil)
    }

    @Test("bundles(withIdentifiers:) keeps the order asked and skips unknown identifiers")
    func bundlesWithIdentifiers() throws {
        let manager = try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory)
        let found = manager.bundles(withIdentifiers: [
            "quantized_uint8_test", "no-such-model", "1_in_1_out_vectors_test", "placeholder_test",
        ])
        #expect(found.map(\.identifier) == ["quantized_uint8_test", "1_in_1_out_vectors_test", "placeholder_test"])
        #expect(manager.bundles(withIdentifiers: []).isEmpty)
        #expect(manager.bundles(withIdentifiers: ["no-such-model"]).isEmpty)
    }

    @Test("a path that does not exist is an error")
    func badPath() {
        let error = #expect(throws: TensorIOError.self) {
            try ModelBundleManager(loadingBundlesIn: Fixtures.bundlesDirectory.appendingPathComponent("no-such-folder"))
        }
        #expect(error?.code == .io)
        #expect(error?.location?.hasSuffix("no-such-folder") == true)
    }

    @Test("a folder where no bundle opens is an error")
    func nothingOpens() throws {
        try withTemporaryDirectory { directory in
            let empty = #expect(throws: TensorIOError.self) { try ModelBundleManager(loadingBundlesIn: directory) }
            #expect(empty?.code == .invalidBundle)

            try copyFixture("invalid-model-no-json.tiobundle", into: directory)
            try copyFixture("1_in_1_out_number_test.tiobundle", into: directory, as: "not-a-bundle")
            let invalid = #expect(throws: TensorIOError.self) { try ModelBundleManager(loadingBundlesIn: directory) }
            #expect(invalid?.code == .invalidBundle)
        }
    }

    @Test("one bundle that opens is enough; the others are reported")
    func partialFolder() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("1_in_1_out_vectors_test.tiobundle", into: directory)
            try copyFixture("invalid-model-bad-json.tiobundle", into: directory)
            let manager = try ModelBundleManager(loadingBundlesIn: directory)
            #expect(manager.bundles.map(\.identifier) == ["1_in_1_out_vectors_test"])
            #expect(manager.failures.map(\.url.lastPathComponent) == ["invalid-model-bad-json.tiobundle"])
            #expect(manager.failures.first?.error.issues.first?.path == "model.json")
        }
    }
}
