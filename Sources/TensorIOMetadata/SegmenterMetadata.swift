import TensorIOModelFile
import TensorIOSupport

/// MediaPipe's `SEGMENTER_METADATA`: the custom metadata entry (``TFLiteMetadata/SubgraphMetadata/customMetadata``)
/// that MediaPipe's metadata writer adds to image segmenters to say which activation turns the mask output
/// into confidences (`mediapipe/tasks/metadata/image_segmenter_metadata_schema.fbs`, file identifier `V001`).
/// MediaPipe's selfie segmenters carry one that says `NONE`: their output is already a sigmoid.
///
/// The bytes come from an untrusted file: ``read(_:fileName:)`` checks the identifier and the whole structure
/// first, and refuses an activation the schema does not name (the entry itself is at most
/// ``TFLiteMetadata/maximumCustomDataBytes``).
package struct SegmenterMetadata: Sendable, Hashable {
    /// The name of the custom metadata entry.
    package static let customMetadataName = "SEGMENTER_METADATA"

    /// The schema's `Activation`.
    package enum Activation: Sendable, Hashable {
        /// The outputs are confidences already.
        case none
        /// A sigmoid per value.
        case sigmoid
        /// A softmax over each pixel's categories.
        case softmax
    }

    /// The activation the entry names (`NONE` when the field is absent, the schema's default).
    package var activation: Activation
    /// The oldest parser version that reads every field used.
    package var minParserVersion: String?

    /// Creates an entry.
    package init(activation: Activation, minParserVersion: String? = nil) {
        self.activation = activation
        self.minParserVersion = minParserVersion
    }

    /// Reads a `SEGMENTER_METADATA` entry's data.
    ///
    /// - Parameters:
    ///   - data: The entry's bytes.
    ///   - fileName: The model file's name, for messages.
    /// - Returns: The activation and parser version.
    /// - Throws: ``ModelFileError`` (``ModelFileErrorKind/invalidModelFile``) when the bytes are not a sound
    ///   `ImageSegmenterOptions` buffer or name an activation the schema does not.
    package static func read(_ data: [UInt8], fileName: String) throws -> SegmenterMetadata {
        typealias Schema = SegmenterMetadataSchema
        typealias Fields = Schema.ImageSegmenterOptions
        func invalid(_ path: String, _ message: String) -> ModelFileError {
            FlatBufferIdentityCheck.invalid(fileName: fileName, entry: customMetadataName, path, message)
        }
        return try data.withUnsafeBytes { buffer in
            try FlatBufferIdentityCheck.check(
                buffer, as: Schema.self, what: "segmenter options", entry: customMetadataName, fileName: fileName
            )
            let reader = FlatBufferReader(buffer)
            do {
                let root = try reader.table(at: reader.rootPosition())
                let value = Int64(try reader.scalar(root, slot: Fields.activation, default: Int8(0)))
                let activation: Activation
                switch value {
                case Schema.Activation.none: activation = .none
                case Schema.Activation.sigmoid: activation = .sigmoid
                case Schema.Activation.softmax: activation = .softmax
                default: throw invalid("activation", "\(value) is not an activation the schema names (0 NONE, 1 SIGMOID, 2 SOFTMAX)")
                }
                return SegmenterMetadata(activation: activation, minParserVersion: try reader.string(root, slot: Fields.minParserVersion))
            } catch let failure as FlatBufferReader.Failure {
                // The structural pass checked everything read here; still, nothing but a model-file error escapes.
                throw invalid("", failure.message)
            }
        }
    }
}
