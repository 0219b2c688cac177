import Foundation
import Testing
@_spi(Tools) @testable import TensorIO
import TensorIOTestSupport

/// Crafted metadata buffers and appended zips: each ends in nil or a clear error, never a crash.
@Suite("Metadata hostile inputs")
struct MetadataHostileTests {
    private typealias Schema = MetadataSchema

    /// A model whose buffer 2 holds `metadata` (inline), named TFLITE_METADATA.
    static func model(metadata: [UInt8], name: String = "TFLITE_METADATA") -> [UInt8] {
        var model = TFLiteTestModel()
        model.buffers.append(FlatBufferTestTable([(TFLiteSchema.Buffer.data, .bytes(metadata))]))
        model.metadata = [FlatBufferTestTable([(TFLiteSchema.Metadata.name, .string(name)), (TFLiteSchema.Metadata.buffer, .uint32(2))])]
        return model.serialized()
    }

    static func metadata(_ root: FlatBufferTestTable, identifier: String = "M001") -> [UInt8] {
        FlatBufferTestWriter.serialize(root, identifier: identifier)
    }

    /// A metadata buffer with one input whose process unit normalizes with `mean`/`std`.
    static func normalizing(mean: [Float], std: [Float]) -> [UInt8] {
        let unit = FlatBufferTestTable([
            (Schema.ProcessUnit.optionsType, .uint8(Schema.ProcessUnitOptions.normalizationOptions)),
            (Schema.ProcessUnit.options, .table(FlatBufferTestTable([
                (Schema.NormalizationOptions.mean, .floats(mean)), (Schema.NormalizationOptions.std, .floats(std)),
            ]))),
        ])
        let tensor = FlatBufferTestTable([
            (Schema.TensorMetadata.name, .string("image")),
            (Schema.TensorMetadata.processUnits, .tables([unit])),
        ])
        return metadata(FlatBufferTestTable([
            (Schema.ModelMetadata.name, .string("crafted")),
            (Schema.ModelMetadata.subgraphMetadata, .tables([FlatBufferTestTable([(Schema.SubGraphMetadata.inputTensorMetadata, .tables([tensor]))])])),
        ]))
    }

    private func read(_ model: [UInt8], verified: Bool = true) throws -> TFLiteMetadata? {
        try model.withUnsafeBytes { bytes in
            if verified { _ = try TFLiteModelVerifier.verify(bytes, fileName: "model.tflite") }
            return try TFLiteMetadata.read(fromModel: bytes, fileName: "model.tflite")
        }
    }

    @Test("a crafted buffer reads back; no TFLITE_METADATA entry (or another name) is nil")
    func roundTripAndAbsence() throws {
        let metadata = try #require(try read(Self.model(metadata: Self.normalizing(mean: [127.5, 1], std: [2]))))
        #expect(metadata.name == "crafted")
        #expect(metadata.subgraphs.first?.inputs.first?.processUnits == [.normalization(mean: [127.5, 1], std: [2])])
        #expect(try read(TFLiteTestModel().serialized()) == nil)
        #expect(try read(Self.model(metadata: Self.normalizing(mean: [1], std: [1]), name: "min_runtime_version")) == nil)
    }

    @Test("wrong identifier, truncated, empty: model-file errors naming TFLITE_METADATA")
    func malformedBuffers() throws {
        let good = Self.normalizing(mean: [1], std: [1])
        expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["model.tflite: TFLITE_METADATA", "\"M001\""]) {
            _ = try read(Self.model(metadata: Self.metadata(FlatBufferTestTable(), identifier: "XXXX")))
        }
        for length in [0, 4, 7, 12, good.count / 2, good.count - 1] {
            expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["TFLITE_METADATA"]) { _ = try read(Self.model(metadata: Array(good.prefix(length)))) }
        }
    }

    @Test("counts past the buffer and past the bounds")
    func hugeCounts() throws {
        // A vector claiming four billion tensors with nothing after it: the structure check refuses it.
        let claimed = Self.metadata(FlatBufferTestTable([
            (Schema.ModelMetadata.subgraphMetadata, .tables([FlatBufferTestTable([(Schema.SubGraphMetadata.inputTensorMetadata, .claimedVector(count: .max))])])),
        ]))
        expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["TFLITE_METADATA: subgraph_metadata[0].input_tensor_metadata"]) { _ = try read(Self.model(metadata: claimed)) }
        // Real but too many: 2,000 mean values.
        expectTensorIOError(.limitExceeded, location: "model.file", containing: ["subgraph_metadata[0].input_tensor_metadata[0].process_units[0].options.mean", "TFLiteMetadata.maximumListCount"]) {
            _ = try read(Self.model(metadata: Self.normalizing(mean: Array(repeating: 1, count: 2000), std: [1])))
        }
        let long = Self.metadata(FlatBufferTestTable([(Schema.ModelMetadata.license, .string(String(repeating: "x", count: 70_000)))]))
        expectTensorIOError(.limitExceeded, location: "model.file", containing: ["license", "TFLiteMetadata.maximumStringBytes"]) { _ = try read(Self.model(metadata: long)) }
    }

    @Test("data stored after the FlatBuffer: read when inside the file, refused when outside")
    func externalBuffer() throws {
        let payload = Self.normalizing(mean: [3], std: [4])
        func model(offset: UInt64, size: UInt64) -> [UInt8] {
            var model = TFLiteTestModel()
            model.buffers.append(FlatBufferTestTable([(TFLiteSchema.Buffer.offset, .uint64(offset)), (TFLiteSchema.Buffer.size, .uint64(size))]))
            model.metadata = [FlatBufferTestTable([(TFLiteSchema.Metadata.name, .string("TFLITE_METADATA")), (TFLiteSchema.Metadata.buffer, .uint32(2))])]
            return model.serialized()
        }
        let length = model(offset: 1_000_000, size: 1).count
        let inside = model(offset: UInt64(length), size: UInt64(payload.count)) + payload
        #expect(try read(inside)?.subgraphs.first?.inputs.first?.processUnits == [.normalization(mean: [3], std: [4])])
        // Not verified first (the verifier refuses these): the reader alone must still refuse them.
        for (offset, size) in [(UInt64(length), UInt64(payload.count) + 1), (UInt64.max - 4, 64), (UInt64(length) + 8, 0)] {
            let outside = model(offset: offset, size: size) + payload
            expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["model.tflite"]) { _ = try read(outside, verified: false) }
        }
    }

    @Test("every truncation and every flipped byte of a real metadata model: an error or a value, never a crash")
    func mutations() throws {
        let url = Fixtures.metadataDirectory.appendingPathComponent("face_detection_short_range.tflite")
        let original = [UInt8](try Data(contentsOf: url))
        let located = try original.withUnsafeBytes { try MetadataBufferLocator.metadataBuffer(in: $0, fileName: "m").map { [UInt8]($0) } }
        let buffer = try #require(located)
        for index in stride(from: 0, to: buffer.count, by: 3) {
            var mutated = buffer
            mutated[index] ^= 0xA5
            _ = try? mutated.withUnsafeBytes { bytes in
                var reader = try MetadataReader(bytes, fileName: "m")
                return try reader.read()
            }
            _ = try? Array(buffer.prefix(index)).withUnsafeBytes { bytes in
                var reader = try MetadataReader(bytes, fileName: "m")
                return try reader.read()
            }
        }
    }
}
