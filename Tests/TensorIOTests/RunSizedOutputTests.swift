import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// Outputs whose shape LiteRT decides, not the model file: the COCO SSD detector's four
/// `TFLite_Detection_PostProcess` outputs (`[]` in the file, `[1, 10, 4]`, `[1, 10]`, `[1, 10]`, `[1]` once
/// prepared), which memory sized from the file let the operator write past. Each path a run can take gives
/// exactly Python's arrays (`Tests/Fixtures/RunSizedOutputs/`, from `ai_edge_litert`'s Interpreter on the
/// same input tensor), from the bare file and from a bundle.
@Suite("Outputs sized by the runtime")
struct RunSizedOutputTests {
    static let fixtures = Fixtures.bundlesDirectory.deletingLastPathComponent().appendingPathComponent("RunSizedOutputs")
    static let detectors = [
        "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite",
        "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29_score_calibration.tflite",
    ]
    /// The detector called `name` in the test data.
    static func detectorURL(_ name: String) -> URL {
        TestData.url("task-models/tflite-support/vision/" + name)
    }
    /// Both detectors are in the test data.
    static let detectorsFetched = TestData.required(detectors.map { "task-models/tflite-support/vision/" + $0 })
    static let outputNames = (0..<4).map { $0 == 0 ? "TFLite_Detection_PostProcess" : "TFLite_Detection_PostProcess:\($0)" }

    struct ReferenceOutput: Decodable {
        var name: String
        var shape: [Int]
        var values: [Float]
    }

