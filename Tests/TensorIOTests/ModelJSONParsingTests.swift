import Foundation
import Testing
@_spi(Internal) @testable import TensorIO
import TensorIOTestSupport

/// The original's JSON-parsing suite (`TIOModelJSONParsingTests`), plus every field of `model.json`, the
/// schema's refusals and the JSON paths in the messages. Each case writes a bundle holding the JSON and
/// the number model's file, and opens it through the public API.
@Suite("model.json parsing")
struct ModelJSONParsingTests {
    // MARK: - Helpers

    /// A document whose only input is an image layer with `extra` fields, and whose only output is an
    /// image layer with `outputExtra` fields.
    static func imageDocument(input extra: JSONObject = [:], output outputExtra: JSONObject = [:]) -> JSONObject {
        var document = Fixtures.numberModelDocument()
        var input: JSONObject = ["name": "image", "type": "image", "shape": [224, 224, 3], "format": "RGB"]
        input.merge(extra) { _, new in new }
        var output: JSONObject = ["name": "picture", "type": "image", "shape": [224, 224, 3], "format": "RGB"]
        output.merge(outputExtra) { _, new in new }
        document["inputs"] = [input]
        document["outputs"] = [output]
        return document
    }

    /// Opens a bundle holding `json`.
    static func open(_ json: JSONObject) throws -> ModelBundle {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        return try withBundle(json: String(decoding: data, as: UTF8.self)) { try ModelBundle(at: $0) }
    }

    /// The error opening a bundle holding `json` throws; records a failure when it opens.
    static func openingError(
        _ json: JSONObject, sourceLocation: SourceLocation = #_sourceLocation
    ) -> TensorIOError? {
        let error = #expect(throws: TensorIOError.self, sourceLocation: sourceLocation) { try open(json) }
        if let error {
            #expect(error.code == .invalidBundle, sourceLocation: sourceLocation)
        }
        return error
    }

    /// The paths of the issues opening `json` reports.
    static func issuePaths(_ json: JSONObject, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        openingError(json, sourceLocation: sourceLocation)?.issues.map(\.path) ?? []
    }

    /// The quantizer a parsed `quantize` entry describes (`from: tensor` needs the tensor, so it is nil).
    static func quantizer(_ spec: QuantizationSpec) -> Quantizer? {
        switch spec {
        case .standard(let range): return Quantizer(standard: range)
        case .scaleAndBias(let scale, let bias): return Quantizer(scale: scale, bias: bias)
        case .fromTensor: return nil
        }
    }

    /// The dequantizer a parsed `dequantize` entry describes.
    static func dequantizer(_ spec: QuantizationSpec) -> Dequantizer? {
        switch spec {
        case .standard(let range): return Dequantizer(standard: range)
        case .scaleAndBias(let scale, let bias): return Dequantizer(scale: scale, bias: bias)
        case .fromTensor: return nil
        }
    }

    // MARK: - Pixel normalizer (original cases)

    struct NormalizerCase: Sendable, CustomTestStringConvertible {
        var standard: String
        var expectations: [(pixel: UInt8, value: Float)]
        var testDescription: String { standard }
    }

    @Test("normalize standard ranges", arguments: [
        NormalizerCase(standard: "[0,1]", expectations: [(0, 0), (127, 0.5), (255, 1)]),
        NormalizerCase(standard: "[-1,1]", expectations: [(0, -1), (127, 0), (255, 1)]),
    ])
    func normalizerStandard(_ testCase: NormalizerCase) throws {
        let bundle = try Self.open(Self.imageDocument(input: ["normalize": ["standard": testCase.standard]]))
        let spec = try #require(bundle.inputs[0].normalization)
        let range = try #require(StandardRange(rawValue: testCase.standard))
        #expect(spec == .standard(range))
        let normalizer = PixelNormalizer(spec)
        for (pixel, value) in testCase.expectations {
            for channel in ColorChannel.allCases {
                #expect(abs(normalizer(pixel, channel: channel) - value) < 0.01, "\(pixel) \(channel)")
            }
        }
    }

