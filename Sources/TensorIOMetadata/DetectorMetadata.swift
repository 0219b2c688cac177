import TensorIOModelFile
import TensorIOSupport

/// MediaPipe's `DETECTOR_METADATA`: the custom metadata entry (``TFLiteMetadata/SubgraphMetadata/customMetadata``)
/// that MediaPipe's metadata writer adds to object detectors without in-model non-maximum suppression — two
/// outputs, raw box regressions and scores — so its `ObjectDetector` can decode them
/// (`mediapipe/tasks/metadata/object_detector_metadata_schema.fbs`, file identifier `V001`).
///
/// It holds the anchors themselves (a fixed list, not generation settings) and the decoding settings of
/// MediaPipe's `TensorsToDetectionsCalculator`. The bytes come from an untrusted file: ``read(_:fileName:)``
/// checks the identifier and the whole structure first, and bounds the anchors by ``maximumAnchorCount``
/// (the entry itself is at most ``TFLiteMetadata/maximumCustomDataBytes``).
package struct DetectorMetadata: Sendable, Hashable {
    /// The name of the custom metadata entry.
    package static let customMetadataName = "DETECTOR_METADATA"
    /// The most anchors read: 1,048,576, as many as a `model.json` detection description may make.
    package static let maximumAnchorCount = 1 << 20

    /// One anchor, normalized to the model's input.
    package struct FixedAnchor: Sendable, Hashable {
        package var xCenter: Float
        package var yCenter: Float
        package var width: Float
        package var height: Float
    }

    /// The fields of `TensorsDecodingOptions`, as the file gives them (unchecked: the reader of a detection
    /// description validates them).
    package struct DecodingOptions: Sendable, Hashable {
        package var numClasses: Int
        package var numBoxes: Int
        package var numCoords: Int
        package var keypointCoordOffset: Int = 0
        package var numKeypoints: Int = 0
        package var numValuesPerKeypoint: Int = 2
        package var xScale: Float
        package var yScale: Float
        package var wScale: Float
        package var hScale: Float
        package var applyExponentialOnBoxSize: Bool
        package var sigmoidScore: Bool
    }

    /// The oldest parser version that reads every field used.
    package var minParserVersion: String?
    /// The anchors, in the order of the boxes output's rows; empty when the entry has none.
    package var anchors: [FixedAnchor]
    /// How to decode the outputs; `nil` when the entry has none.
    package var decoding: DecodingOptions?

    /// Reads a `DETECTOR_METADATA` entry's data.
    ///
    /// - Parameters:
    ///   - data: The entry's bytes.
    ///   - fileName: The model file's name, for messages.
    /// - Returns: The anchors and decoding settings.
    /// - Throws: ``ModelFileError``: ``ModelFileErrorKind/invalidModelFile`` when the bytes are not a sound
    ///   `ObjectDetectorOptions` buffer, ``ModelFileErrorKind/limitExceeded`` past ``maximumAnchorCount``.
    package static func read(_ data: [UInt8], fileName: String) throws -> DetectorMetadata {
        try data.withUnsafeBytes { buffer in
            var reader = try DetectorMetadataReader(buffer, fileName: fileName)
            return try reader.read()
        }
    }
}

/// Reads a `DETECTOR_METADATA` buffer: identifier and structure checked first, then each field.
private struct DetectorMetadataReader {
    private typealias Schema = DetectorMetadataSchema
    private typealias Table = FlatBufferReader.Table

    private let reader: FlatBufferReader
    private let fileName: String

    init(_ buffer: UnsafeRawBufferPointer, fileName: String) throws {
        self.fileName = fileName
        reader = FlatBufferReader(buffer)
        try FlatBufferIdentityCheck.check(
            buffer, as: Schema.self, what: "detector options", entry: DetectorMetadata.customMetadataName, fileName: fileName
        )
    }

    /// The error for a problem at `path` inside the entry (empty for the whole buffer).
    private func invalid(_ path: String, _ message: String) -> ModelFileError {
        FlatBufferIdentityCheck.invalid(fileName: fileName, entry: DetectorMetadata.customMetadataName, path, message)
    }

    mutating func read() throws -> DetectorMetadata {
        do {
            return try readOptions()
        } catch let failure as FlatBufferReader.Failure {
            // The structural pass checked everything read here; still, nothing but a model-file error escapes.
            throw invalid("", failure.message)
        }
    }

    private func readOptions() throws -> DetectorMetadata {
        typealias Fields = Schema.ObjectDetectorOptions
        let root = try reader.table(at: reader.rootPosition())
        var metadata = DetectorMetadata(minParserVersion: nil, anchors: [], decoding: nil)
        metadata.minParserVersion = try reader.string(root, slot: Fields.minParserVersion)
        if let ssd = try reader.table(root, slot: Fields.ssdAnchorsOptions),
           let fixed = try reader.table(ssd, slot: Schema.SsdAnchorsOptions.fixedAnchorsSchema),
           let list = try reader.vector(fixed, slot: Schema.FixedAnchorsSchema.anchors, elementByteCount: 4) {
            guard list.count <= DetectorMetadata.maximumAnchorCount else {
                throw ModelFileError(
                    .limitExceeded,
                    "\(fileName): \(DetectorMetadata.customMetadataName): ssd_anchors_options.fixed_anchors_schema.anchors: \(list.count) anchors, more than \(DetectorMetadata.maximumAnchorCount) (DetectorMetadata.maximumAnchorCount)"
                )
            }
            typealias Anchor = Schema.FixedAnchor
            metadata.anchors.reserveCapacity(list.count)
            for index in 0..<list.count {
                let table = try reader.table(in: list, at: index)
                metadata.anchors.append(DetectorMetadata.FixedAnchor(
                    xCenter: try float(table, Anchor.xCenter), yCenter: try float(table, Anchor.yCenter),
                    width: try float(table, Anchor.width), height: try float(table, Anchor.height)
                ))
            }
        }
        if let table = try reader.table(root, slot: Fields.tensorsDecodingOptions) {
            typealias Decoding = Schema.TensorsDecodingOptions
            metadata.decoding = DetectorMetadata.DecodingOptions(
                numClasses: try int(table, Decoding.numClasses), numBoxes: try int(table, Decoding.numBoxes),
                numCoords: try int(table, Decoding.numCoords), keypointCoordOffset: try int(table, Decoding.keypointCoordOffset),
                numKeypoints: try int(table, Decoding.numKeypoints), numValuesPerKeypoint: try int(table, Decoding.numValuesPerKeypoint),
                xScale: try float(table, Decoding.xScale), yScale: try float(table, Decoding.yScale),
                wScale: try float(table, Decoding.wScale), hScale: try float(table, Decoding.hScale),
                applyExponentialOnBoxSize: try reader.scalar(table, slot: Decoding.applyExponentialOnBoxSize, default: UInt8(0)) != 0,
                sigmoidScore: try reader.scalar(table, slot: Decoding.sigmoidScore, default: UInt8(0)) != 0
            )
        }
        return metadata
    }

    private func float(_ table: Table, _ slot: Int) throws -> Float {
        Float(bitPattern: try reader.scalar(table, slot: slot, default: UInt32(0)))
    }

    private func int(_ table: Table, _ slot: Int) throws -> Int {
        Int(try reader.scalar(table, slot: slot, default: Int32(0)))
    }
}
