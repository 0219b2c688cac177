import Foundation
import Testing
@_spi(Tools) @testable import TensorIO
import TensorIOTestSupport

/// The metadata, associated files and entry tensors of real models (Tests/Fixtures/Metadata), checked
/// field by field against what tflite-support's MetadataDisplayer and LiteRT's interpreter say.
@Suite("Metadata fixtures")
struct MetadataFixtureTests {
    static let models = [
        "digits-float32-metadata", "efficientnet-lite0-float32-metadata", "efficientnet-lite0-float32-perchannel-metadata",
        "efficientnet-lite0-uint8-metadata", "face_detection_short_range", "hand_landmark_lite", "selfie_segmentation",
    ]

    /// Verifies the model, then runs `body` on its bytes.
    static func withModel<Result>(_ url: URL, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        let data = try Data(contentsOf: url)
        return try data.withUnsafeBytes { bytes in
            _ = try TFLiteModelVerifier.verify(bytes, fileName: url.lastPathComponent)
            return try body(bytes)
        }
    }

    @Test("metadata matches MetadataDisplayer's JSON", arguments: models)
    func metadataMatchesDisplayer(_ name: String) throws {
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.metadataDirectory.appendingPathComponent("\(name).metadata.json")))
        let metadata = try #require(try Self.withModel(Fixtures.metadataDirectory.appendingPathComponent("\(name).tflite")) {
            try TFLiteMetadata.read(fromModel: $0, fileName: "\(name).tflite")
        })
        let differences = JSONComparison.differences(DisplayerJSON.render(metadata), expected, path: "")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test("associated files: the zip's names, none missing", arguments: models)
    func associatedFiles(_ name: String) throws {
        let listed = try String(contentsOf: Fixtures.metadataDirectory.appendingPathComponent("\(name).associated-files.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let (attachments, metadata) = try Self.withModel(Fixtures.metadataDirectory.appendingPathComponent("\(name).tflite")) {
            (try ModelAttachments.read(fromModel: $0, fileName: "\(name).tflite"), try TFLiteMetadata.read(fromModel: $0, fileName: "m"))
        }
        #expect(Set(attachments.names) == Set(listed))
        #expect(attachments.missingFiles(namedIn: try #require(metadata)).isEmpty)
    }

    @Test("EfficientNet uint8: two label locales of 1,000 lines, English labels as the bundle's")
    func labelContents() throws {
        let url = Fixtures.metadataDirectory.appendingPathComponent("efficientnet-lite0-uint8-metadata.tflite")
        let (attachments, metadata) = try Self.withModel(url) {
            (try ModelAttachments.read(fromModel: $0, fileName: "m"), try #require(try TFLiteMetadata.read(fromModel: $0, fileName: "m")))
        }
        let output = try #require(metadata.subgraphs.first?.outputs.first)
        #expect(output.associatedFiles.map(\.locale) == ["en", "xx", nil])
        #expect(output.associatedFiles.map(\.type) == [.tensorAxisLabels, .tensorAxisLabels, .tensorAxisScoreCalibration])
        let english = String(decoding: try #require(attachments["labels.txt"]), as: UTF8.self)
        #expect(english.split(separator: "\n").count == 1000)
        #expect(try #require(attachments["labels_xx.txt"]).count > 0)
        let input = try #require(metadata.subgraphs.first?.inputs.first)
        #expect(input.content == .image(.init(colorSpace: .rgb)))
        #expect(input.processUnits == [.normalization(mean: [127.5], std: [127.5])])
    }

    @Test("entry tensors match LiteRT's interpreter", arguments: models)
    func entryTensors(_ name: String) throws {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.metadataDirectory.appendingPathComponent("tensors.json"))) as? [String: Any]
        let fixture = try #require((all?["fixtures"] as? [String: Any])?["\(name).tflite"] as? [String: Any])
        let entry = try Self.withModel(Fixtures.metadataDirectory.appendingPathComponent("\(name).tflite")) {
            try TFLiteEntryPoints.read(fromModel: $0, fileName: "\(name).tflite")
        }
        let signatures = try #require(fixture["signatures"] as? [String: Any])
        #expect(entry.signatureKey == signatures.keys.sorted().first)
        for (list, tensors) in [("inputs", entry.mainSubgraphInputTensors), ("outputs", entry.mainSubgraphOutputTensors)] {
            let expected = try #require(fixture[list] as? [[String: Any]])
            #expect(tensors.count == expected.count, "\(list)")
            for (tensor, want) in zip(tensors, expected) {
                #expect(tensor.tensorIndex == want["index"] as? Int)
                #expect(tensor.tensorName == want["name"] as? String)
                #expect(tensor.typeName == want["dtype"] as? String)
                // LiteRT lists `shape`; ours prefers shape_signature, which differs only where it is -1.
                let shape = try #require(want["shape"] as? [Int])
                #expect(tensor.shape.count == shape.count && zip(tensor.shape, shape).allSatisfy { $0 == $1 || $0 == -1 }, "\(tensor.shape) \(shape)")
                let quantization = want["quantization"] as? [String: Any]
                let scale = quantization?["scale"] as? Double ?? 0
                switch tensor.quantization {
                case nil: #expect(scale == 0)
                case .perTensor(let actual, let zeroPoint):
                    #expect(abs(Double(actual) - scale) < 1e-9)
                    #expect(zeroPoint == Int64(quantization?["zero_point"] as? Int ?? 0))
                case .perChannel: break
                }
            }
        }
    }

    @Test("models without metadata: nil metadata, no attachments, the real entry tensors")
    func modelWithoutMetadata() throws {
        let url = Fixtures.examplesDirectory.appendingPathComponent("efficientnet-lite0-uint8.tiobundle/model.tflite")
        try Self.withModel(url) { bytes in
            #expect(try TFLiteMetadata.read(fromModel: bytes, fileName: "model.tflite") == nil)
            #expect(try ModelAttachments.read(fromModel: bytes, fileName: "model.tflite").isEmpty)
            let entry = try TFLiteEntryPoints.read(fromModel: bytes, fileName: "model.tflite")
            #expect(entry.signatureKey == "serving_default")
            let input = try #require(entry.inputs.first)
            #expect(input.name == "image")
            #expect(input.dataType == .uint8)
            #expect(input.shape == [1, 224, 224, 3])
            guard case .perTensor(let scale, let zeroPoint) = input.quantization else {
                Issue.record("expected per-tensor quantization, got \(String(describing: input.quantization))")
                return
            }
            #expect(abs(scale - 0.007843138) < 1e-6)
            #expect(zeroPoint == 127)
        }
        for bundle in Fixtures.validBundles {
            let model = Fixtures.url(bundle).appendingPathComponent("model.tflite")
            guard FileManager.default.fileExists(atPath: model.path) else { continue }
            try Self.withModel(model) { bytes in
                #expect(try TFLiteMetadata.read(fromModel: bytes, fileName: "model.tflite") == nil)
                #expect(try ModelAttachments.read(fromModel: bytes, fileName: "model.tflite").isEmpty)
                _ = try TFLiteEntryPoints.read(fromModel: bytes, fileName: "model.tflite")
            }
        }
    }
}
