import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
@testable import TensorIOMetadata
import TensorIOModelFile
import TensorIOSupport
import TensorIOTestSupport

/// MediaPipe's `DETECTOR_METADATA` (issue 27, point 1): the bounded reader of the entry's bytes, and the
/// checks that turn an entry into a detection description — every disagreement a clear error.
@Suite("Detection: DETECTOR_METADATA")
struct DetectorMetadataTests {
    static let outputs = [
        LayerDescription(name: "boxes", shape: [1, 3, 4], declaredDataType: .float32, kind: .array(quantization: nil)),
        LayerDescription(name: "scores", shape: [1, 3, 2], declaredDataType: .float32, kind: .array(quantization: nil)),
    ]

    static func entry(anchors: Int = 3, numBoxes: Int = 3, numCoords: Int = 4, xScale: Float = 10, anchor: DetectorMetadata.FixedAnchor? = nil) -> DetectorMetadata {
        let anchorList = (0..<anchors).map { DetectorMetadata.FixedAnchor(xCenter: 0.25 * Float($0 + 1), yCenter: 0.5, width: 0.2, height: 0.2) }
        return DetectorMetadata(
            anchors: anchor.map { [$0] + anchorList.dropFirst() } ?? anchorList,
            decoding: DetectorMetadata.DecodingOptions(
                numClasses: 2, numBoxes: numBoxes, numCoords: numCoords, xScale: xScale, yScale: 10, wScale: 5, hScale: 5,
                applyExponentialOnBoxSize: true, sigmoidScore: false
            )
        )
    }

    static func describe(_ entry: DetectorMetadata, outputs: [LayerDescription] = outputs) throws -> DetectionDescription {
        var inference = TFLiteBundleInference(fileURL: URL(fileURLWithPath: "detector.tflite"), options: BundleInferenceOptions(), limits: ModelLimits(), tasks: TaskRegistry())
        return try inference.detectorMetadataDetection(entry, outputs: outputs, metadata: [nil, nil], attachments: ModelAttachments())
    }

    @Test("a sound entry becomes an anchor description: yxhw, its anchors, hard suppression at 0.3")
    func sound() throws {
        let detection = try Self.describe(Self.entry())
        #expect(detection.kind == .anchors && detection.anchors.count == 3 && detection.fixedAnchorsFile == "anchors.csv")
        #expect(detection.decoding?.boxFormat == .yxhw && detection.decoding?.numClasses == 2 && detection.decoding?.applyExponentialOnBoxSize == true)
        #expect(detection.suppression?.algorithm == .hard && detection.suppression?.minSuppressionThreshold == 0.3)
    }

    @Test("the scores' axis labels become the labels, and those with a locale the display names (assets/)")
    func labelsAndDisplayNames() throws {
        var attachments = ModelAttachments()
        attachments.names = ["labels.txt", "labels_fr.txt"]
        attachments.files = ["labels.txt": Data("cat\ndog\n".utf8), "labels_fr.txt": Data("chat\nchien\n".utf8)]
        let scores = TFLiteMetadata.TensorMetadata(name: "score", associatedFiles: [
            .init(name: "labels.txt", type: .tensorAxisLabels), .init(name: "labels_fr.txt", type: .tensorAxisLabels, locale: "fr"),
        ])
        var inference = TFLiteBundleInference(fileURL: URL(fileURLWithPath: "detector.tflite"), options: BundleInferenceOptions(), limits: ModelLimits(), tasks: TaskRegistry())
        let detection = try inference.detectorMetadataDetection(
            Self.entry(), outputs: Self.outputs, metadata: [TFLiteMetadata.TensorMetadata(name: "location"), scores], attachments: attachments
        )
        #expect(detection.labels?.values == ["cat", "dog"] && detection.displayNames["fr"]?.values == ["chat", "chien"])
        #expect(detection.displayNamesFiles == ["fr": "labels_fr.txt"] && inference.assets["labels_fr.txt"] != nil && inference.assets["anchors.csv"] != nil)
    }

    @Test("an entry that disagrees with itself or the outputs is refused with one line naming it", arguments: [
        (entry(anchors: 0, numBoxes: 0), "anchors"),
        (entry(anchors: 3, numBoxes: 4), "num_boxes is 4"),
        (entry(numCoords: 5), "numCoords"),
        (entry(xScale: 0), "xScale"),
        (entry(anchor: .init(xCenter: .nan, yCenter: 0.5, width: 1, height: 1)), "anchor 0"),
        (entry(anchor: .init(xCenter: 0.5, yCenter: 0.5, width: -1, height: 1)), "anchor 0"),
        (entry(anchors: 4, numBoxes: 4), "shape [1, 3, 4]"),
        (DetectorMetadata(anchors: [], decoding: nil), "tensors_decoding_options"),
    ])
    func refused(_ entry: DetectorMetadata, _ fragment: String) {
        let error = #expect(throws: TensorIOError.self) { try Self.describe(entry) }
        #expect(error?.code == .invalidModelFile && error?.message.contains("DETECTOR_METADATA") == true, "\(String(describing: error))")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test("any prefix or single-byte change of a real entry reads or is refused, never crashes")
    func hostileBytes() throws {
        let blob = try Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/Detection/coco-ssd-detector-metadata.metadata.bin"))
        let metadata = try blob.withUnsafeBytes { try TFLiteMetadata.read(buffer: $0, fileName: "blob") }
        let data = try #require(metadata.subgraphs.first?.customMetadata.first { $0.name == DetectorMetadata.customMetadataName }?.data)
        let entry = try DetectorMetadata.read(data, fileName: "model.tflite")
        #expect(entry.anchors.count == 1917 && entry.decoding?.numClasses == 91)
        // Prefixes (the structure check refuses each), and bytes flipped near the start, where the tables are.
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 500)) {
            #expect(throws: ModelFileError.self) { try DetectorMetadata.read(Array(data.prefix(length)), fileName: "model.tflite") }
        }
        for position in 0..<min(data.count, 256) {
            var mutated = data
            mutated[position] ^= 0xFF
            _ = try? DetectorMetadata.read(mutated, fileName: "model.tflite")
        }
        var wrongIdentifier = data
        wrongIdentifier[4] = UInt8(ascii: "X")
        let error = #expect(throws: ModelFileError.self) { try DetectorMetadata.read(wrongIdentifier, fileName: "model.tflite") }
        #expect(error?.message.contains("identifier") == true)
    }
}