    @Test("normalize with an unknown standard range is an error")
    func normalizerUnknownStandard() {
        let error = Self.openingError(Self.imageDocument(input: ["normalize": ["standard": "[-10, 10]"]]))
        #expect(error?.issues == [BundleIssue(
            path: "inputs[0].normalize.standard", message: #""[-10, 10]" is not one of "[0,1]", "[-1,1]""#
        )])
    }

    @Test("normalize with scale 1/255 and a bias per channel")
    func normalizerScaleAndBias() throws {
        let bundle = try Self.open(Self.imageDocument(input: [
            "normalize": ["scale": 1.0 / 255.0, "bias": ["r": 0.1, "g": 0.2, "b": 0.3]] as JSONObject,
        ]))
        let spec = try #require(bundle.inputs[0].normalization)
        #expect(spec == .scaleAndBias(scale: ChannelValues(all: Float(1.0 / 255.0)), bias: ChannelValues(red: 0.1, green: 0.2, blue: 0.3)))
        let normalizer = PixelNormalizer(spec)
        let biases: [(ColorChannel, Float)] = [(.red, 0.1), (.green, 0.2), (.blue, 0.3)]
        for (channel, bias) in biases {
            #expect(abs(normalizer(0, channel: channel) - bias) < 0.01)
            #expect(abs(normalizer(127, channel: channel) - (0.5 + bias)) < 0.01)
            #expect(abs(normalizer(255, channel: channel) - (1 + bias)) < 0.01)
        }
    }

    @Test("normalize with a scale per colour: each channel gets its own, as a per-channel std asks")
    func normalizerScalePerColour() throws {
        // (p - mean) / std per colour, with ImageNet's means and stds.
        let mean: [Float] = [123.675, 116.28, 103.53], std: [Float] = [58.395, 57.12, 57.375]
        let bundle = try Self.open(Self.imageDocument(input: [
            "normalize": [
                "scale": ["r": Double(1 / std[0]), "g": Double(1 / std[1]), "b": Double(1 / std[2])],
                "bias": ["r": Double(-mean[0] / std[0]), "g": Double(-mean[1] / std[1]), "b": Double(-mean[2] / std[2])],
            ] as JSONObject,
        ]))
        let normalizer = PixelNormalizer(try #require(bundle.inputs[0].normalization))
        for (index, channel) in [ColorChannel.red, .green, .blue].enumerated() {
            for pixel: UInt8 in [0, 100, 255] {
                #expect(abs(normalizer(pixel, channel: channel) - (Float(pixel) - mean[index]) / std[index]) < 1e-5)
            }
        }
        #expect(Self.issuePaths(Self.imageDocument(input: ["normalize": ["scale": ["r": 1, "alpha": 2]] as JSONObject]))
            == ["inputs[0].normalize.scale.alpha"])
        #expect(Self.issuePaths(Self.imageDocument(input: ["normalize": ["scale": "1/255"]]))
            == ["inputs[0].normalize.scale"])
    }

    @Test("normalize with only a scale or only a bias uses the defaults (scale 1, biases 0)")
    func normalizerDefaults() throws {
        let scaled = try Self.open(Self.imageDocument(input: ["normalize": ["scale": 0.5]]))
        #expect(scaled.inputs[0].normalization == .scaleAndBias(scale: 0.5, bias: ChannelValues()))
        let biased = try Self.open(Self.imageDocument(input: ["normalize": ["bias": ["g": 2]]]))
        #expect(biased.inputs[0].normalization == .scaleAndBias(scale: 1, bias: ChannelValues(green: 2)))
        let single = try Self.open(Self.imageDocument(input: ["normalize": ["bias": -1]]))
        #expect(single.inputs[0].normalization == .scaleAndBias(scale: 1, bias: ChannelValues(all: -1)))
    }

    // MARK: - Pixel denormalizer (original cases, epsilon 1)

    @Test("denormalize [0,1]: 0, 0.5, 1 → 0, 127, 255 within 1")
    func denormalizerZeroToOne() throws {
        let bundle = try Self.open(Self.imageDocument(output: ["denormalize": ["standard": "[0,1]"]]))
        let spec = try #require(bundle.outputs[0].normalization)
        #expect(spec == .standard(.zeroToOne))
        let denormalizer = PixelDenormalizer(spec)
        for channel in ColorChannel.allCases {
            #expect(denormalizer(0, channel: channel) == 0)
            #expect(abs(Int(denormalizer(0.5, channel: channel)) - 127) <= 1)
            #expect(denormalizer(1, channel: channel) == 255)
        }
    }

    @Test("denormalize [-1,1]: -1, 0, 1 → 0, 127, 255 within 1")
    func denormalizerMinusOneToOne() throws {
        let bundle = try Self.open(Self.imageDocument(output: ["denormalize": ["standard": "[-1,1]"]]))
        let spec = try #require(bundle.outputs[0].normalization)
        #expect(spec == .standard(.minusOneToOne))
        let denormalizer = PixelDenormalizer(spec)
        for channel in ColorChannel.allCases {
            #expect(denormalizer(-1, channel: channel) == 0)
            #expect(abs(Int(denormalizer(0, channel: channel)) - 127) <= 1)
            #expect(denormalizer(1, channel: channel) == 255)
        }
    }

    @Test("denormalize with scale 255 and a bias per channel")
    func denormalizerScaleAndBias() throws {
        let bundle = try Self.open(Self.imageDocument(output: [
            "denormalize": ["scale": 255, "bias": ["r": 0.1, "g": 0.2, "b": 0.3]] as JSONObject,
        ]))
        let spec = try #require(bundle.outputs[0].normalization)
        let denormalizer = PixelDenormalizer(spec)
        // (0 + bias) × 255 = 25.5, 51, 76.5
        #expect(abs(Int(denormalizer(0, channel: .red)) - 25) <= 1)
        #expect(abs(Int(denormalizer(0, channel: .green)) - 51) <= 1)
        #expect(abs(Int(denormalizer(0, channel: .blue)) - 76) <= 1)
    }

    @Test("denormalize with an unknown standard range is an error")
    func denormalizerUnknownStandard() {
        let paths = Self.issuePaths(Self.imageDocument(output: ["denormalize": ["standard": "[0,255]"]]))
        #expect(paths == ["outputs[0].denormalize.standard"])
    }

    @Test("an input image layer may not denormalize, an output image layer may not normalize")
    func normalizeOnTheWrongSide() {
        let paths = Self.issuePaths(Self.imageDocument(
            input: ["denormalize": ["standard": "[0,1]"]], output: ["normalize": ["standard": "[0,1]"]]
        ))
        #expect(paths == ["inputs[0].denormalize", "outputs[0].normalize"])
    }

    @Test("an input image layer's resize and scaling are read, and a run's configuration overrides them")
    func resizeAndScaling() throws {
        let bundle = try Self.open(Self.imageDocument(input: ["resize": "fit", "scaling": "Bilinear"]))
        let layer = bundle.inputs[0]
        #expect(layer.imageResizeMode == .aspectFit && layer.imageScalingFilter == .bilinear)
        let byLayer = try #require(ImageTarget(layer: layer, configuration: ModelConfiguration()))
        #expect(byLayer.resizeMode == .aspectFit && byLayer.scalingFilter == .bilinear && byLayer.decodeSize == nil)
        let overridden = try #require(ImageTarget(
            layer: layer, configuration: ModelConfiguration(imageResizeMode: .stretch, imageScalingFilter: .box)
        ))
        #expect(overridden.resizeMode == .stretch && overridden.scalingFilter == .box && overridden.decodeSize == ImageSize(width: 224, height: 224))
        let plain = try Self.open(Self.imageDocument()).inputs[0]
        #expect(plain.imageResizeMode == nil && plain.imageScalingFilter == nil)
        let defaults = try #require(ImageTarget(layer: plain, configuration: ModelConfiguration()))
        #expect(defaults.resizeMode == .aspectFill && defaults.scalingFilter == .box)
    }

    @Test("an unknown resize or scaling is an error at its path; output images take neither")
    func resizeAndScalingErrors() {
        let error = Self.openingError(Self.imageDocument(input: ["resize": "crop", "scaling": "lanczos"]))
        #expect(error?.issues.map(\.path) == ["inputs[0].resize", "inputs[0].scaling"])
        #expect(error?.issues.first?.message.contains("\"crop\" is not one of \"fill\", \"fit\", \"stretch\"") == true)
        #expect(Self.issuePaths(Self.imageDocument(output: ["scaling": "box"])) == ["outputs[0].scaling"])
    }

    // MARK: - Quantizer and dequantizer (original cases)

    @Test("quantize [0,1]: 0 → 0, 1 → 255, 0.5 → 127 within 1")
    func quantizerZeroToOne() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["standard": "[0,1]"]
        let spec = try #require(try Self.open(json).inputs[0].quantization)
        #expect(spec == .standard(.zeroToOne))
        let quantizer = try #require(Self.quantizer(spec))
        #expect(quantizer(0) == 0)
        #expect(quantizer(1) == 255)
        #expect(abs(Int(quantizer(0.5)) - 127) <= 1)
    }

    @Test("quantize [-1,1]: -1 → 0, 0 → 127 within 1, 1 → 255")
    func quantizerMinusOneToOne() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["standard": "[-1,1]"]
        let spec = try #require(try Self.open(json).inputs[0].quantization)
        #expect(spec == .standard(.minusOneToOne))
        let quantizer = try #require(Self.quantizer(spec))
        #expect(quantizer(-1) == 0)
        #expect(abs(Int(quantizer(0)) - 127) <= 1)
        #expect(quantizer(1) == 255)
    }

    @Test("quantize with scale and bias")
    func quantizerScaleAndBias() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["scale": 100, "bias": 0.5] as JSONObject
        let spec = try #require(try Self.open(json).inputs[0].quantization)
        #expect(spec == .scaleAndBias(scale: 100, bias: 0.5))
        // The bias is added before scaling: (1 + 0.5) × 100.
        let quantizer = try #require(Self.quantizer(spec))
        #expect(quantizer(1) == 150)
    }

    @Test("quantize with only a scale, only a bias, or neither is an error", arguments: [
        (["scale": 255], "inputs[0].quantize.bias"),
        (["bias": 1], "inputs[0].quantize.scale"),
        ([:], "inputs[0].quantize"),
    ] as [([String: Double], String)])
    func quantizerIncomplete(_ entry: [String: Double], _ expectedPath: String) {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = entry
        #expect(Self.issuePaths(json) == [expectedPath])
    }

    @Test("quantize with a scale that is not a number is an error")
    func quantizerScaleNotANumber() {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["scale": "255", "bias": 0] as JSONObject
        #expect(Self.issuePaths(json) == ["inputs[0].quantize.scale"])
    }

    @Test("quantize with an unknown standard range is an error")
    func quantizerUnknownStandard() {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["standard": "[-10, 10]"]
        let error = Self.openingError(json)
        #expect(error?.issues.map(\.path) == ["inputs[0].quantize.standard"])
    }

    @Test("dequantize [0,1]: 0 → 0, 255 → 1, 127 ≈ 0.5")
    func dequantizerZeroToOne() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "outputs[0].dequantize"] = ["standard": "[0,1]"]
        let spec = try #require(try Self.open(json).outputs[0].quantization)
        #expect(spec == .standard(.zeroToOne))
        let dequantizer = try #require(Self.dequantizer(spec))
        #expect(dequantizer(0) == 0)
        #expect(abs(dequantizer(255) - 1) < 1e-6)
        #expect(abs(dequantizer(127) - 0.5) < 0.01)
    }

    @Test("dequantize [-1,1]: 0 → -1, 255 → 1, 127 ≈ 0")
    func dequantizerMinusOneToOne() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "outputs[0].dequantize"] = ["standard": "[-1,1]"]
        let spec = try #require(try Self.open(json).outputs[0].quantization)
        let dequantizer = try #require(Self.dequantizer(spec))
        #expect(abs(dequantizer(0) + 1) < 1e-6)
        #expect(abs(dequantizer(255) - 1) < 1e-6)
        #expect(abs(dequantizer(127)) < 0.01)
    }

    @Test("dequantize with scale and bias")
    func dequantizerScaleAndBias() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "outputs[0].dequantize"] = ["scale": 0.5, "bias": -3] as JSONObject
        let spec = try #require(try Self.open(json).outputs[0].quantization)
        #expect(spec == .scaleAndBias(scale: 0.5, bias: -3))
        let dequantizer = try #require(Self.dequantizer(spec))
        #expect(dequantizer(10) == 2)
    }

    @Test("dequantize with only a scale is an error")
    func dequantizerScaleAlone() {
        var json = Fixtures.numberModelDocument()
        json[path: "outputs[0].dequantize"] = ["scale": 0.5]
        #expect(Self.issuePaths(json) == ["outputs[0].dequantize.bias"])
    }

    @Test("{\"from\": \"tensor\"} is read for quantize and dequantize")
    func fromTensor() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["from": "tensor"]
        json[path: "outputs[0].dequantize"] = ["from": "tensor"]
        let bundle = try Self.open(json)
        #expect(bundle.inputs[0].quantization == .fromTensor)
        #expect(bundle.outputs[0].quantization == .fromTensor)

        let fixture = try Fixtures.bundle("quantized_uint8_test.tiobundle")
        #expect(fixture.inputs[0].quantization == .fromTensor)
        #expect(fixture.outputs[0].quantization == .fromTensor)
    }

    @Test("{\"from\": anything but \"tensor\"} is an error")
    func fromSomethingElse() {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["from": "file"]
        #expect(Self.issuePaths(json) == ["inputs[0].quantize.from"])
    }

    @Test("quantize on an output and dequantize or labels on an input are unknown keys")
    func quantizeOnTheWrongSide() {
        var json = Fixtures.numberModelDocument()
        json[path: "outputs[0].quantize"] = ["standard": "[0,1]"]
        json[path: "inputs[0].dequantize"] = ["standard": "[0,1]"]
        json[path: "inputs[0].labels"] = "labels.txt"
        #expect(Self.issuePaths(json) == ["inputs[0].dequantize", "inputs[0].labels", "outputs[0].quantize"])
    }

    // MARK: - Pixel format and image volume (original cases)

    @Test("pixel format RGB and BGR are valid", arguments: [("RGB", ImageTensorFormat.rgb), ("BGR", .bgr), ("bgr", .bgr)])
    func pixelFormatValid(_ text: String, _ format: ImageTensorFormat) throws {
        let bundle = try Self.open(Self.imageDocument(input: ["format": text]))
        #expect(bundle.inputs[0].kind == .image(format: format))
    }

    @Test("a missing pixel format is an error")
    func pixelFormatMissing() {
        var json = Self.imageDocument()
        json[path: "inputs[0].format"] = nil
        let error = Self.openingError(json)
        #expect(error?.issues == [BundleIssue(path: "inputs[0].format", message: "required")])
    }

    @Test("pixel format CMYK is an error")
    func pixelFormatUnknown() {
        let error = Self.openingError(Self.imageDocument(input: ["format": "CMYK"]))
        #expect(error?.issues == [BundleIssue(path: "inputs[0].format", message: #""CMYK" is not one of "RGB", "BGR", "GRAY""#)])
    }

    @Test("image shape [224,224,3,1] is invalid", arguments: [
        [224, 224, 3, 1], [224, 224], [224, 224, 3, 1, 1], [0, 224, 3], [224, -1, 3],
    ])
    func imageVolumeInvalid(_ shape: [Int]) {
        #expect(Self.issuePaths(Self.imageDocument(input: ["shape": shape])) == ["inputs[0].shape"])
        #expect(ImageVolume(shape: shape) == nil)
    }

    @Test("image shape [200,100,3] is height 200, width 100, 3 channels", arguments: [
        [200, 100, 3], [-1, 200, 100, 3], [200, 100, 3, -1],
    ])
    func imageVolumeValid(_ shape: [Int]) throws {
        let bundle = try Self.open(Self.imageDocument(input: ["shape": shape]))
        #expect(bundle.inputs[0].imageVolume == ImageVolume(height: 200, width: 100, channels: 3))
        #expect(bundle.inputs[0].shape == shape)
    }

    // MARK: - Data types

    @Test("dtype names", arguments: [
        ("uint8", DataType.uint8), ("float32", .float32), ("int32", .int32), ("int64", .int64),
        ("int8", .int8), ("int16", .int16), ("float16", .float16), ("float64", .float64), ("bool", .bool),
        ("FLOAT32", .float32), ("UInt8", .uint8),
    ])
    func dataTypes(_ text: String, _ expected: DataType) throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].dtype"] = text
        json[path: "outputs[0].dtype"] = text
        let bundle = try Self.open(json)
        #expect(bundle.inputs[0].declaredDataType == expected)
        #expect(bundle.outputs[0].declaredDataType == expected)
    }

    @Test("no dtype: the type follows model.quantized")
    func dataTypeMissing() throws {
        let bundle = try Self.open(Fixtures.numberModelDocument())
        #expect(bundle.inputs[0].declaredDataType == nil)
        #expect(bundle.inputs[0].dataType(quantizedModel: false) == .float32)
        #expect(bundle.inputs[0].dataType(quantizedModel: true) == .uint8)
    }

    @Test("an unknown dtype is an error", arguments: ["complex64", "string", "float", ""])
    func dataTypeUnknown(_ text: String) {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].dtype"] = text
        #expect(Self.issuePaths(json) == ["inputs[0].dtype"])
    }

    @Test("string layers need a dtype")
    func stringLayerNeedsDataType() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].type"] = "string"
        #expect(Self.openingError(json)?.issues == [BundleIssue(path: "inputs[0].dtype", message: "required for string layers")])

        json[path: "inputs[0].dtype"] = "float32"
        let bundle = try Self.open(json)
        #expect(bundle.inputs[0].kind == .bytes)
        #expect(bundle.inputs[0].declaredDataType == .float32)
    }

    // MARK: - Layers

    @Test("layer types array, image, string and scalar", arguments: [
        ("array", LayerDescription.Kind.array()), ("image", .image(format: .rgb)), ("string", .bytes), ("scalar", .scalar()),
    ])
    func layerKinds(_ type: String, _ kind: LayerDescription.Kind) throws {
        let json = type == "image" ? Self.imageDocument() : {
            var json = Fixtures.numberModelDocument()
            json[path: "inputs[0].type"] = type
            json[path: "inputs[0].dtype"] = "float32"
            return json
        }()
        let layer = try Self.open(json).inputs[0]
        #expect(layer.kind == kind)
        #expect(layer.kindName == type)
    }

    @Test("an unknown layer type is an error")
    func layerKindUnknown() {
        var json = Fixtures.numberModelDocument()
        json[path: "outputs[0].type"] = "audio"
        let error = Self.openingError(json)
        #expect(error?.issues == [BundleIssue(
            path: "outputs[0].type", message: #""audio" is not one of "array", "image", "string", "scalar""#
        )])
    }

    @Test("array shapes", arguments: [[1], [4], [1, 4], [-1, 6, 7], [2, 3, 4, 5, 6]])
    func arrayShapes(_ shape: [Int]) throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].shape"] = shape
        let layer = try Self.open(json).inputs[0]
        #expect(layer.shape == shape)
        #expect(layer.isBatched == (shape.first == -1))
    }

    @Test("scalar shapes: left out ([1]), empty (rank 0), [1], [1, 1], or [-1] for a batch", arguments: [
        nil, [], [1], [1, 1], [-1],
    ] as [[Int]?])
    func scalarShapes(_ shape: [Int]?) throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].type"] = "scalar"
        json[path: "outputs[0].type"] = "scalar"
        json[path: "inputs[0].shape"] = shape
        json[path: "outputs[0].dequantize"] = ["standard": "[0,1]"]
        let bundle = try Self.open(json)
        #expect(bundle.inputs[0].kind == .scalar())
        #expect(bundle.outputs[0].kind == .scalar(quantization: .standard(.zeroToOne)))
        #expect(bundle.inputs[0].shape == shape ?? [1])
        #expect(bundle.inputs[0].elementCount == 1)
    }

    @Test("a scalar shape holding more than one number, or labels on a scalar, is refused", arguments: [
        ("inputs[0].shape", [2] as any Sendable, "inputs[0].shape"),
        ("inputs[0].shape", [1, 3] as [Int], "inputs[0].shape"),
        ("inputs[0].shape", [1, -1] as [Int], "inputs[0].shape[1]"),
        ("outputs[0].labels", "labels.txt", "outputs[0].labels"),
    ] as [(String, any Sendable, String)])
    func scalarShapesInvalid(_ path: String, _ value: any Sendable, _ expectedPath: String) {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].type"] = "scalar"
        json[path: "outputs[0].type"] = "scalar"
        json[path: path] = value
        #expect(Self.issuePaths(json) == [expectedPath])
    }

    @Test("invalid array shapes", arguments: [
        ([Int]() as any Sendable, "inputs[0].shape"),
        ([0] as [Int], "inputs[0].shape[0]"),
        ([2, -1] as [Int], "inputs[0].shape[1]"),
        ([-2] as [Int], "inputs[0].shape[0]"),
        ([1.5] as [Double], "inputs[0].shape[0]"),
        (["4"] as [String], "inputs[0].shape[0]"),
        (4, "inputs[0].shape"),
    ] as [(any Sendable, String)])
    func arrayShapesInvalid(_ shape: any Sendable, _ expectedPath: String) {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].shape"] = shape
        #expect(Self.issuePaths(json) == [expectedPath])
    }

    @Test("two layers with the same name is an error")
    func duplicateLayerNames() {
        var json = Fixtures.numberModelDocument()
        json["inputs"] = [
            ["name": "input", "type": "array", "shape": [1]] as JSONObject,
            ["name": "input", "type": "array", "shape": [1]] as JSONObject,
        ]
        let error = Self.openingError(json)
        #expect(error?.issues == [BundleIssue(path: "inputs[1].name", message: #""input" is already the name of inputs[0]"#)])
    }

    @Test("inputs and outputs may not be empty")
    func emptyLayerLists() {
        var json = Fixtures.numberModelDocument()
        json["inputs"] = [Any]()
        json["outputs"] = [Any]()
        #expect(Self.issuePaths(json) == ["inputs", "outputs"])
    }

    // MARK: - Every top-level field

    @Test("every field of model.json is read")
    func everyField() throws {
        var json = Fixtures.numberModelDocument()
        json["name"] = "A name"
        json["details"] = "Some details"
        json["id"] = "an-id"
        json["version"] = "2.0.1"
        json["author"] = "An author"
        json["license"] = "MIT"
        json["placeholder"] = false
        json["model"] = [
            "file": "model.tflite",
            "backend": "TFLite",
            "quantized": true,
            "modes": ["predict"],
            "type": "image.classification.imagenet",
            "class": "MyModel",
        ] as JSONObject
        json["options"] = [
            "device_position": "front",
            "output_format": "image",
            "extra": 3,
            "nested": ["flag": true] as JSONObject,
        ] as JSONObject

        let bundle = try Self.open(json)
        #expect(bundle.name == "A name")
        #expect(bundle.details == "Some details")
        #expect(bundle.identifier == "an-id")
        #expect(bundle.version == "2.0.1")
        #expect(bundle.author == "An author")
        #expect(bundle.license == "MIT")
        #expect(bundle.isPlaceholder == false)
        #expect(bundle.modelFile == ModelFileDescription(
            path: "model.tflite", backend: "tflite", isQuantized: true, modes: [.predict],
            type: "image.classification.imagenet", className: "MyModel"
        ))
        #expect(bundle.options.devicePosition == .front)
        #expect(bundle.options.outputFormat == "image")
        #expect(String(decoding: bundle.options.other, as: UTF8.self) == #"{"extra":3,"nested":{"flag":true}}"#)
        struct AppOptions: Decodable, Equatable { struct Nested: Decodable, Equatable { var flag: Bool }; var extra: Int; var nested: Nested }
        #expect(try JSONDecoder().decode(AppOptions.self, from: bundle.options.other) == AppOptions(extra: 3, nested: .init(flag: true)))
        #expect(bundle.modelFileURL?.lastPathComponent == "model.tflite")
        #expect(bundle.inputs.names == ["input"])
        #expect(bundle.outputs.names == ["output"])
        #expect(bundle.placeholders.isEmpty)
        #expect(bundle.trainingOperations == nil)
    }

    @Test("optional fields have their defaults when left out")
    func defaults() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "model.backend"] = nil
        json[path: "model.modes"] = nil
        let bundle = try Self.open(json)
        #expect(bundle.isPlaceholder == false)
        #expect(bundle.modelFile == ModelFileDescription(path: "model.tflite", backend: nil, isQuantized: false, modes: [.predict]))
        #expect(bundle.modelFile.type == nil)
        #expect(bundle.modelFile.className == nil)
        #expect(bundle.options == ModelOptions())
        #expect(bundle.options.devicePosition == nil)
        #expect(bundle.options.outputFormat == "")
        #expect(String(decoding: bundle.options.other, as: UTF8.self) == "{}")
    }

    @Test("options.device_position back, and an invalid one")
    func devicePosition() throws {
        var json = Fixtures.numberModelDocument()
        json["options"] = ["device_position": "back"]
        #expect(try Self.open(json).options.devicePosition == .back)
        json["options"] = ["device_position": "side"]
        #expect(Self.issuePaths(json) == ["options.device_position"])
        json["options"] = ["output_format": 1]
        #expect(Self.issuePaths(json) == ["options.output_format"])
    }

    @Test("a placeholder bundle is read with an empty model file")
    func placeholder() throws {
        var json = Fixtures.numberModelDocument()
        json["placeholder"] = true
        json[path: "model.file"] = ""
        let bundle = try withBundle(
            json: String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self),
            includeModelFile: false
        ) { try ModelBundle(at: $0) }
        #expect(bundle.isPlaceholder)
        #expect(bundle.modelFile.path == "")
        #expect(bundle.modelFileURL == nil)
    }

    @Test("an empty model file is an error unless the bundle is a placeholder")
    func emptyModelFile() {
        var json = Fixtures.numberModelDocument()
        json[path: "model.file"] = ""
        #expect(Self.issuePaths(json) == ["model.file"])
    }

    @Test("backend names are matched case-insensitively, unknown ones refused")
    func backends() throws {
        var json = Fixtures.numberModelDocument()
        json[path: "model.backend"] = "TensorFlow"
        #expect(try Self.open(json).modelFile.backend == "tensorflow")
        json[path: "model.backend"] = "caffe"
        let error = Self.openingError(json)
        #expect(error?.issues.map(\.path) == ["model.backend"])
        #expect(error?.issues.first?.message.contains("\"caffe\"") == true)
    }

    // MARK: - Modes

    @Test("modes: missing → predict; [] → none; listed ones kept", arguments: [
        (nil, Set<ModelMode>([.predict])),
        ([String](), Set<ModelMode>()),
        (["predict"], [.predict]),
        (["predict", "train"], [.predict, .train]),
        (["eval"], [.eval]),
    ] as [([String]?, Set<ModelMode>)])
    func modes(_ modes: [String]?, _ expected: Set<ModelMode>) throws {
        var json = Fixtures.numberModelDocument()
        json[path: "model.modes"] = modes
        #expect(try Self.open(json).modelFile.modes == expected)
    }

    @Test("an unknown mode is an error")
    func modeUnknown() {
        var json = Fixtures.numberModelDocument()
        json[path: "model.modes"] = ["predict", "fly"]
        let error = Self.openingError(json)
        #expect(error?.issues == [BundleIssue(path: "model.modes[1]", message: #""fly" is not one of "predict", "train", "eval""#)])
        json[path: "model.modes"] = "predict"
        #expect(Self.issuePaths(json) == ["model.modes"])
    }

    // MARK: - Errors and their paths

    @Test("an error names the JSON path: inputs[1].quantize.standard")
    func errorPath() throws {
        var json = Fixtures.numberModelDocument()
        json["inputs"] = [
            ["name": "first", "type": "array", "shape": [1]] as JSONObject,
            ["name": "second", "type": "array", "shape": [4], "quantize": ["standard": "[-10,10]"]] as JSONObject,
        ]
        let error = try #require(Self.openingError(json))
        #expect(error.issues.count == 1)
        let issue = try #require(error.issues.first)
        #expect(issue.path == "inputs[1].quantize.standard")
        #expect(issue.description == #"inputs[1].quantize.standard: "[-10,10]" is not one of "[0,1]", "[-1,1]""#)
        #expect(error.description == issue.description)
    }

    @Test("a required field that is missing is named", arguments: [
        "model", "inputs", "outputs", "model.file", "inputs[0].name", "inputs[0].type", "inputs[0].shape",
        "outputs[0].name", "outputs[0].type", "outputs[0].shape",
    ])
    func requiredField(_ path: String) {
        var json = Fixtures.numberModelDocument()
        json[path: path] = nil
        let error = Self.openingError(json)
        #expect(error?.issues == [BundleIssue(path: path, message: "required")])
    }

    @Test("fields with an obvious default may be left out: id and name from the folder, version 1, the rest empty")
    func optionalFields() throws {
        var json = Fixtures.numberModelDocument()
        for key in ["name", "details", "id", "version", "author", "license"] { json[key] = nil }
        json[path: "model.quantized"] = nil
        let bundle = try Self.open(json)
        #expect(bundle.identifier == bundle.url.deletingPathExtension().lastPathComponent)
        #expect(bundle.name == bundle.identifier)
        #expect(bundle.version == "1")
        #expect([bundle.details, bundle.author, bundle.license] == ["", "", ""])
        #expect(bundle.modelFile.isQuantized == nil)
        #expect(bundle.inputs[0].dataType(quantizedModel: bundle.modelFile.isQuantized) == nil)
        json["id"] = ""
        #expect(Self.issuePaths(json) == ["id"])
    }

    @Test("a field of the wrong JSON type is named", arguments: [
        ("name", 1 as any Sendable), ("version", 1), ("placeholder", "yes"), ("model.quantized", "false"),
        ("model.file", false), ("inputs", "input"), ("inputs[0]", "input"), ("options", [1]),
    ] as [(String, any Sendable)])
    func wrongType(_ path: String, _ value: any Sendable) {
        var json = Fixtures.numberModelDocument()
        json[path: path] = value
        #expect(Self.issuePaths(json) == [path])
    }

    @Test("unknown keys are refused", arguments: [
        ("colour", "blue" as any Sendable),
        ("model.weights", "weights.bin"),
        ("inputs[0].format", "RGB"),
        ("inputs[0].normalize", ["standard": "[0,1]"]),
        ("outputs[0].denormalize", ["standard": "[0,1]"]),
        ("outputs[0].format", "RGB"),
        ("inputs[0].quantize.extra", 1),
        ("options.device_position", "front"),
    ] as [(String, any Sendable)])
    func unknownKeys(_ path: String, _ value: any Sendable) throws {
        var json = Fixtures.numberModelDocument()
        json[path: "inputs[0].quantize"] = ["standard": "[0,1]"]
        json[path: path] = value
        if path.hasPrefix("options") {
            // options may hold any key: the control case.
            #expect(try Self.open(json).options.devicePosition == .front)
            return
        }
        let error = Self.openingError(json)
        #expect(error?.issues.map(\.path) == [path])
        #expect(error?.issues.first?.message.hasPrefix("unknown key") == true)
    }

    @Test("several problems are reported at once, in order")
    func severalProblems() throws {
        var json = Fixtures.numberModelDocument()
        json["name"] = 7
        json["colour"] = "blue"
        json[path: "inputs[0].dtype"] = "complex64"
        json[path: "outputs[0].dequantize"] = ["scale": 2]
        let error = try #require(Self.openingError(json))
        #expect(error.issues.map(\.path) == ["colour", "name", "inputs[0].dtype", "outputs[0].dequantize.bias"])
        #expect(error.description.hasPrefix("4 problems: "))
        for issue in error.issues {
            #expect(error.description.contains(issue.description))
        }
    }

    // MARK: - Placeholders and training

    @Test("\"placholders\" (the historic misspelling) is accepted like \"placeholders\"", arguments: [
        "placeholders", "placholders",
    ])
    func placeholderLayers(_ key: String) throws {
        var json = Fixtures.numberModelDocument()
        json[key] = [["name": "learning_rate", "type": "array", "shape": [1]] as JSONObject]
        let bundle = try Self.open(json)
        #expect(bundle.placeholders.names == ["learning_rate"])
        #expect(bundle.placeholders[0].shape == [1])
    }

    @Test("both spellings of placeholders at once is an error")
    func placeholdersTwice() {
        var json = Fixtures.numberModelDocument()
        json["placeholders"] = [["name": "a", "type": "array", "shape": [1]] as JSONObject]
        json["placholders"] = [["name": "b", "type": "array", "shape": [1]] as JSONObject]
        #expect(Self.issuePaths(json) == ["placholders"])
    }

    @Test("train.ops is read; train without ops is an error")
    func training() throws {
        var json = Fixtures.numberModelDocument()
        json["train"] = ["ops": ["train", "step"]]
        #expect(try Self.open(json).trainingOperations == ["train", "step"])
        json["train"] = JSONObject()
        #expect(Self.issuePaths(json) == ["train.ops"])
    }
}
