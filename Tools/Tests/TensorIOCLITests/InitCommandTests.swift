import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio init MODEL`, and bare models wherever a bundle is accepted, on real models with TFLite
/// metadata (Tests/Fixtures/Metadata: MediaPipe's, and classifiers whose metadata tflite-support wrote),
/// checked field by field against the metadata and by running against the Python reference.
@Suite("tensorio init and bare models")
struct InitCommandTests {
    static let fixtures = "Tests/Fixtures/Metadata"
    static let photos = ["cat", "china", "coffee", "flower", "grace_hopper", "retina"].map { "Examples/photos/\($0).jpg" }

    static func fixture(_ name: String) -> String { "\(fixtures)/\(name)" }

    /// A JSON file of the fixtures folder, parsed.
    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(fixture(name)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Runs `init` into a temporary folder and returns the written model.json, parsed, with the run.
    static func initialize(
        _ model: String, _ extra: [String] = [], in folder: URL
    ) async throws -> (result: ProcessResult, bundle: URL, modelJSON: [String: Any]) {
        let bundle = folder.appendingPathComponent("out.tiobundle")
        let result = try await CLI.run(["init", model, "--output", bundle.path] + extra)
        #expect(result.exited && result.status == 0, "\(result)")
        let data = try Data(contentsOf: bundle.appendingPathComponent("model.json"))
        return (result, bundle, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    static func layers(_ json: [String: Any], _ key: String) throws -> [[String: Any]] {
        try #require(json[key] as? [[String: Any]])
    }

    /// The input tensor metadata of the fixture's metadata dump (tflite-support's MetadataDisplayer).
    static func metadata(_ model: String) throws -> (inputs: [[String: Any]], outputs: [[String: Any]], root: [String: Any]) {
        let root = try json(model.replacingOccurrences(of: ".tflite", with: ".metadata.json"))
        let subgraph = try #require((root["subgraph_metadata"] as? [[String: Any]])?.first)
        return (
            try #require(subgraph["input_tensor_metadata"] as? [[String: Any]]),
            try #require(subgraph["output_tensor_metadata"] as? [[String: Any]]), root
        )
    }

    /// The mean and std of a tensor's NormalizationOptions in a metadata dump.
    static func normalization(_ tensor: [String: Any]) -> (mean: [Double], std: [Double])? {
        for unit in tensor["process_units"] as? [[String: Any]] ?? [] where unit["options_type"] as? String == "NormalizationOptions" {
            let options = unit["options"] as? [String: Any]
            if let mean = options?["mean"] as? [Double], let std = options?["std"] as? [Double] { return (mean, std) }
        }
        return nil
    }

    /// `normalize` as model.json holds it, back to per-colour (scale, bias).
    static func scaleAndBias(_ layer: [String: Any]) throws -> (scale: [Double], bias: [Double]) {
        let normalize = try #require(layer["normalize"] as? [String: Any])
        func channels(_ value: Any?) throws -> [Double] {
            if let number = value as? Double { return [number, number, number] }
            let object = try #require(value as? [String: Double])
            return [try #require(object["r"]), try #require(object["g"]), try #require(object["b"])]
        }
        return (try channels(normalize["scale"]), try channels(normalize["bias"]))
    }

    // MARK: - init, field by field

    @Test("image classifiers with metadata: image layer, normalization per colour, labels, dequantization", arguments: [
        "efficientnet-lite0-float32-metadata.tflite", "efficientnet-lite0-float32-perchannel-metadata.tflite",
        "efficientnet-lite0-uint8-metadata.tflite", "digits-float32-metadata.tflite",
    ])
    func classifierFields(_ model: String) async throws {
        try await withTemporaryDirectory { folder in
            let (result, bundle, json) = try await Self.initialize(Self.fixture(model), in: folder)
            let metadata = try Self.metadata(model)
            #expect(json["name"] as? String == metadata.root["name"] as? String)
            #expect(json["version"] as? String == (metadata.root["version"] as? String ?? "1"))
            let model = json["model"] as? [String: Any]
            #expect(model?["backend"] as? String == "tflite")
            #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(model?["file"] as? String ?? "-").path))

            let input = try #require(try Self.layers(json, "inputs").first)
            #expect(input["type"] as? String == "image")
            let properties = (metadata.inputs[0]["content"] as? [String: Any])?["content_properties"] as? [String: Any]
            #expect(input["format"] as? String == (properties?["color_space"] as? String == "GRAYSCALE" ? "GRAY" : "RGB"))
            if input["dtype"] as? String == "float32" {
                // (p - mean) / std per colour: scale 1/std, bias -mean/std.
                let (mean, std) = try #require(Self.normalization(metadata.inputs[0]))
                let (scale, bias) = try Self.scaleAndBias(input)
                for channel in 0..<3 {
                    let m = mean[mean.count == 1 ? 0 : channel], s = std[std.count == 1 ? 0 : channel]
                    #expect(abs(scale[channel] - 1 / s) < 1e-6 * max(1, abs(1 / s)), "scale \(channel)")
                    #expect(abs(bias[channel] + m / s) < 1e-5, "bias \(channel)")
                }
            } else {
                #expect(input["normalize"] == nil, "a uint8 input takes its bytes as they are")
            }

            let output = try #require(try Self.layers(json, "outputs").first)
            let labelsFile = try #require(output["labels"] as? String)
            let packed = (metadata.outputs[0]["associated_files"] as? [[String: Any]])?.first { $0["type"] as? String == "TENSOR_AXIS_LABELS" }
            #expect(labelsFile == packed?["name"] as? String, "the first labels file, in the metadata's default locale")
            let labels = try String(contentsOf: bundle.appendingPathComponent("assets/\(labelsFile)"), encoding: .utf8)
            let shape = try numbers(output["shape"]).reduce(1, *)
            #expect(Double(labels.split(separator: "\n").count) == shape)
            #expect((output["dequantize"] as? [String: String])?["from"] == (output["dtype"] as? String == "uint8" ? "tensor" : nil))
            #expect(result.stdout.contains("Inferred:\n"), "\(result)")
            #expect(result.stdout.hasSuffix("\n") && result.stdout.contains("Wrote "), "\(result)")

            let validate = try await CLI.run("validate", bundle.path, "--load")
            #expect(validate.status == 0, "\(validate)")
        }
    }

    @Test("the written bundles' top-1 on real photos is the Python reference's (ai_edge_litert, same preprocessing)", arguments: [
        "efficientnet-lite0-float32-metadata.tflite", "efficientnet-lite0-float32-perchannel-metadata.tflite",
        "efficientnet-lite0-uint8-metadata.tflite", "digits-float32-metadata.tflite",
    ])
    func topOneMatchesPython(_ model: String) async throws {
        let reference = try #require(((try Self.json("reference-top1.json"))["models"] as? [String: Any])?[model] as? [String: Any])
        let results = try #require(reference["results"] as? [String: [String: Any]])
        var paths = Self.photos
        if model.hasPrefix("digits") {
            paths = results.keys.filter { $0.hasPrefix("Examples/digits/") }.sorted()
            #expect(paths.count > 300)
        }
        try await withTemporaryDirectory { folder in
            let (_, bundle, _) = try await Self.initialize(Self.fixture(model), in: folder)
            let result = try await CLI.run(["classify", bundle.path, "--json", "--top", "1"] + paths)
            #expect(result.status == 0, "\(result)")
            let images = try #require(try jsonObject(result)["images"] as? [[String: Any]])
            #expect(images.count == paths.count)
            var disagreements: [String] = []
            for image in images {
                let path = try #require(image["path"] as? String)
                let top = ((image.first { $0.key != "path" }?.value as? [[String: Any]])?.first?["label"] as? String)
                let expected = (results[path]?["top1"] as? [String: Any])?["label"] as? String
                // A near-tie in Python (top-1 and top-2 within 0.02) may flip with another resizer.
                let margin = results[path]?["margin"] as? Double ?? 1
                if top != expected, margin > 0.02 { disagreements.append("\(path): \(top ?? "-") vs \(expected ?? "-")") }
            }
            #expect(disagreements.isEmpty, "\(disagreements)")
        }
    }

    @Test("labels in another locale with --locale; an unknown locale falls back to the first, said so")
    func locale() async throws {
        try await withTemporaryDirectory { folder in
            let model = Self.fixture("efficientnet-lite0-uint8-metadata.tflite")
            let (_, bundle, json) = try await Self.initialize(model, ["--locale", "xx"], in: folder)
            let output = try #require(try Self.layers(json, "outputs").first)
            #expect(output["labels"] as? String == "labels_xx.txt")
            let result = try await CLI.run("classify", bundle.path, Self.photos[0], "--top", "1")
            #expect(result.stdout.contains("EGYPTIAN CAT"), "\(result)")

            let other = folder.appendingPathComponent("other.tiobundle")
            let fallback = try await CLI.run("init", model, "--output", other.path, "--locale", "zz")
            #expect(fallback.status == 0)
            #expect(fallback.stdout.contains(#"no labels in locale "zz""#), "\(fallback)")
            #expect(fallback.stdout.contains("score calibration"), "read but not used is reported: \(fallback)")
        }
    }

    @Test("MediaPipe's models: one layer per tensor, named as LiteRT names them, images with their metadata's normalization", arguments: [
        "selfie_segmentation.tflite", "face_detection_short_range.tflite", "hand_landmark_lite.tflite",
    ])
    func mediaPipe(_ model: String) async throws {
        let tensors = try #require(((try Self.json("tensors.json"))["fixtures"] as? [String: Any])?[model] as? [String: Any])
        try await withTemporaryDirectory { folder in
            let (_, bundle, json) = try await Self.initialize(Self.fixture(model), in: folder)
            let metadata = try Self.metadata(model)
            let inputs = try Self.layers(json, "inputs"), outputs = try Self.layers(json, "outputs")
            let interpreterInputs = try #require(tensors["inputs"] as? [[String: Any]])
            let interpreterOutputs = try #require(tensors["outputs"] as? [[String: Any]])
            #expect(inputs.count == interpreterInputs.count)
            #expect(Set(outputs.compactMap { $0["name"] as? String }) == Set(interpreterOutputs.compactMap { $0["name"] as? String }))
            let image = try #require(inputs.first)
            #expect(image["type"] as? String == "image")
            if let (mean, std) = Self.normalization(metadata.inputs[0]) {
                let (scale, bias) = try Self.scaleAndBias(image)
                #expect(abs(scale[0] - 1 / std[0]) < 1e-6 && abs(bias[0] + mean[0] / std[0]) < 1e-5)
            }
            // The bundle runs: a benchmark feeds every input.
            let bench = try await CLI.run("bench", bundle.path, "--runs", "2", "--warmup", "1", "--json")
            #expect(bench.status == 0, "\(bench)")
        }
    }

    @Test("a model without metadata: layers from its tensors, --image, --normalize and --labels fill the gaps")
    func withoutMetadata() async throws {
        try await withTemporaryDirectory { folder in
            let model = "Examples/efficientnet-lite0-float32.tiobundle/model.tflite"
            let bare = folder.appendingPathComponent("bare.tiobundle")
            let plain = try await CLI.run("init", model, "--output", bare.path)
            #expect(plain.status == 0, "\(plain)")
            #expect(plain.stdout.contains("no TFLite metadata"), "\(plain)")
            #expect(plain.stdout.contains("--image image"), "an image-shaped input is pointed out: \(plain)")

            let (result, bundle, json) = try await Self.initialize(model, [
                "--image", "image", "--normalize", "[-1,1]",
                "--labels", "classification=Examples/efficientnet-lite0-float32.tiobundle/assets/labels.txt",
            ], in: folder)
            #expect(result.stdout.contains("normalize as --normalize says"), "\(result)")
            let input = try #require(try Self.layers(json, "inputs").first)
            #expect(input["type"] as? String == "image")
            #expect((input["normalize"] as? [String: String])?["standard"] == "[-1,1]")
            let classify = try await CLI.run("classify", bundle.path, "Examples/photos/coffee.jpg", "--top", "1")
            #expect(classify.stdout.contains("espresso"), "\(classify)")

            expectOneLineError(try await CLI.run("init", model, "--output", folder.appendingPathComponent("x.tiobundle").path, "--image", "picture"),
                               containing: [#"no input named "picture""#, "image"])
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.tiobundle").path))
        }
    }

    @Test("a SavedModel folder: layers from its serving_default signature")
    func savedModel() async throws {
        try await withTemporaryDirectory { folder in
            let (_, bundle, json) = try await Self.initialize(
                "Tests/Fixtures/TensorFlowBundles/tf_2_in_2_out_vectors_test.tiobundle/predict", in: folder
            )
            #expect((json["model"] as? [String: Any])?["backend"] as? String == "tensorflow")
            #expect(try Self.layers(json, "inputs").compactMap { $0["name"] as? String } == ["input1", "input2"])
            let run = try await CLI.run("run", bundle.path, "--input", "input1=[1,2,3,4]", "--input", "input2=[10,20,30,40]")
            expectSuccess(run, stdout: #"{"output1":240,"output2":64}"#)
        }
    }

    @Test("init refuses to replace anything, and names what it cannot read")
    func refusals() async throws {
        try await withTemporaryDirectory { folder in
            let existing = folder.appendingPathComponent("kept.tiobundle")
            try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
            let model = Self.fixture("selfie_segmentation.tflite")
            expectOneLineError(try await CLI.run("init", model, "--output", existing.path), containing: ["already exists"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: existing.path).isEmpty)
            expectOneLineError(try await CLI.run("init", "nope.tflite"), containing: ["nope.tflite does not exist"])
            expectOneLineError(try await CLI.run("init", "Examples/photos"), containing: ["not a .tflite file or a SavedModel folder"])
            let notModel = folder.appendingPathComponent("fake.tflite")
            try Data("not a model at all".utf8).write(to: notModel)
            expectOneLineError(try await CLI.run("init", notModel.path, "--output", folder.appendingPathComponent("f.tiobundle").path),
                               containing: ["fake.tflite"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fake.tflite", "kept.tiobundle"],
                    "nothing half-written is left")
            expectUsageError(try await CLI.run("init", model, "--output", folder.appendingPathComponent("b.tiobundle").path, "--normalize", "fast"),
                             containing: ["--normalize fast"])
        }
    }

    // MARK: - Bare models everywhere

    @Test("validate, inspect, run, classify, eval and bench take a bare .tflite file or SavedModel folder")
    func bareModelsEverywhere() async throws {
        let number = "Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle/model.tflite"
        let savedModel = "Tests/Fixtures/TensorFlowBundles/tf_1_in_1_out_number_test.tiobundle/predict"
        for model in [number, savedModel] {
            expectSuccess(try await CLI.run("run", model, "--input", "2"), stdout: #"{"output":25}"#)
            expectSuccess(try await CLI.run("validate", model), stdout: "\(model): valid")
            let inspect = try await CLI.run("inspect", model, "--json")
            #expect(inspect.status == 0, "\(inspect)")
            let bench = try await CLI.run("bench", model, "--runs", "2", "--warmup", "1", "--json")
            #expect(bench.status == 0, "\(bench)")
        }
        let classifier = Self.fixture("efficientnet-lite0-uint8-metadata.tflite")
        let classify = try await CLI.run("classify", classifier, "Examples/photos/coffee.jpg", "--top", "1")
        #expect(classify.stdout.contains("espresso"), "\(classify)")
        let eval = try await CLI.run("eval", Self.fixture("digits-float32-metadata.tflite"), "Examples/digits/test-images", "--json")
        #expect(eval.status == 0, "\(eval)")
        // The Python reference classified 353 of the 360 digits right (reference-top1.json): within one image.
        let reference = try #require((((try Self.json("reference-top1.json"))["models"] as? [String: Any])?["digits-float32-metadata.tflite"]
            as? [String: Any])?["digit_test_images"] as? [String: Any])
        let expected = try #require(reference["top1_accuracy"] as? Double)
        #expect(abs((try jsonObject(eval)["top1"] as? Double ?? 0) - expected) <= 1.0 / 360 + 1e-9, "\(eval)")
        let notModel = try await CLI.run("validate", "Examples/photos/cat.jpg")
        #expect(notModel.status == 1)
        #expect(notModel.stderrLines == ["Examples/photos/cat.jpg: the file does not have the TFLite identifier \"TFL3\" at offset 4 (found \"..JF\"); it is not a TFLite model or it is damaged"])
    }
}
