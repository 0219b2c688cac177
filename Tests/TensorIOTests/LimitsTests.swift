import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Sizes declared by `model.json` and the bundle's files are overflow-checked and bounded by
/// ``ModelLimits``; nothing a bundle says can trap, block, or allocate without bound.
@Suite("Limits")
struct LimitsTests {
    /// A one-input, one-output array model.json around the given layer shapes.
    static func modelJSON(input: String, output: String = "[1]", labels: String? = nil) -> String {
        """
        {"name": "n", "details": "d", "id": "i", "version": "1", "author": "a", "license": "l",
         "model": {"file": "model.tflite", "quantized": false},
         "inputs": [{"name": "input", "type": "array", "shape": \(input)}],
         "outputs": [{"name": "output", "type": "array", "shape": \(output)\(labels.map { ", \"labels\": \"\($0)\"" } ?? "")}]}
        """
    }

    @Test("a shape whose product overflows Int is an issue at its path, not a trap",
          arguments: ["[3037000500, 3037000500]", "[-1, 3037000500, 3037000500]", "[999999999999, 999999999999, 999999999999]"])
    func overflowingShape(_ shape: String) throws {
        let issues = ModelBundleValidator.issues(inModelJSON: Data(Self.modelJSON(input: shape).utf8))
        #expect(issues.map(\.path) == ["inputs[0].shape"])
        #expect(issues.first?.message.contains("ModelLimits.maximumElementsPerTensor") == true, "\(issues)")
    }

    @Test("a labelled output with an overflowing shape is an issue, not a trap while counting labels")
    func overflowingLabelledOutput() throws {
        let json = Self.modelJSON(input: "[1]", output: "[3037000500, 3037000500]", labels: "labels.txt")
        try withBundle(json: json, files: ["assets/labels.txt": Data("a\nb\n".utf8)]) { bundle in
            let issues = ModelBundleValidator(bundleAt: bundle).issues()
            #expect(issues.map(\.path) == ["outputs[0].shape"], "\(issues)")
        }
    }

    @Test("the element limit is settable: a shape past a lowered limit is refused, under it accepted")
    func settableElementLimit() {
        let json = Data(Self.modelJSON(input: "[1000, 1000]").utf8)
        #expect(ModelBundleValidator.issues(inModelJSON: json) == [])
        let lowered = ModelBundleValidator.issues(inModelJSON: json, limits: ModelLimits(maximumElementsPerTensor: 999_999))
        #expect(lowered.map(\.path) == ["inputs[0].shape"])
        #expect(lowered.first?.message.contains("more than 999999 elements") == true, "\(lowered)")
    }

    @Test("an image layer of 100000 × 100000 pixels is refused by validation, naming the limit")
    func hugeImageLayer() throws {
        let json = """
            {"name": "n", "details": "d", "id": "i", "version": "1", "author": "a", "license": "l",
             "model": {"file": "model.tflite", "quantized": false},
             "inputs": [{"name": "image", "type": "image", "shape": [100000, 100000, 3], "format": "RGB"}],
             "outputs": [{"name": "output", "type": "array", "shape": [1]}]}
            """
        let issues = ModelBundleValidator.issues(inModelJSON: Data(json.utf8))
        #expect(issues.map(\.path) == ["inputs[0].shape"])
        #expect(issues.first?.message.contains("100000×100000 pixels, more than the limit of 67108864 (ModelLimits.maximumImageLayerPixels)") == true, "\(issues)")
    }

    @Test("an image layer larger than the model's tensor fails at load, before the image is scaled to it")
    func imageLayerCheckedBeforeImageWork() throws {
        // 8000 × 8000 is inside the pixel limit, but the model's tensor is 6 × 4: scaling a photo to
        // 8000 × 8000 first would cost 256 MB for nothing.
        try withFixtureCopy("image_uint8_test.tiobundle", edit: { json in
            var inputs = try #require(json["inputs"] as? [JSONObject])
            inputs[0]["shape"] = [8000, 8000, 3]
            json["inputs"] = inputs
        }) { url in
            let model = try ModelBundle(at: url).makeModel()
            let image = try PixelBuffer(width: 16, height: 16, format: .rgb)
            let error = #expect(throws: TensorIOError.self) { try model.run(image) }
            #expect(error?.code == .layerMismatch)
            #expect(error?.location == "layer \"input\"")
        }
    }

