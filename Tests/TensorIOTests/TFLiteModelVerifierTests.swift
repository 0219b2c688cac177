import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOModelFile
import TensorIOTestSupport

@Suite("TFLite model verifier")
struct TFLiteModelVerifierTests {
    private typealias Schema = TFLiteSchema

    /// Every `.tflite` file under `Tests/Fixtures` and `Examples`.
    static func modelFiles() -> [URL] {
        var files: [URL] = []
        for folder in ["Tests/Fixtures", "Examples"] {
            let root = Fixtures.repositoryURL(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            // The hostile corpus holds broken models on purpose (HostileCorpusTests checks their errors).
            for case let url as URL in walker where url.pathExtension == "tflite" && !url.path.contains("/Fixtures/Hostile/") {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    static let smallFixture = Fixtures.url(Fixtures.numberBundleName).appendingPathComponent("model.tflite")

    private func verify(_ bytes: [UInt8], limits: ModelLimits = ModelLimits()) throws -> TFLiteModelVerifier.Summary {
        try bytes.withUnsafeBytes { try TFLiteModelVerifier.verify($0, limits: limits, fileName: "model.tflite") }
    }

    /// Expects verification to fail with `code` and a message containing `text` (any message when nil).
    private func expectRejection(
        _ bytes: [UInt8], _ text: String?, code: TensorIOError.Code = .invalidModelFile, limits: ModelLimits = ModelLimits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: TensorIOError.self, sourceLocation: sourceLocation) { _ = try verify(bytes, limits: limits) }
        guard let error else { return }
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location == "model.file", sourceLocation: sourceLocation)
        #expect(error.message.hasPrefix("model.tflite: "), "\(error.message)", sourceLocation: sourceLocation)
        if let text {
            #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Real models

    @Test func everyFixtureAndExampleModelVerifies() throws {
        let files = Self.modelFiles()
        #expect(files.count >= 30)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            do {
                let summary = try verify(bytes)
                #expect(summary.subgraphCount >= 1, "\(file.path)")
                #expect(summary.tensorCount >= 1, "\(file.path)")
                #expect(summary.byteCount == bytes.count)
            } catch {
                Issue.record("\(file.path): \(error)")
            }
        }
    }

    @Test func efficientNetSummaryCountsWhatTheModelHolds() throws {
        let file = Fixtures.examplesDirectory.appendingPathComponent("efficientnet-lite0-float32.tiobundle/model.tflite")
        let summary = try verify([UInt8](Data(contentsOf: file)))
        #expect(summary.subgraphCount == 1)
        #expect(summary.operatorCount > 50)
        #expect(summary.tensorCount > summary.operatorCount)
        #expect(summary.bufferCount > 50)
    }

    // MARK: Crafted models

    @Test func theTestModelIsValid() throws {
        let summary = try verify(TFLiteTestModel().serialized())
        #expect(summary.subgraphCount == 1)
        #expect(summary.tensorCount == 3)
        #expect(summary.operatorCount == 1)
        #expect(summary.operatorCodeCount == 1)
        #expect(summary.bufferCount == 2)
        #expect(summary.signatureCount == 1)
    }

    @Test func operatorInputOutOfRange() {
        var model = TFLiteTestModel()
        model.operators[0].set(Schema.Operator.inputs, .int32s([0, 812]))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].inputs[1]: tensor 812 is out of range (the subgraph has 3 tensors)")
    }

    @Test func optionalInputsMayBeMinusOneButOutputsMayNot() throws {
        var model = TFLiteTestModel()
        model.operators[0].set(Schema.Operator.inputs, .int32s([0, -1]))
        _ = try verify(model.serialized())
        model.operators[0].set(Schema.Operator.outputs, .int32s([-1]))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].outputs[0]: tensor -1 is out of range")
        model.operators[0].set(Schema.Operator.outputs, .int32s([2]))
        model.operators[0].set(Schema.Operator.intermediates, .int32s([3]))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].intermediates[0]: tensor 3 is out of range")
    }

    @Test func subgraphInputsAndOutputsInRange() {
        var model = TFLiteTestModel()
        model.subgraphOutputs = [3]
        expectRejection(model.serialized(), "subgraphs[0].outputs[0]: tensor 3 is out of range (the subgraph has 3 tensors)")
        model.subgraphOutputs = [2]
        model.subgraphInputs = [-1]
        expectRejection(model.serialized(), "subgraphs[0].inputs[0]: tensor -1 is out of range")
    }

    @Test func operatorCodeIndexInRange() {
        var model = TFLiteTestModel()
        model.operators[0].set(Schema.Operator.opcodeIndex, .uint32(5))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].opcode_index: operator code 5 is out of range (the model has 1 operator codes)")
        model.operatorCodes = []
        expectRejection(model.serialized(), "operator_codes: the model has operators but no operator codes")
        model.operatorCodes = [FlatBufferTestTable([(Schema.OperatorCode.deprecatedBuiltinCode, .int8(-3)), (Schema.OperatorCode.builtinCode, .int32(-7))])]
        expectRejection(model.serialized(), "operator_codes[0]: the builtin operator code -3 is negative")
    }

    @Test func tensorBufferIndexInRange() {
        var model = TFLiteTestModel()
        model.tensors[1].set(Schema.Tensor.buffer, .uint32(9))
        expectRejection(model.serialized(), "subgraphs[0].tensors[1].buffer: buffer 9 is out of range (the model has 2 buffers)")
    }

    @Test func bufferStoredOutsideTheFlatBufferMustBeInsideTheFile() throws {
        var model = TFLiteTestModel()
        model.buffers[1] = FlatBufferTestTable([(Schema.Buffer.offset, .uint64(4096)), (Schema.Buffer.size, .uint64(64))])
        expectRejection(model.serialized(), "buffers[1]: the data stored outside the FlatBuffer (offset 4096, 64 bytes) runs past the end of the file")
        model.buffers[1] = FlatBufferTestTable([(Schema.Buffer.offset, .uint64(UInt64.max - 8)), (Schema.Buffer.size, .uint64(64))])
        expectRejection(model.serialized(), "buffers[1]: the data stored outside the FlatBuffer")

        // Inside the file (the data appended after the FlatBuffer), it is accepted. The offset's value
        // does not change the FlatBuffer's length, so the length is known before it is written.
        let flatBufferLength = model.serialized().count
        model.buffers[1] = FlatBufferTestTable([(Schema.Buffer.offset, .uint64(UInt64(flatBufferLength))), (Schema.Buffer.size, .uint64(16))])
        let placed = model.serialized() + Array(repeating: 0, count: 16)
        #expect(placed.count == flatBufferLength + 16)
        _ = try verify(placed)
    }

    @Test func largeCustomOptionsMustBeInsideTheFile() {
        var model = TFLiteTestModel()
        model.operators[0].set(Schema.Operator.largeCustomOptionsOffset, .uint64(1 << 40))
        model.operators[0].set(Schema.Operator.largeCustomOptionsSize, .uint64(8))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].large_custom_options_offset: the data stored outside the FlatBuffer")
    }

    @Test func overflowingShapes() {
        var model = TFLiteTestModel()
        model.tensors[0].set(Schema.Tensor.shape, .int32s([Int32.max, Int32.max, Int32.max, Int32.max]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape: the shape [2147483647, 2147483647, 2147483647, 2147483647] has more elements than a 64-bit count can hold", code: .limitExceeded)
        model.tensors[0].set(Schema.Tensor.shape, .int32s([65536, 65536]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape: the shape [65536, 65536] has 4294967296 elements, more than maximumElementsPerTensor (268435456)", code: .limitExceeded)
        model.tensors[0].set(Schema.Tensor.shape, .int32s([1, 4]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape: the shape [1, 4] has 4 elements, more than maximumElementsPerTensor (3)",
                        code: .limitExceeded, limits: ModelLimits(maximumElementsPerTensor: 3))
    }

    @Test func shapeDimensionsAndRank() throws {
        var model = TFLiteTestModel()
        model.tensors[0].set(Schema.Tensor.shape, .int32s([1, -1]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape[1]: the dimension -1 is negative")
        model.tensors[0].set(Schema.Tensor.shape, .int32s([1, 4]))
        model.tensors[0].set(Schema.Tensor.shapeSignature, .int32s([-1, 4]))
        _ = try verify(model.serialized())
        model.tensors[0].set(Schema.Tensor.shapeSignature, .int32s([-2, 4]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape_signature[0]: the dimension -2 is negative")
        model.tensors[0].set(Schema.Tensor.shapeSignature, .int32s([-1]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape_signature: has 1 dimensions but shape has 2")
        model.tensors[0].set(Schema.Tensor.shapeSignature, .int32s([]))
        model.tensors[0].set(Schema.Tensor.shape, .int32s(Array(repeating: 1, count: 17)))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].shape: 17 dimensions; at most 16 are allowed")
    }

    @Test func tensorTypeMustBeKnown() {
        var model = TFLiteTestModel()
        model.tensors[2].set(Schema.Tensor.type, .int8(42))
        expectRejection(model.serialized(), "subgraphs[0].tensors[2].type: 42 is not a TFLite tensor type")
    }

    @Test func constantDataMustCoverTheShape() throws {
        var model = TFLiteTestModel()
        model.tensors[1].set(Schema.Tensor.shape, .int32s([1, 8]))
        expectRejection(model.serialized(), "subgraphs[0].tensors[1].buffer: buffer 1 holds 16 bytes but a float32 tensor of shape [1, 8] needs 32")
        // The same 16 bytes hold 16 int8 values, and 32 int4 values.
        model.tensors[1].set(Schema.Tensor.shape, .int32s([1, 16]))
        model.tensors[1].set(Schema.Tensor.type, .int8(Int8(Schema.TensorType.int8)))
        _ = try verify(model.serialized())
        model.tensors[1].set(Schema.Tensor.shape, .int32s([32]))
        model.tensors[1].set(Schema.Tensor.type, .int8(Int8(Schema.TensorType.int4)))
        _ = try verify(model.serialized())
        // Strings have their own layout: not checked against the shape.
        model.tensors[1].set(Schema.Tensor.shape, .int32s([1000]))
        model.tensors[1].set(Schema.Tensor.type, .int8(Int8(Schema.TensorType.string)))
        _ = try verify(model.serialized())
    }

    @Test func quantizationMustMatchTheShape() throws {
        func quantization(scales: Int, zeroPoints: Int, dimension: Int32) -> FlatBufferTestValue {
            .table(FlatBufferTestTable([
                (Schema.QuantizationParameters.scale, .floats(Array(repeating: 0.5, count: scales))),
                (Schema.QuantizationParameters.zeroPoint, .int64s(Array(repeating: 0, count: zeroPoints))),
                (Schema.QuantizationParameters.quantizedDimension, .int32(dimension)),
            ]))
        }
        var model = TFLiteTestModel()
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scales: 4, zeroPoints: 4, dimension: 1))
        _ = try verify(model.serialized())
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scales: 3, zeroPoints: 3, dimension: 1))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].quantization.scale: 3 scales for dimension 1 of shape [1, 4]")
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scales: 4, zeroPoints: 1, dimension: 1))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].quantization: 4 scales but 1 zero points")
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scales: 1, zeroPoints: 1, dimension: 2))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].quantization.quantized_dimension: dimension 2 does not exist in a tensor of shape [1, 4]")
    }

    @Test func controlFlowSubgraphsInRangeAndNotRecursive() throws {
        var model = TFLiteTestModel()
        model.operators[0].set(Schema.Operator.builtinOptionsType, .uint8(Schema.BuiltinOptions.ifOptions))
        model.operators[0].set(Schema.Operator.builtinOptions, .table(FlatBufferTestTable([
            (Schema.IfOptions.thenSubgraphIndex, .int32(7)), (Schema.IfOptions.elseSubgraphIndex, .int32(1)),
        ])))
        model.extraSubgraphs = [TFLiteTestModel.emptySubgraph()]
        expectRejection(model.serialized(), "subgraphs[0].operators[0].builtin_options.then_subgraph_index: subgraph 7 is out of range (the model has 2 subgraphs)")

        model.operators[0].set(Schema.Operator.builtinOptionsType, .uint8(Schema.BuiltinOptions.whileOptions))
        model.operators[0].set(Schema.Operator.builtinOptions, .table(FlatBufferTestTable([
            (Schema.WhileOptions.condSubgraphIndex, .int32(1)), (Schema.WhileOptions.bodySubgraphIndex, .int32(1)),
        ])))
        _ = try verify(model.serialized())
        model.operators[0].set(Schema.Operator.builtinOptions, .table(FlatBufferTestTable([
            (Schema.WhileOptions.condSubgraphIndex, .int32(1)), (Schema.WhileOptions.bodySubgraphIndex, .int32(0)),
        ])))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].builtin_options.body_subgraph_index: subgraph 0 calls itself")

        model.operators[0].set(Schema.Operator.builtinOptionsType, .uint8(0))
        model.operators[0].set(Schema.Operator.builtinOptions2Type, .uint8(Schema.BuiltinOptions2.stablehloCustomCallOptions))
        model.operators[0].set(Schema.Operator.builtinOptions2, .table(FlatBufferTestTable([
            (Schema.StablehloCustomCallOptions.calledComputations, .int32s([1, 2])),
        ])))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].builtin_options_2.called_computations[1]: subgraph 2 is out of range")
    }

    @Test func unionMemberTablesAreChecked() {
        var model = TFLiteTestModel()
        model.operators[0].set(Schema.Operator.builtinOptionsType, .uint8(Schema.BuiltinOptions.reshapeOptions))
        model.operators[0].set(Schema.Operator.builtinOptions, .table(FlatBufferTestTable([
            (Schema.ReshapeOptions.newShape, .claimedVector(count: 1 << 30)),
        ])))
        expectRejection(model.serialized(), "subgraphs[0].operators[0].builtin_options.new_shape: a vector of 1073741824 4-byte elements")
    }

    @Test func signaturesInRange() {
        var model = TFLiteTestModel()
        model.signatures[0].set(Schema.SignatureDef.subgraphIndex, .uint32(3))
        expectRejection(model.serialized(), "signature_defs[0].subgraph_index: subgraph 3 is out of range (the model has 1 subgraphs)")
        model.signatures[0].set(Schema.SignatureDef.subgraphIndex, .uint32(0))
        model.signatures[0].set(Schema.SignatureDef.outputs, .tables([FlatBufferTestTable([(Schema.TensorMap.tensorIndex, .uint32(99))])]))
        expectRejection(model.serialized(), "signature_defs[0].outputs[0].tensor_index: tensor 99 is out of range (subgraph 0 has 3 tensors)")
    }

    // Regressions from the mutation campaign: each of these crashed LiteRT inside `tensorio inspect`.

    /// A signature output that is not a subgraph output (a flipped subgraph output index, or a
    /// signature's outputs offset moved onto its inputs) made LiteRT abort with an uncaught
    /// std::logic_error in LiteRtGetCompiledModelOutputTensorLayouts.
    @Test func signatureTensorsMustBeTheSubgraphsInputsAndOutputs() {
        var model = TFLiteTestModel()
        model.subgraphOutputs = [1]
        expectRejection(model.serialized(), "signature_defs[0].outputs[0].tensor_index: tensor 2 is not one of subgraph 0's outputs [1]")
        model = TFLiteTestModel()
        model.signatures[0].set(Schema.SignatureDef.inputs, .tables([FlatBufferTestTable([(Schema.TensorMap.tensorIndex, .uint32(2))])]))
        expectRejection(model.serialized(), "signature_defs[0].inputs[0].tensor_index: tensor 2 is not one of subgraph 0's inputs [0]")
    }

    /// A zero point outside its integer type (a flipped high byte) and a zero scale (a zero-filled
    /// range) crashed XNNPack with SIGSEGV while the model compiled.
    @Test func quantizationValuesMustSuitTheType() throws {
        func quantization(scale: Float, zeroPoint: Int64) -> FlatBufferTestValue {
            .table(FlatBufferTestTable([
                (Schema.QuantizationParameters.scale, .floats([scale])),
                (Schema.QuantizationParameters.zeroPoint, .int64s([zeroPoint])),
            ]))
        }
        var model = TFLiteTestModel()
        model.tensors[0].set(Schema.Tensor.type, .int8(Int8(Schema.TensorType.uint8)))
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scale: 0.5, zeroPoint: 128))
        _ = try verify(model.serialized())
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scale: 0.5, zeroPoint: -0x0400_0000_0000_0080))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].quantization.zero_point[0]: the zero point -288230376151711872 is outside the range of uint8 (0...255)")
        model.tensors[0].set(Schema.Tensor.type, .int8(Int8(Schema.TensorType.int8)))
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scale: 0.5, zeroPoint: 128))
        expectRejection(model.serialized(), "the zero point 128 is outside the range of int8 (-128...127)")
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scale: 0, zeroPoint: 0))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].quantization.scale[0]: the scale 0.0 is not a positive normal number")
        model.tensors[0].set(Schema.Tensor.quantization, quantization(scale: .nan, zeroPoint: 0))
        expectRejection(model.serialized(), "the scale nan is not a positive normal number")
    }

    // Regressions from the second mutation campaign (scripts/mutate-models.py): a subnormal scale,
    // signatures that do not map each input and output once by a name, unnamed metadata. The files
    // that found them are in Tests/Fixtures/Hostile (HostileCorpusTests).

    /// A scale of 2.2e-42 (four bytes of an offset copied over a scale) passed the old "positive and
    /// finite" check and crashed XNNPack with SIGSEGV while the model compiled; so do the other
    /// subnormals. The smallest normal scale is accepted.
    @Test func subnormalScalesAreRejected() throws {
        var model = TFLiteTestModel()
        model.tensors[0].set(Schema.Tensor.type, .int8(Int8(Schema.TensorType.uint8)))
        for scale in [Float(bitPattern: 0x0000_062C), .leastNonzeroMagnitude, .leastNormalMagnitude.nextDown] {
            model.tensors[0].set(Schema.Tensor.quantization, .table(FlatBufferTestTable([
                (Schema.QuantizationParameters.scale, .floats([scale])), (Schema.QuantizationParameters.zeroPoint, .int64s([0])),
            ])))
            expectRejection(model.serialized(), "subgraphs[0].tensors[0].quantization.scale[0]: the scale \(scale) is not a positive normal number")
        }
        model.tensors[0].set(Schema.Tensor.quantization, .table(FlatBufferTestTable([
            (Schema.QuantizationParameters.scale, .floats([.leastNormalMagnitude])), (Schema.QuantizationParameters.zeroPoint, .int64s([0])),
        ])))
        _ = try verify(model.serialized())
    }

    /// The test model with a second output (the constant), mapped by the signature as `z`.
    private func twoOutputModel() -> TFLiteTestModel {
        var model = TFLiteTestModel()
        model.subgraphOutputs = [2, 1]
        model.signatures[0].set(Schema.SignatureDef.outputs, .tables([Self.tensorMap("y", 2), Self.tensorMap("z", 1)]))
        return model
    }

    private static func tensorMap(_ name: String?, _ tensor: UInt32) -> FlatBufferTestTable {
        var map = FlatBufferTestTable([(Schema.TensorMap.tensorIndex, .uint32(tensor))])
        if let name { map.set(Schema.TensorMap.name, .string(name)) }
        return map
    }

    /// A signature output moved onto the other output (one flipped byte) left one subgraph output
    /// unmapped: LiteRT asked TFLite's signature runner for a name it lacked and aborted on
    /// `basic_string::_M_construct null not valid`.
    @Test func signatureMustMapEachInputAndOutputOnce() throws {
        var model = twoOutputModel()
        _ = try verify(model.serialized())
        model.signatures[0].set(Schema.SignatureDef.outputs, .tables([Self.tensorMap("y", 2), Self.tensorMap("z", 2)]))
        expectRejection(model.serialized(), "signature_defs[0].outputs[1].tensor_index: tensor 2 is already mapped by outputs[0]; a signature must map each of subgraph 0's outputs [2, 1] once")
        model.signatures[0].set(Schema.SignatureDef.outputs, .tables([Self.tensorMap("y", 2)]))
        expectRejection(model.serialized(), "signature_defs[0].outputs: the signature maps 1 tensors but subgraph 0 has 2 outputs [2, 1]")
        model.signatures[0].set(Schema.SignatureDef.outputs, .tables([]))
        expectRejection(model.serialized(), "signature_defs[0].outputs: the signature maps 0 tensors but subgraph 0 has 2 outputs")
    }

    /// An absent signature name (a vtable entry zeroed) aborted LiteRT while loading; an empty one left
    /// an input unbound; two entries with one name leave one unmapped, like a tensor mapped twice.
    @Test func signatureNamesMustBePresentAndDistinct() {
        var model = twoOutputModel()
        model.signatures[0].set(Schema.SignatureDef.inputs, .tables([Self.tensorMap(nil, 0)]))
        expectRejection(model.serialized(), "signature_defs[0].inputs[0].name: the signature's input has no name")
        model.signatures[0].set(Schema.SignatureDef.inputs, .tables([Self.tensorMap("", 0)]))
        expectRejection(model.serialized(), "signature_defs[0].inputs[0].name: the signature's input has an empty name")
        model = twoOutputModel()
        model.signatures[0].set(Schema.SignatureDef.outputs, .tables([Self.tensorMap("y", 2), Self.tensorMap("y", 1)]))
        expectRejection(model.serialized(), #"signature_defs[0].outputs[1].name: the name "y" is already used by outputs[0]"#)
    }

    /// Without signatures, LiteRT and TFLite make one from the main subgraph's tensor names: two
    /// outputs (or inputs) with one name aborted LiteRT as duplicate signature names do. Unnamed tensors
    /// are accepted (LiteRT runs them).
    @Test func withoutSignaturesInputAndOutputNamesMustDiffer() throws {
        var model = twoOutputModel()
        model.signatures = []
        _ = try verify(model.serialized())
        model.tensors[1].set(Schema.Tensor.name, .string("output"))
        expectRejection(model.serialized(), #"subgraphs[0].tensors[1].name: the name "output" is also the name of tensor 2 among subgraph 0's outputs"#)
        model.tensors[1].set(Schema.Tensor.name, .string(""))
        model.tensors[2].set(Schema.Tensor.name, .string(""))
        _ = try verify(model.serialized())
        model.subgraphOutputs = [2]
        model.subgraphInputs = [0, 1]
        model.tensors[1].set(Schema.Tensor.name, .string("input"))
        expectRejection(model.serialized(), #"subgraphs[0].tensors[1].name: the name "input" is also the name of tensor 0 among subgraph 0's inputs"#)
    }

    @Test func metadataEntriesNeedAName() throws {
        var model = TFLiteTestModel()
        model.metadata = [FlatBufferTestTable([(Schema.Metadata.name, .string("min_runtime_version")), (Schema.Metadata.buffer, .uint32(1))])]
        _ = try verify(model.serialized())
        model.metadata = [FlatBufferTestTable([(Schema.Metadata.buffer, .uint32(1))])]
        expectRejection(model.serialized(), "metadata[0].name: the metadata entry has no name")
    }

    @Test func metadataBuffersInRange() {
        var model = TFLiteTestModel()
        model.metadataBuffers = [1, 2]
        expectRejection(model.serialized(), "metadata_buffer[1]: buffer 2 is out of range (the model has 2 buffers)")
    }

    @Test func requiredParts() {
        var model = TFLiteTestModel()
        model.identifier = "TFL2"
        expectRejection(model.serialized(), #"the file does not have the TFLite identifier "TFL3" at offset 4 (found "TFL2")"#)
        let noSubgraphs = FlatBufferTestWriter.serialize(FlatBufferTestTable([
            (Schema.Model.buffers, .tables([FlatBufferTestTable()])),
        ]))
        expectRejection(noSubgraphs, "model.tflite: the model has no subgraphs")
        let noBuffers = FlatBufferTestWriter.serialize(FlatBufferTestTable([
            (Schema.Model.subgraphs, .tables([TFLiteTestModel.emptySubgraph()])),
        ]))
        expectRejection(noBuffers, "model.tflite: the model has no buffers vector")
    }

    @Test func stringRunningPastTheEnd() {
        var model = TFLiteTestModel()
        model.tensors[0].set(Schema.Tensor.name, .claimedVector(count: 5000))
        expectRejection(model.serialized(), "subgraphs[0].tensors[0].name: a vector of 5000 1-byte elements")
    }

    // MARK: Corrupted fixture files

    /// The small fixture, and the reader-found position of something inside it.
    private func fixture() throws -> [UInt8] {
        try [UInt8](Data(contentsOf: Self.smallFixture))
    }

    private func write<T: FixedWidthInteger>(_ value: T, at position: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[position + index] = byte }
        }
    }

    /// The main subgraph's table and the fixture's reader, for locating fields to corrupt.
    private func locate<Result>(_ bytes: [UInt8], _ body: (FlatBufferReader, FlatBufferReader.Table) throws -> Result) throws -> Result {
        try bytes.withUnsafeBytes { raw in
            let reader = FlatBufferReader(raw)
            let model = try reader.table(at: reader.rootPosition())
            let subgraphs = try #require(try reader.vector(model, slot: Schema.Model.subgraphs, elementByteCount: 4))
            return try body(reader, reader.table(in: subgraphs, at: 0))
        }
    }

    @Test func wrongIdentifier() throws {
        var bytes = try fixture()
        bytes.replaceSubrange(4..<8, with: Array("ABCD".utf8))
        expectRejection(bytes, #"does not have the TFLite identifier "TFL3" at offset 4 (found "ABCD")"#)
    }

    @Test func truncatedFiles() throws {
        let bytes = try fixture()
        expectRejection([], "the file is 0 bytes long, too short to be a TFLite model")
        expectRejection(Array(bytes.prefix(7)), "the file is 7 bytes long")
        for length in [8, 12, 64, bytes.count / 2, bytes.count * 3 / 4] {
            expectRejection(Array(bytes.prefix(length)), nil)
        }
    }

    @Test func vtableOutOfRange() throws {
        var bytes = try fixture()
        let subgraph = try locate(bytes) { _, subgraph in subgraph.position }
        write(Int32.min, at: subgraph, in: &bytes)
        expectRejection(bytes, "subgraphs[0]: the table at offset \(subgraph) has its vtable at \(subgraph + (1 << 31)), outside the file")
    }

    @Test func tensorIndexOutOfRangeInARealModel() throws {
        var bytes = try fixture()
        let (position, tensorCount) = try locate(bytes) { reader, subgraph in
            let operators = try #require(try reader.vector(subgraph, slot: Schema.SubGraph.operators, elementByteCount: 4))
            let op = try reader.table(in: operators, at: 0)
            let inputs = try #require(try reader.vector(op, slot: Schema.Operator.inputs, elementByteCount: 4))
            let tensors = try #require(try reader.vector(subgraph, slot: Schema.SubGraph.tensors, elementByteCount: 4))
            return (inputs.position(of: 0), tensors.count)
        }
        write(Int32(812), at: position, in: &bytes)
        expectRejection(bytes, "subgraphs[0].operators[0].inputs[0]: tensor 812 is out of range (the subgraph has \(tensorCount) tensors)")
    }

    @Test func stringPastTheEndInARealModel() throws {
        var bytes = try fixture()
        let position = try locate(bytes) { reader, subgraph in
            let tensors = try #require(try reader.vector(subgraph, slot: Schema.SubGraph.tensors, elementByteCount: 4))
            let tensor = try reader.table(in: tensors, at: 0)
            let field = try #require(try reader.fieldPosition(tensor, slot: Schema.Tensor.name, byteCount: 4))
            return try reader.followOffset(at: field)
        }
        write(UInt32(0x7fff_ffff), at: position, in: &bytes)
        expectRejection(bytes, "subgraphs[0].tensors[0].name: a vector of 2147483647 1-byte elements at offset \(position) runs past the end of the file")
    }

    /// The bytes of the fixture in bundle `name`, and positions in it that `find` returns from its model table.
    private func fixture<Result>(_ name: String, _ find: (FlatBufferReader, FlatBufferReader.Table) throws -> Result) throws -> ([UInt8], Result) {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url(name).appendingPathComponent("model.tflite")))
        let found = try bytes.withUnsafeBytes { raw in
            let reader = FlatBufferReader(raw)
            return try find(reader, reader.table(at: reader.rootPosition()))
        }
        return (bytes, found)
    }

    /// The first signature's `inputs` or `outputs` maps.
    private func signatureMaps(_ reader: FlatBufferReader, _ model: FlatBufferReader.Table, slot: Int) throws -> FlatBufferReader.Vector {
        let signatures = try #require(try reader.vector(model, slot: Schema.Model.signatureDefs, elementByteCount: 4))
        return try #require(try reader.vector(reader.table(in: signatures, at: 0), slot: slot, elementByteCount: 4))
    }

    /// One byte of a real model's signature, as in the reproducer tflite-null-string-01 (the team's, not in the repository): its first
    /// output mapped onto the second one's tensor.
    @Test func signatureOutputMappedTwiceInARealModel() throws {
        let (original, (position, tensor)) = try fixture("2_in_2_out_matrices_test.tiobundle") { reader, model in
            let outputs = try signatureMaps(reader, model, slot: Schema.SignatureDef.outputs)
            let first = try #require(try reader.fieldPosition(reader.table(in: outputs, at: 0), slot: Schema.TensorMap.tensorIndex, byteCount: 4))
            let second = try reader.scalar(reader.table(in: outputs, at: 1), slot: Schema.TensorMap.tensorIndex, default: UInt32(0))
            return (first, second)
        }
        var bytes = original
        write(tensor, at: position, in: &bytes)
        expectRejection(bytes, "signature_defs[0].outputs[1].tensor_index: tensor \(tensor) is already mapped by outputs[0]")
    }

    /// A real model's signature input stripped of its name (its vtable entry zeroed), as in
    /// Hostile/unnamed-signature-input.
    @Test func signatureInputWithoutANameInARealModel() throws {
        let (original, entry) = try fixture("1_in_1_out_number_test.tiobundle") { reader, model in
            let inputs = try signatureMaps(reader, model, slot: Schema.SignatureDef.inputs)
            return try reader.table(in: inputs, at: 0).vtable + 4 + 2 * Schema.TensorMap.name
        }
        var bytes = original
        write(UInt16(0), at: entry, in: &bytes)
        expectRejection(bytes, "signature_defs[0].inputs[0].name: the signature's input has no name")
    }

    /// A real model's quantization scale turned subnormal, as in the reproducer tflite-segv-offset-03 (the team's, not in the repository).
    @Test func subnormalScaleInARealModel() throws {
        let (original, position) = try fixture("quantized_uint8_test.tiobundle") { reader, model in
            let subgraphs = try #require(try reader.vector(model, slot: Schema.Model.subgraphs, elementByteCount: 4))
            let tensors = try #require(try reader.vector(reader.table(in: subgraphs, at: 0), slot: Schema.SubGraph.tensors, elementByteCount: 4))
            let quantization = try #require(try reader.table(reader.table(in: tensors, at: 3), slot: Schema.Tensor.quantization))
            return try #require(try reader.vector(quantization, slot: Schema.QuantizationParameters.scale, elementByteCount: 4)).position(of: 0)
        }
        var bytes = original
        write(UInt32(0x0000_062C), at: position, in: &bytes)
        expectRejection(bytes, "subgraphs[0].tensors[3].quantization.scale[0]: the scale 2.214e-42 is not a positive normal number")
    }

    // MARK: Mutations

    /// Thousands of single-byte flips, truncations and filled ranges of a small model: the verifier
    /// must return or throw a model-file error for every one (a crash or a hang fails the run).
    @Test func seededMutationsNeverCrashTheVerifier() throws {
        let original = try fixture()
        var generator = SeededGenerator(seed: 0x5EED_7F1E)
        var accepted = 0
        var rejected = 0
        let clock = ContinuousClock()
        let start = clock.now
        for iteration in 0..<4000 {
            var bytes = original
            switch iteration % 4 {
            case 0, 1:
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
            case 2:
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &generator))
            default:
                let start = Int.random(in: 0..<bytes.count, using: &generator)
                let end = min(bytes.count, start + Int.random(in: 1...16, using: &generator))
                let fill: UInt8 = [0x00, 0xFF, 0x7F, 0x80].randomElement(using: &generator) ?? 0
                for position in start..<end { bytes[position] = fill }
            }
            do {
                _ = try verify(bytes)
                accepted += 1
            } catch let error as TensorIOError {
                #expect(error.code == .invalidModelFile || error.code == .limitExceeded, "iteration \(iteration): \(error)")
                rejected += 1
            }
        }
        #expect(accepted + rejected == 4000)
        // Most flips land in buffer data or names and stay valid; truncations never do.
        #expect(rejected >= 1000, "only \(rejected) of 4000 mutations were rejected")
        #expect(clock.now - start < .seconds(60))
    }

    // MARK: Opening the file

    @Test func fifoAsModelFileIsRefusedWithoutBlocking() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle") { bundle in
            let file = bundle.appendingPathComponent("model.tflite")
            try FileManager.default.removeItem(at: file)
            #expect(mkfifo(file.path, 0o600) == 0)
            let error = #expect(throws: TensorIOError.self) {
                _ = try MappedModelFile(bundleDirectory: bundle, fileName: "model.tflite", limits: ModelLimits())
            }
            #expect(error?.code == .invalidModelFile)
            #expect(error?.message == "model.tflite is a FIFO, not a regular file")
            #expect(error?.location == "model.file")

            // Through the bundle: opening it refuses the FIFO already (model.file must be a regular file).
            let openError = #expect(throws: TensorIOError.self) { try ModelBundle(at: bundle) }
            #expect(openError?.code == .invalidBundle)
            #expect(openError?.description == "model.file: \"model.tflite\" is a FIFO, not a regular file or folder")
        }
    }

    @Test func directoryAsModelFileIsRefused() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle") { bundle in
            let file = bundle.appendingPathComponent("model.tflite")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            let error = #expect(throws: TensorIOError.self) {
                _ = try MappedModelFile(bundleDirectory: bundle, fileName: "model.tflite", limits: ModelLimits())
            }
            #expect(error?.code == .invalidModelFile)
            #expect(error?.message == "model.tflite is a directory, not a regular file")
        }
    }

    @Test func symbolicLinkOutOfTheBundleIsRefused() throws {
        try withTemporaryDirectory { directory in
            let bundle = try copyFixture("1_in_1_out_number_test.tiobundle", into: directory)
            let outside = directory.appendingPathComponent("outside.tflite")
            let file = bundle.appendingPathComponent("model.tflite")
            try FileManager.default.moveItem(at: file, to: outside)
            // A link inside the bundle to a file inside it is fine.
            let inside = bundle.appendingPathComponent("real.tflite")
            try FileManager.default.copyItem(at: outside, to: inside)
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "real.tflite")
            let mapped = try MappedModelFile(bundleDirectory: bundle, fileName: "model.tflite", limits: ModelLimits())
            #expect(mapped.bytes.count == (try Data(contentsOf: inside)).count)

            // Opened while the link stays inside, then swapped for one leading out before loading.
            let model = try ModelBundle(at: bundle).makeModel()
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "../outside.tflite")
            let error = #expect(throws: TensorIOError.self) {
                _ = try MappedModelFile(bundleDirectory: bundle, fileName: "model.tflite", limits: ModelLimits())
            }
            #expect(error?.code == .invalidModelFile)
            #expect(error?.message.hasPrefix("model.tflite leads outside the bundle folder") == true, "\(String(describing: error))")
            let loadError = #expect(throws: TensorIOError.self) { try model.load() }
            #expect(loadError?.code == .invalidModelFile)
        }
    }

    @Test func oversizedAndEmptyFilesAreRefused() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle") { bundle in
            let error = #expect(throws: TensorIOError.self) {
                _ = try MappedModelFile(bundleDirectory: bundle, fileName: "model.tflite", limits: ModelLimits(maximumModelFileBytes: 100))
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message.contains("more than maximumModelFileBytes (100)") == true)
            try Data().write(to: bundle.appendingPathComponent("model.tflite"))
            let emptyError = #expect(throws: TensorIOError.self) {
                _ = try MappedModelFile(bundleDirectory: bundle, fileName: "model.tflite", limits: ModelLimits())
            }
            #expect(emptyError?.message == "model.tflite is empty")
        }
    }

    @Test func corruptedModelFailsToLoadWithTheVerifiersError() throws {
        try withFixtureCopy("1_in_1_out_number_test.tiobundle") { bundle in
            let file = bundle.appendingPathComponent("model.tflite")
            var bytes = try [UInt8](Data(contentsOf: file))
            bytes.replaceSubrange(4..<8, with: Array("XXXX".utf8))
            try Data(bytes).write(to: file)
            let model = try ModelBundle(at: bundle).makeModel()
            let error = #expect(throws: TensorIOError.self) { try model.load() }
            #expect(error?.code == .invalidModelFile)
            #expect(error?.location == "model.file")
            #expect(error?.message.hasPrefix("model.tflite: the file does not have the TFLite identifier") == true)
        }
    }
}
