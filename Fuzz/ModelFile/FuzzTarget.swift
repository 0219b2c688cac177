// Fuzz target: the .tflite structural verifier, which must decide on any bytes without crashing or
// looping, before LiteRT sees them; then, on what it accepts, the readers that follow it for bare models:
// the entry-point tensors, the TFLite metadata and the zip of associated files appended to the model.
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
            return
        }
        _ = try? TFLiteEntryPoints.read(fromModel: bytes, fileName: "model.tflite")
        _ = try? TFLiteMetadata.read(fromModel: bytes, fileName: "model.tflite")
        _ = try? ModelAttachments.read(fromModel: bytes, fileName: "model.tflite")
    }
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzModelFile) }
}
