public import Foundation
public import TensorIO

/// Where the repository's test files are, and the one list of the fixture bundles.
///
/// Paths are found from this file's own path (`Tests/TestSupport/Fixtures.swift`), so the tests run from
/// any working directory and scratch path. Bundle names are folder names with their extension
/// (`1_in_1_out_number_test.tiobundle`); `Tests/Fixtures/README.md` says what each bundle computes.
public enum Fixtures {
    /// The repository's root folder.
    ///
    /// Links resolved first: the Tools package compiles these files through its link
    /// `Tools/Tests/TestSupport`, so `#filePath` may name the link.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `path` (relative to the repository root) as an absolute URL.
    public static func repositoryURL(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent(path)
    }

    /// `Tests/Fixtures/Bundles`, relative to the repository root: the tool's tests run in the root and
    /// name bundles by this path, so that paths in its output are short and predictable.
    public static let bundlesPath = "Tests/Fixtures/Bundles"

    /// `Tests/Fixtures/TensorFlowBundles`, relative to the repository root.
    public static let tensorFlowBundlesPath = "Tests/Fixtures/TensorFlowBundles"

    /// `Tests/Fixtures/Bundles`: the LiteRT bundles.
    public static let bundlesDirectory = repositoryURL(bundlesPath)

    /// `Tests/Fixtures/TensorFlowBundles`: the TensorFlow (SavedModel) bundles.
    public static let tensorFlowBundlesDirectory = repositoryURL(tensorFlowBundlesPath)

    /// `Tests/Fixtures/Hostile`: the hostile regression corpus (``HostileCorpus``).
    public static let hostileDirectory = repositoryURL("Tests/Fixtures/Hostile")

    /// `Tests/Fixtures/Metadata`: real models that carry TFLite Model Metadata.
    public static let metadataDirectory = repositoryURL("Tests/Fixtures/Metadata")

    /// `Examples`: the example bundles, photos and training data.
    public static let examplesDirectory = repositoryURL("Examples")

    // MARK: Bundles by name

    /// The folder of the LiteRT fixture bundle called `name`.
    public static func url(_ name: String) -> URL {
        bundlesDirectory.appendingPathComponent(name)
    }

    /// The path of the LiteRT fixture bundle called `name`, relative to the repository root.
    public static func path(_ name: String) -> String {
        "\(bundlesPath)/\(name)"
    }

    /// The folder of the TensorFlow fixture bundle called `name`.
    public static func tensorFlowURL(_ name: String) -> URL {
        tensorFlowBundlesDirectory.appendingPathComponent(name)
    }

    /// The path of the TensorFlow fixture bundle called `name`, relative to the repository root.
    public static func tensorFlowPath(_ name: String) -> String {
        "\(tensorFlowBundlesPath)/\(name)"
    }

    /// Opens a LiteRT fixture bundle.
    public static func bundle(_ name: String) throws -> ModelBundle {
        try ModelBundle(at: url(name))
    }

    /// Opens a LiteRT fixture bundle and builds its model (not loaded yet).
    public static func model(_ name: String, configuration: ModelConfiguration = ModelConfiguration()) throws -> any Model {
        try bundle(name).makeModel(configuration: configuration)
    }

    /// Opens a TensorFlow fixture bundle and builds its model (not loaded yet).
    public static func tensorFlowModel(_ name: String) throws -> any Model {
        try ModelBundle(at: tensorFlowURL(name)).makeModel()
    }

    // MARK: The number model

    /// The bundle most tests use: `output = 10·input + 5`, so 2 → 25.
    public static let numberBundleName = "1_in_1_out_number_test.tiobundle"

    /// The number bundle's model id, as a repository knows it.
    public static let numberModelId = "1_in_1_out_number_test"

    // MARK: The lists

    /// Every LiteRT fixture bundle that opens and validates.
    public static let validBundles = [
        "scalar_test.tiobundle",
        "1_in_1_out_number_test.tiobundle",
        "1_in_1_out_number_int32_test.tiobundle",
        "1_in_1_out_number_int64_test.tiobundle",
        "1_in_1_out_number_test_no_backend.tiobundle",
        "1_in_1_out_number_test_no_modes.tiobundle",
        "1_in_1_out_string_test.tiobundle",
        "1_in_1_out_tensors_test.tiobundle",
        "1_in_1_out_vectors_test.tiobundle",
        "2_in_2_out_matrices_test.tiobundle",
        "2_in_2_out_vectors_test.tiobundle",
        "deprecated.tfbundle",
        "labeled_vectors_test.tiobundle",
        "output_types_test.tiobundle",
        "placeholder.tiobundle",
        "quantized_uint8_raw_test.tiobundle",
        "quantized_uint8_test.tiobundle",
        "reordered_inputs_test.tiobundle",
        "unnamed_inputs_test.tiobundle",
        "pixelbuffer_identity_test.tiobundle",
        "pixelbuffer_normalization_test.tiobundle",
        "image_bgr_bias_test.tiobundle",
        "image_gray_test.tiobundle",
        "image_uint8_test.tiobundle",
        "two_images_test.tiobundle",
        "image_asymmetric_test.tiobundle",
    ]

    /// The LiteRT fixture bundles with a `.tiobundle`/`.tfbundle` extension that must fail to open.
    public static let invalidBundles = [
        "invalid-model-bad-json.tiobundle",
        "invalid-model-incorrect-labels-file.tiobundle",
        "invalid-model-incorrect-model-file.tiobundle",
        "invalid-model-no-json.tiobundle",
    ]

    /// A complete, valid number bundle in a folder without the `.tiobundle` extension, which does not
    /// open for that reason alone.
    public static let bundleWithoutExtension = "invalid-model-no-ext"
}