    @Test("more than 16 dimensions is an issue")
    func rankLimit() {
        let shape = "[" + Array(repeating: "1", count: 17).joined(separator: ",") + "]"
        let issues = ModelBundleValidator.issues(inModelJSON: Data(Self.modelJSON(input: shape).utf8))
        #expect(issues.first?.message.contains("at most 16") == true, "\(issues)")
    }

    @Test("a hand-built layer whose shape overflows counts Int.max elements instead of trapping")
    func saturatedElementCount() {
        let layer = LayerDescription(name: "x", shape: [3_037_000_500, 3_037_000_500], kind: .array())
        #expect(layer.elementCount == Int.max)
        #expect(LayerDescription(name: "y", shape: [-1, 6, 7], kind: .array()).elementCount == 42)
    }

    @Test("a model.json past ModelLimits.maximumModelJSONBytes is refused before it is parsed")
    func modelJSONSize() throws {
        let json = Self.modelJSON(input: "[1]")
        try withBundle(json: json) { bundle in
            let issues = ModelBundleValidator(bundleAt: bundle, limits: ModelLimits(maximumModelJSONBytes: 64)).issues()
            #expect(issues.count == 1)
            #expect(issues.first?.message.contains("model.json has \(json.utf8.count) bytes, more than the limit of 64 (ModelLimits.maximumModelJSONBytes)") == true, "\(issues)")
        }
    }

    @Test("a labels file past ModelLimits.maximumLabelsFileBytes is an issue at the output's labels")
    func labelsFileSize() throws {
        let json = Self.modelJSON(input: "[1]", output: "[2]", labels: "labels.txt")
        try withBundle(json: json, files: ["assets/labels.txt": Data("a\nb\n".utf8)]) { bundle in
            #expect(ModelBundleValidator(bundleAt: bundle).issues() == [])
            let issues = ModelBundleValidator(bundleAt: bundle, limits: ModelLimits(maximumLabelsFileBytes: 2)).issues()
            #expect(issues.map(\.path) == ["outputs[0].labels"])
            #expect(issues.first?.message.contains("ModelLimits.maximumLabelsFileBytes") == true, "\(issues)")
        }
    }

    @Test("a model file past ModelLimits.maximumModelFileBytes is an issue at model.file")
    func modelFileSize() throws {
        try withBundle(json: Self.modelJSON(input: "[1]")) { bundle in
            let issues = ModelBundleValidator(bundleAt: bundle, limits: ModelLimits(maximumModelFileBytes: 100)).issues()
            #expect(issues.map(\.path) == ["model.file"])
            #expect(issues.first?.message.contains("more than the limit of 100 (ModelLimits.maximumModelFileBytes)") == true, "\(issues)")
        }
    }

    @Test("a FIFO as model.file, model.json or a labels file is refused at once instead of blocking")
    func fifos() throws {
        try withBundle(json: Self.modelJSON(input: "[1]"), includeModelFile: false) { bundle in
            #expect(mkfifo(bundle.appendingPathComponent("model.tflite").path, 0o600) == 0)
            let issues = ModelBundleValidator(bundleAt: bundle).issues()
            #expect(issues.map(\.path) == ["model.file"])
            #expect(issues.first?.message == "\"model.tflite\" is a FIFO, not a regular file or folder")
        }
        let labelled = Self.modelJSON(input: "[1]", output: "[2]", labels: "labels.txt")
        try withBundle(json: labelled, files: ["assets/.keep": Data()]) { bundle in
            #expect(mkfifo(bundle.appendingPathComponent("assets/labels.txt").path, 0o600) == 0)
            let issues = ModelBundleValidator(bundleAt: bundle).issues()
            #expect(issues.map(\.path) == ["outputs[0].labels"])
            #expect(issues.first?.message.contains("is a FIFO, not a regular file") == true, "\(issues)")
        }
        try withBundle(json: "{}") { bundle in
            let json = bundle.appendingPathComponent("model.json")
            try FileManager.default.removeItem(at: json)
            #expect(mkfifo(json.path, 0o600) == 0)
            let issues = ModelBundleValidator(bundleAt: bundle).issues()
            #expect(issues.first?.message == "model.json is a FIFO, not a regular file", "\(issues)")
        }
    }

    @Test("JSON nested thousands of levels deep is a syntax issue, not a stack overflow")
    func deepJSON() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let issues = ModelBundleValidator.issues(inModelJSON: Data(deep.utf8))
        #expect(issues.count == 1)
        #expect(issues.first?.path == "model.json")
    }
}
