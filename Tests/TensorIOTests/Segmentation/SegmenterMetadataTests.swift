import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOMetadata
import TensorIOModelFile
import TensorIOSupport
import TensorIOTestSupport

/// MediaPipe's `SEGMENTER_METADATA` (issue 28, point 1): the activation a segmenter's metadata names, read
/// by a bounded reader and used by the inferred segmentation description; a malformed entry is one error.
@Suite("Segmentation: SEGMENTER_METADATA")
struct SegmenterMetadataTests {
    static let selfie = "Tests/Fixtures/Metadata/selfie_segmentation.tflite"

    /// An `ImageSegmenterOptions` buffer with `activation` set to `value` (absent when `nil`).
    static func entry(activation value: Int8?, version: String? = nil) -> [UInt8] {
        var table = FlatBufferTestTable()
        if let value { table.set(0, .int8(value)) }
        if let version { table.set(1, .string(version)) }
        return FlatBufferTestWriter.serialize(table, identifier: "V001")
    }

    @Test("MediaPipe's selfie segmenter names activation NONE; the inferred description says so and where it came from")
    func selfie() throws {
        let inferred = try ModelBundle.infer(fromModelAt: Fixtures.repositoryURL(Self.selfie), registry: .everyTask)
        let segmentation = try #require(inferred.bundle.segmentation)
        #expect(segmentation.activation == .none)
        #expect(inferred.notes.contains { $0.kind == .inferred && $0.message.contains("activation none (from SEGMENTER_METADATA)") })
        #expect(!inferred.notes.contains { $0.message.contains("SEGMENTER_METADATA") && $0.kind == .unused })
    }

    @Test("each activation the schema names reads; an absent field is NONE, the schema's default", arguments: [
        (Int8?.none, SegmenterMetadata.Activation.none), (0, .none), (1, .sigmoid), (2, .softmax),
    ] as [(Int8?, SegmenterMetadata.Activation)])
    func activations(_ value: Int8?, _ expected: SegmenterMetadata.Activation) throws {
        let entry = try SegmenterMetadata.read(Self.entry(activation: value, version: "1.0.0"), fileName: "model.tflite")
        #expect(entry.activation == expected && entry.minParserVersion == "1.0.0")
    }

    @Test("an entry written by MediaPipe's own generated code (the fuzz seed) reads as it was written: SOFTMAX, 1.0.0")
    func writtenByMediaPipe() throws {
        let data = try Data(contentsOf: Fixtures.repositoryURL("Fuzz/Seeds/fuzz-model-file/segmenter-metadata-entry.bin"))
        let entry = try SegmenterMetadata.read(Array(data), fileName: "model.tflite")
        #expect(entry.activation == .softmax && entry.minParserVersion == "1.0.0")
    }

    @Test("the activation reaches the inferred description: a model whose entry says SOFTMAX segments with softmax")
    func inferredActivation() throws {
        let outputs = [LayerDescription(name: "mask", shape: [1, 4, 4, 3], declaredDataType: .float32, kind: .array(quantization: nil))]
        var metadata = TFLiteMetadata.TensorMetadata()
        metadata.content = .image(.init(colorSpace: .grayscale))
        for (value, expected) in [(Int8(1), SegmentationDescription.Activation.sigmoid), (2, .softmax), (0, .none)] {
            var inference = TFLiteBundleInference(fileURL: URL(fileURLWithPath: "segmenter.tflite"), options: BundleInferenceOptions(), limits: ModelLimits())
            let description = try #require(try inference.segmentation(
                outputs: outputs, metadata: [metadata], segmenterMetadata: Self.entry(activation: value), attachments: ModelAttachments()
            ))
            #expect(description.activation == expected)
        }
    }

    @Test("an activation the schema does not name, a wrong identifier, and every prefix are refused with one line naming the entry")
    func hostile() throws {
        for value: Int8 in [3, -1, 127] {
            let error = #expect(throws: ModelFileError.self) { try SegmenterMetadata.read(Self.entry(activation: value), fileName: "model.tflite") }
            #expect(error?.message == "model.tflite: SEGMENTER_METADATA: activation: \(value) is not an activation the schema names (0 NONE, 1 SIGMOID, 2 SOFTMAX)")
        }
        let sound = Self.entry(activation: 1, version: "1.0.0")
        for length in 0..<sound.count {
            #expect(throws: ModelFileError.self) { try SegmenterMetadata.read(Array(sound.prefix(length)), fileName: "model.tflite") }
        }
        for position in sound.indices {
            var mutated = sound
            mutated[position] ^= 0xFF
            _ = try? SegmenterMetadata.read(mutated, fileName: "model.tflite")
        }
        var wrongIdentifier = sound
        wrongIdentifier[5] = UInt8(ascii: "X")
        let error = #expect(throws: ModelFileError.self) { try SegmenterMetadata.read(wrongIdentifier, fileName: "model.tflite") }
        #expect(error?.message.contains("identifier") == true)
        // Through the inference, a malformed entry is a TensorIOError naming the model file.
        let outputs = [LayerDescription(name: "mask", shape: [1, 4, 4, 1], declaredDataType: .float32, kind: .array(quantization: nil))]
        var metadata = TFLiteMetadata.TensorMetadata()
        metadata.content = .image(.init(colorSpace: .grayscale))
        var inference = TFLiteBundleInference(fileURL: URL(fileURLWithPath: "segmenter.tflite"), options: BundleInferenceOptions(), limits: ModelLimits())
        let failure = #expect(throws: TensorIOError.self) {
            try inference.segmentation(outputs: outputs, metadata: [metadata], segmenterMetadata: Self.entry(activation: 9), attachments: ModelAttachments())
        }
        #expect(failure?.code == .invalidModelFile && failure?.message.contains("segmenter.tflite: SEGMENTER_METADATA") == true)
    }
}
