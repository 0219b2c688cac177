import Foundation
import Testing
import TensorIO
import TensorIOTestSupport

/// What the `model.json` reader puts in each ``LayerDescription/Kind``: the four `type`s on inputs and
/// on outputs, with each side's transform keys (`quantize` on inputs and `dequantize` on outputs land in
/// the same `quantization`; `normalize` and `denormalize` in the same `normalization`) and labels.
@Suite("layer kinds read from model.json")
struct LayerKindTests {
    /// Opens a bundle whose only input and only output are `input` and `output`, with the labels file
    /// `assets/labels.txt` (four labels) beside it.
    static func open(input: JSONObject, output: JSONObject) throws -> ModelBundle {
        var json = Fixtures.numberModelDocument()
        json["inputs"] = [input]
        json["outputs"] = [output]
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        return try withBundle(
            json: String(decoding: data, as: UTF8.self), files: ["assets/labels.txt": Data("a\nb\nc\nd\n".utf8)]
        ) { try ModelBundle(at: $0) }
    }

    @Test("array: quantize on the input, dequantize and labels on the output")
    func arrays() throws {
        let bundle = try Self.open(
            input: ["name": "in", "type": "array", "shape": [4], "quantize": ["standard": "[0,1]"]] as JSONObject,
            output: [
                "name": "out", "type": "array", "shape": [4], "dequantize": ["scale": 0.5, "bias": -1] as JSONObject,
                "labels": "labels.txt",
            ] as JSONObject
        )
        #expect(bundle.inputs[0].kind == .array(quantization: .standard(.zeroToOne), labels: nil))
        let labels = LayerLabels(file: "labels.txt", values: ["a", "b", "c", "d"])
        #expect(bundle.outputs[0].kind == .array(quantization: .scaleAndBias(scale: 0.5, bias: -1), labels: labels))
        #expect(bundle.outputs[0].labels == labels)
        #expect(bundle.inputs[0].labels == nil)
        #expect(bundle.inputs[0].imageVolume == nil)
    }

    @Test("array without transforms or labels")
    func plainArrays() throws {
        let bundle = try Self.open(
            input: ["name": "in", "type": "array", "shape": [-1, 4]] as JSONObject,
            output: ["name": "out", "type": "array", "shape": [4]] as JSONObject
        )
        #expect(bundle.inputs[0].kind == .array())
        #expect(bundle.inputs[0].isBatched)
        #expect(bundle.outputs[0].kind == .array(quantization: nil, labels: nil))
        #expect(bundle.outputs[0].labels == nil)
    }

    @Test("scalar: quantize on the input, dequantize on the output")
    func scalars() throws {
        let bundle = try Self.open(
            input: ["name": "in", "type": "scalar", "quantize": ["from": "tensor"]] as JSONObject,
            output: ["name": "out", "type": "scalar", "shape": [], "dequantize": ["standard": "[-1,1]"]] as JSONObject
        )
        #expect(bundle.inputs[0].kind == .scalar(quantization: .fromTensor))
        #expect(bundle.inputs[0].shape == [1])
        #expect(bundle.outputs[0].kind == .scalar(quantization: .standard(.minusOneToOne)))
        #expect(bundle.outputs[0].shape == [])
        #expect(bundle.outputs[0].labels == nil)
    }

    @Test("image: format and normalize on the input, format and denormalize on the output")
    func images() throws {
        let bundle = try Self.open(
            input: [
                "name": "in", "type": "image", "shape": [8, 6, 3], "format": "BGR",
                "normalize": ["standard": "[-1,1]"],
            ] as JSONObject,
            output: [
                "name": "out", "type": "image", "shape": [-1, 4, 2, 1], "format": "GRAY",
                "denormalize": ["scale": 2, "bias": 0.5] as JSONObject,
            ] as JSONObject
        )
        #expect(bundle.inputs[0].kind == .image(format: .bgr, normalization: .standard(.minusOneToOne)))
        #expect(bundle.inputs[0].imageVolume == ImageVolume(height: 8, width: 6, channels: 3))
        #expect(bundle.outputs[0].kind == .image(
            format: .gray, normalization: .scaleAndBias(scale: ChannelValues(all: 2), bias: ChannelValues(all: 0.5))
        ))
        #expect(bundle.outputs[0].imageVolume == ImageVolume(height: 4, width: 2, channels: 1))
        #expect(bundle.outputs[0].labels == nil)
    }

    @Test("image without normalization")
    func plainImages() throws {
        let bundle = try Self.open(
            input: ["name": "in", "type": "image", "shape": [8, 6, 3], "format": "RGB"] as JSONObject,
            output: ["name": "out", "type": "image", "shape": [8, 6, 3], "format": "rgb"] as JSONObject
        )
        #expect(bundle.inputs[0].kind == .image(format: .rgb, normalization: nil))
        #expect(bundle.outputs[0].kind == .image(format: .rgb))
    }

    @Test("string: raw bytes on both sides, with the declared dtype")
    func strings() throws {
        let bundle = try Self.open(
            input: ["name": "in", "type": "string", "shape": [16], "dtype": "uint8"] as JSONObject,
            output: ["name": "out", "type": "string", "shape": [4], "dtype": "float32"] as JSONObject
        )
        #expect(bundle.inputs[0].kind == .bytes)
        #expect(bundle.inputs[0].declaredDataType == .uint8)
        #expect(bundle.outputs[0].kind == .bytes)
        #expect(bundle.outputs[0].declaredDataType == .float32)
        #expect(bundle.outputs[0].imageVolume == nil)
        #expect(bundle.outputs[0].labels == nil)
    }

    @Test("a layer built by hand: labels only on arrays, an image volume only on images")
    func handMade() {
        let labels = LayerLabels(file: "l.txt", values: ["x", "y"])
        let array = LayerDescription(name: "a", shape: [2], kind: .array(labels: labels))
        #expect(array.labels == labels)
        #expect(array.imageVolume == nil)
        #expect(array.declaredDataType == nil)
        let image = LayerDescription(name: "i", shape: [2, 3, 1], declaredDataType: .uint8, kind: .image(format: .gray))
        #expect(image.labels == nil)
        #expect(image.imageVolume == ImageVolume(height: 2, width: 3, channels: 1))
        #expect(image.dataType(quantizedModel: false) == .uint8)
        #expect(LayerDescription(name: "s", shape: [1], kind: .scalar()).labels == nil)
        #expect(LayerDescription(name: "b", shape: [3], kind: .bytes).elementCount == 3)
        #expect(array != LayerDescription(name: "a", shape: [2], kind: .array()))
    }
}