    /// Python's outputs for `detector` on ``input``.
    static func reference(_ detector: String) throws -> [ReferenceOutput] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("coco-ssd-reference.json"))
        let all = try JSONDecoder().decode([String: [ReferenceOutput]].self, from: data)
        return try #require(all[detector])
    }

    /// The input tensor the reference was computed on: byte `i` is `(i × 31 + 7) mod 251`.
    static let input: InputValue = {
        let bytes: [UInt8] = (0..<(300 * 300 * 3)).map { (index: Int) -> UInt8 in UInt8((index * 31 + 7) % 251) }
        return InputValue.bytes(Data(bytes))
    }()

    /// A bundle in `parent` (a test's temporary folder) around a copy of `detector`: the input as raw uint8
    /// bytes, the outputs with `outputShape` (the shapes Python reports when `nil`).
    static func bundle(_ detector: String, in parent: URL, outputShape: (Int) -> [Int]? = { _ in nil }) throws -> ModelBundle {
        let folder = parent.appendingPathComponent("run-sized-\(UUID().uuidString).tiobundle")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: detectorURL(detector), to: folder.appendingPathComponent("model.tflite"))
        let reference = try reference(detector)
        let outputs = reference.enumerated().map { index, output in
            #"{"name": "\#(output.name)", "type": "array", "dtype": "float32", "shape": \#(outputShape(index) ?? output.shape)}"#
        }
        let json = #"""
        {"name": "COCO SSD", "id": "coco-ssd", "version": "1", "details": "", "author": "", "license": "",
         "model": {"file": "model.tflite", "quantized": true},
         "inputs": [{"name": "normalized_input_image_tensor", "type": "array", "dtype": "uint8", "shape": [1, 300, 300, 3]}],
         "outputs": [\#(outputs.joined(separator: ", "))]}
        """#
        try Data(json.utf8).write(to: folder.appendingPathComponent("model.json"))
        return try ModelBundle(at: folder)
    }

    /// Checks that `outputs` are exactly Python's: the same names, shapes and values.
    static func expectPython(_ outputs: Outputs, _ detector: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try reference(detector)
        #expect(reference.map(\.name) == outputNames, sourceLocation: sourceLocation)
        for expected in reference {
            let output = try outputs[expected.name]
            #expect(try output.shape == expected.shape, "\(expected.name)", sourceLocation: sourceLocation)
            #expect(try output.values(as: Float.self) == expected.values, "\(expected.name)", sourceLocation: sourceLocation)
        }
    }

    @Test("a bare detector's outputs are Python's four arrays, at the shapes LiteRT prepares", detectorsFetched, arguments: detectors)
    func bareFile(_ detector: String) throws {
        let bundle = try ModelBundle(modelAt: Self.detectorURL(detector), registry: .everyTask)
        // The file gives no shape: the inferred layers take any shape (`[-1]`), never a made-up [1].
        #expect(bundle.outputs.map(\.shape) == [[-1], [-1], [-1], [-1]])
        let model = try bundle.makeModel()
        try Self.expectPython(model.run(Self.input), detector)
        try Self.expectPython(model.run(Self.input), detector)  // the same memory, a second time
        let tensors = try model.tensorDescriptions()
        #expect(tensors.outputs.map(\.shape) == [[1, 10, 4], [1, 10], [1, 10], [1]])
        #expect(tensors.outputs.map(\.fileShape) == [[], [], [], []])
    }

    static let batch: Batch = {
        let item: Batch.Item = ["normalized_input_image_tensor": input]
        return try! Batch([item, item])  // two items of the same keys
    }()

    @Test("from a bundle, sync and in a batch, the same arrays", detectorsFetched, arguments: detectors)
    func bundlePaths(_ detector: String) throws {
        try withTemporaryDirectory { folder in
            let model = try Self.bundle(detector, in: folder).makeModel()
            try Self.expectPython(model.run(Self.input), detector)
            let results = try model.run(Self.batch)
            #expect(results.count == 2)
            for outputs in results { try Self.expectPython(outputs, detector) }
        }
    }

    @Test("from a bundle, async and in an async batch, the same arrays", detectorsFetched, arguments: detectors)
    func asyncPaths(_ detector: String) async throws {
        try await withTemporaryDirectory { folder in
            let model = try Self.bundle(detector, in: folder).makeModel()
            try await Self.expectPython(model.run(Self.input), detector)
            let results = try await model.run(Self.batch)
            #expect(results.count == 2)
            for outputs in results { try Self.expectPython(outputs, detector) }
        }
    }

    @Test("the isolated load check loads and runs the detector", detectorsFetched, arguments: detectors)
    func isolatedLoadCheck(_ detector: String) throws {
        let report = try withTemporaryDirectory { folder in try Self.bundle(detector, in: folder).checkLoading(.isolated) }
        #expect(report.runDuration != nil)
    }

    @Test("-1 takes the size LiteRT gives; a declared size LiteRT does not give is refused at load, naming both shapes", detectorsFetched)
    func declaredShapes() throws {
        let detector = Self.detectors[0]
        try withTemporaryDirectory { folder in
            let open = try Self.bundle(detector, in: folder) { (index: Int) -> [Int]? in index == 0 ? [1, -1, 4] : nil }.makeModel()
            try Self.expectPython(open.run(Self.input), detector)
            let wrong = try Self.bundle(detector, in: folder) { (index: Int) -> [Int]? in index == 0 ? [1, 10, 5] : nil }.makeModel()
            let error = try #require(throws: TensorIOError.self) { try wrong.run(Self.input) }
            #expect(error.code == .layerMismatch)
            #expect(error.location == "layer \"TFLite_Detection_PostProcess\"")
            #expect(error.message.contains("[1, 10, 5]"))
            #expect(error.message.contains("[1, 10, 4]"))
            // The old inference's [1]: one number where the model writes 40.
            let one = try Self.bundle(detector, in: folder) { (index: Int) -> [Int]? in index == 0 ? [1] : nil }.makeModel()
            #expect(throws: TensorIOError.self) { try one.run(Self.input) }
        }
    }

    @Test("an output LiteRT sizes only while running is refused at load, named, instead of failing each run")
    func outputSizedWhileRunning() throws {
        let url = Self.fixtures.appendingPathComponent("where.tflite")
        let model = try ModelBundle(modelAt: url, registry: .everyTask).makeModel()
        let error = try #require(throws: TensorIOError.self) { try model.run([0.1, 0.9, 0.2, 0.7, 0.6, 0, 0, 1] as [Float]) }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("\"indices\""), "\(error.message)")
        #expect(error.message.contains("where.tflite"))
    }
}

/// What a run reads when the shape LiteRT reports after it is not the one the output was bound with
/// (``TensorBinding/atRunShape(_:capacity:tensorName:fileName:)``): LiteRT 2.3.0 never changes a prepared
/// shape between runs of a runner whose inputs keep theirs, so these checks are exercised directly.
@Suite("Output shapes after a run")
struct RunShapeCheckTests {
    static func binding(declared: [Int], bound: [Int]) -> TensorBinding {
        TensorBinding(
            layer: LayerDescription(name: "boxes", shape: declared, declaredDataType: .float32, kind: .array(quantization: nil)),
            dataType: .float32, shape: bound, quantizer: nil, dequantizer: nil
        )
    }

    @Test("the same shape reads through the binding as it is")
    func sameShape() throws {
        let binding = Self.binding(declared: [1, -1, 4], bound: [1, 10, 4])
        #expect(try binding.atRunShape([1, 10, 4], capacity: 160, tensorName: "t", fileName: "m.tflite") === binding)
    }

    @Test("a new shape that fits the memory and model.json's -1 is read at that shape")
    func newShapeFits() throws {
        let binding = Self.binding(declared: [1, -1, 4], bound: [1, 10, 4])
        let current = try binding.atRunShape([1, 7, 4], capacity: 160, tensorName: "t", fileName: "m.tflite")
        #expect(current.shape == [1, 7, 4])
        #expect(current.elementCount == 28)
    }

    @Test("a shape that disagrees with model.json is an error naming the output, both shapes and the file")
    func disagreesWithModelJSON() throws {
        let binding = Self.binding(declared: [1, 10, 4], bound: [1, 10, 4])
        let error = try #require(throws: TensorIOError.self) {
            try binding.atRunShape([1, 5, 4], capacity: 160, tensorName: "TFLite_Detection_PostProcess", fileName: "detect.tflite")
        }
        #expect(error.code == .layerMismatch)
        #expect(error.location == "layer \"boxes\"")
        for part in ["detect.tflite", "[1, 10, 4]", "[1, 5, 4]", "TFLite_Detection_PostProcess"] {
            #expect(error.message.contains(part), "\(error.message)")
        }
    }

    @Test("an output's [-1] takes any shape; an input's [-1] stays a batch of single numbers")
    func minusOneOnEachSide() {
        let layer = LayerDescription(name: "x", shape: [-1], declaredDataType: .float32, kind: .array(quantization: nil))
        let tensor = TensorFacts(name: "t", dataType: .float32, typeName: "float32", shape: [1, 4], quantization: nil)
        #expect(LayerTensorCheck.problems(layer: layer, tensor: tensor, quantizedModel: nil, isInput: false).isEmpty)
        let input = LayerTensorCheck.problems(layer: layer, tensor: tensor, quantizedModel: nil, isInput: true)
        #expect(input.map(\.kind) == [.elementCount])
    }

    @Test("memory for a shape LiteRT prepares is bounded by maximumElementsPerTensor, overflow-checked", arguments: [
        [1, 10, 4], [Int.max, 2], [1, -1, 4],
    ])
    func preparedShapeLimit(_ shape: [Int]) throws {
        let limits = ModelLimits(maximumElementsPerTensor: 39)
        let error = try #require(throws: TensorIOError.self) {
            try TensorSlot.byteCount(of: shape, elementSize: 4, limits: limits, what: "output \"boxes\"")
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("output \"boxes\"") && error.message.contains("39"))
        #expect(try TensorSlot.byteCount(of: [1, 10, 4], elementSize: 4, limits: ModelLimits(maximumElementsPerTensor: 40), what: "") == 160)
        #expect(try TensorSlot.byteCount(of: [], elementSize: 4, limits: limits, what: "") == 4)
    }

    @Test("a shape larger than the memory holding the output is never read", arguments: [[1, 11, 4], [Int.max, 2], [-1, 4]])
    func pastTheMemory(_ shape: [Int]) throws {
        let binding = Self.binding(declared: [-1], bound: [1, 10, 4])
        let error = try #require(throws: TensorIOError.self) {
            try binding.atRunShape(shape, capacity: 160, tensorName: "t", fileName: "m.tflite")
        }
        #expect(error.code == .runtimeFailure)
        #expect(error.message.contains("160 bytes"))
    }
}
