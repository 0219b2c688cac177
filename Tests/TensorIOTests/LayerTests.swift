import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// Layer lists and layer descriptions: the original's IO-list and layer-length cases, and labels files.
@Suite("Layers")
struct LayerTests {
    // MARK: - IO lists

    @Test("inputs and outputs keep their model.json index and name")
    func listsFromBundle() throws {
        let bundle = try Fixtures.bundle("2_in_2_out_vectors_test.tiobundle")
        #expect(bundle.inputs.count == 2)
        #expect(bundle.outputs.count == 2)
        #expect(bundle.inputs.names == ["input1", "input2"])
        #expect(bundle.outputs.names == ["output1", "output2"])
        #expect(bundle.inputs[0].name == "input1")
        #expect(bundle.inputs[1].name == "input2")
        #expect(bundle.inputs.index(forName: "input1") == 0)
        #expect(bundle.inputs.index(forName: "input2") == 1)
        #expect(bundle.outputs.index(forName: "output2") == 1)
        #expect(try bundle.inputs["input2"] == bundle.inputs[1])
        #expect(try bundle.inputs["input2"].shape == [1, 4])
        #expect(bundle.inputs.index(forName: "output1") == nil)
        // A name lookup that misses throws, naming the layers there are, as Outputs' does.
        let missing = #expect(throws: TensorIOError.self) { try bundle.inputs["nope"] }
        #expect(missing?.code == .layerMismatch)
        #expect(missing?.message.contains("\"input1\", \"input2\"") == true)
        #expect(missing?.location == "layer \"nope\"")
        #expect(bundle.inputs.map(\.name) == ["input1", "input2"])
    }

    @Test("the order is model.json's, not alphabetical")
    func orderKept() throws {
        let bundle = try Fixtures.bundle("output_types_test.tiobundle")
        #expect(bundle.outputs.names == ["as_int8", "as_int16", "as_bool", "as_float16", "as_float32"])
        for (index, name) in bundle.outputs.names.enumerated() {
            #expect(bundle.outputs.index(forName: name) == index)
            #expect(bundle.outputs[index].name == name)
        }
    }

    @Test("a list built by hand: positions, names, and the first of two equal names wins")
    func handMadeList() throws {
        let layers = [
            LayerDescription(name: "b", shape: [1], kind: .array()),
            LayerDescription(name: "a", shape: [2], kind: .array()),
            LayerDescription(name: "b", shape: [3], kind: .array()),
        ]
        let list = LayerList(layers)
        #expect(list.count == 3)
        #expect(list.names == ["b", "a", "b"])
        #expect(list.index(forName: "b") == 0)
        #expect(list.index(forName: "a") == 1)
        #expect(try list["b"].shape == [1])
        #expect(list[2].shape == [3])
        #expect(Array(list) == layers)

        let empty = LayerList([])
        #expect(empty.isEmpty)
        #expect(empty.names == [])
        #expect(empty.index(forName: "a") == nil)
    }

    // MARK: - Lengths

    @Test("layer length is the absolute product of the shape", arguments: [
        ([6, 7], 42), ([-1, 6, 7], 42), ([1], 1), ([4], 4), ([1, 4], 4), ([3, 3, 3], 27), ([-1, 1], 1),
    ])
    func elementCount(_ shape: [Int], _ expected: Int) {
        let layer = LayerDescription(name: "x", shape: shape, kind: .array())
        #expect(layer.elementCount == expected)
        #expect(layer.isBatched == (shape.first == -1))
    }

    @Test("fixture layers' lengths", arguments: [
        ("1_in_1_out_number_test.tiobundle", 1),
        ("1_in_1_out_vectors_test.tiobundle", 4),
        ("2_in_2_out_matrices_test.tiobundle", 16),
        ("1_in_1_out_tensors_test.tiobundle", 27),
    ])
    func fixtureLengths(_ name: String, _ expected: Int) throws {
        let bundle = try Fixtures.bundle(name)
        for layer in Array(bundle.inputs) + Array(bundle.outputs) {
            #expect(layer.elementCount == expected, "\(layer.name)")
            #expect(!layer.isBatched)
        }
    }

