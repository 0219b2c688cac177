// Fuzz target: the .tflite structural verifier, which must decide on any bytes without crashing or
// looping, before LiteRT sees them; then, on what it accepts, the readers that follow it for bare models:
// the entry-point tensors, the TFLite metadata (and MediaPipe's DETECTOR_METADATA and SEGMENTER_METADATA
// entries in it) and the zip of associated files appended to the model. Bytes the verifier refuses are also
// read as each of those entries on their own, so that their small readers are fuzzed directly too.
import FuzzSupport
import Foundation
import TensorIO
// The verifier and the metadata readers (package access in TensorIO), compiled into this package.
import TensorIOMetadata
import TensorIOModelFile

/// The bound on tensor sizes a model load passes to the verifier (the default ModelLimits).
let limits = TFLiteModelVerifier.Limits(maximumElementsPerTensor: ModelLimits().maximumElementsPerTensor)

func fuzzModelFile(_ data: Data) {
    data.withUnsafeBytes { bytes in
        guard (try? TFLiteModelVerifier.verify(bytes, limits: limits, fileName: "model.tflite")) != nil else {
            // The appended zip is read from any bytes: it does not depend on the FlatBuffer.
            _ = try? ModelAttachments.read(fromModel: bytes, fileName: "model.tflite")
            _ = try? DetectorMetadata.read(Array(bytes), fileName: "model.tflite")
            _ = try? SegmenterMetadata.read(Array(bytes), fileName: "model.tflite")
            return
        }
        _ = try? TFLiteEntryPoints.read(fromModel: bytes, fileName: "model.tflite")
        let metadata = try? TFLiteMetadata.read(fromModel: bytes, fileName: "model.tflite")
        for entry in metadata?.subgraphs.flatMap(\.customMetadata) ?? [] {
            switch entry.name {
            case DetectorMetadata.customMetadataName: _ = try? DetectorMetadata.read(entry.data, fileName: "model.tflite")
            case SegmenterMetadata.customMetadataName: _ = try? SegmenterMetadata.read(entry.data, fileName: "model.tflite")
            default: break
            }
        }
        _ = try? ModelAttachments.read(fromModel: bytes, fileName: "model.tflite")
    }
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzModelFile) }
}