    @Test("the element type: dtype when given, else uint8 for quantized models and float32 otherwise")
    func dataTypeRule() {
        let plain = LayerDescription(name: "x", shape: [1], kind: .array())
        #expect(plain.dataType(quantizedModel: false) == .float32)
        #expect(plain.dataType(quantizedModel: true) == .uint8)
        let typed = LayerDescription(name: "x", shape: [1], declaredDataType: .int32, kind: .array())
        #expect(typed.dataType(quantizedModel: false) == .int32)
        #expect(typed.dataType(quantizedModel: true) == .int32)
    }

    @Test("data type sizes", arguments: [
        (DataType.uint8, 1, false), (.int8, 1, false), (.bool, 1, false), (.int16, 2, false), (.float16, 2, true),
        (.int32, 4, false), (.float32, 4, true), (.int64, 8, false), (.float64, 8, true),
    ])
    func dataTypeSizes(_ type: DataType, _ size: Int, _ floatingPoint: Bool) {
        #expect(type.byteCount == size)
        #expect(type.isFloatingPoint == floatingPoint)
        #expect(type.description == type.rawValue)
    }

    @Test("only image layers have an image volume")
    func imageVolume() {
        let image = LayerDescription(name: "i", shape: [224, 112, 3], kind: .image(format: .rgb))
        #expect(image.imageVolume == ImageVolume(height: 224, width: 112, channels: 3))
        let array = LayerDescription(name: "a", shape: [224, 112, 3], kind: .array())
        #expect(array.imageVolume == nil)
    }

    @Test("pixel formats list their colours in tensor order")
    func pixelFormatChannels() {
        #expect(ImageTensorFormat.rgb.channels == [.red, .green, .blue])
        #expect(ImageTensorFormat.bgr.channels == [.blue, .green, .red])
    }

    // MARK: - Labels

    @Test("labels are read in order; the trailing newline does not add an empty label")
    func labels() throws {
        let url = Fixtures.url("labeled_vectors_test.tiobundle")
        let text = try String(contentsOf: url.appendingPathComponent("assets/labels.txt"), encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the fixture's labels file ends with a newline on purpose")

        let bundle = try Fixtures.bundle("labeled_vectors_test.tiobundle")
        let output = bundle.outputs[0]
        #expect(output.labels?.file == "labels.txt")
        #expect(output.labels?.values == ["alpha", "beta", "gamma", "delta"])
        #expect(output.kind == .array(labels: LayerLabels(file: "labels.txt", values: ["alpha", "beta", "gamma", "delta"])))
        #expect(bundle.inputs[0].labels == nil)
        #expect(bundle.assetURL(named: "labels.txt") == url.appendingPathComponent("assets").appendingPathComponent("labels.txt"))
    }

    @Test("labels files with CRLF, without a final newline, or with both endings mixed", arguments: [
        "alpha\r\nbeta\r\ngamma\r\ndelta\r\n",
        "alpha\r\nbeta\r\ngamma\r\ndelta",
        "alpha\nbeta\ngamma\ndelta",
        "alpha\nbeta\r\ngamma\ndelta\r\n",
    ])
    func labelLineEndings(_ contents: String) throws {
        try withFixtureCopy("labeled_vectors_test.tiobundle") { url in
            try Data(contents.utf8).write(to: url.appendingPathComponent("assets/labels.txt"))
            let bundle = try ModelBundle(at: url)
            #expect(bundle.outputs[0].labels?.values == ["alpha", "beta", "gamma", "delta"])
        }
    }

    @Test("labels keep spaces and non-ASCII text")
    func labelText() throws {
        try withFixtureCopy("labeled_vectors_test.tiobundle") { url in
            try Data(" a cat \nçà et là\n日本\nemoji 🐈\n".utf8).write(to: url.appendingPathComponent("assets/labels.txt"))
            let bundle = try ModelBundle(at: url)
            #expect(bundle.outputs[0].labels?.values == [" a cat ", "çà et là", "日本", "emoji 🐈"])
        }
    }

    @Test("an output without labels has none")
    func noLabels() throws {
        let bundle = try Fixtures.bundle("1_in_1_out_vectors_test.tiobundle")
        #expect(bundle.outputs[0].labels == nil)
        #expect(bundle.outputs[0].kind == .array())
    }
}
