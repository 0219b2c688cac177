// Fuzz target: the .tflite structural verifier, which must decide on any bytes without crashing or
// looping, before LiteRT sees them.
import FuzzSupport
import Foundation
import TensorIO

func fuzzModelFile(_ data: Data) {
    data.withUnsafeBytes { bytes in
        _ = try? TFLiteModelVerifier.verify(bytes, limits: ModelLimits(), fileName: "model.tflite")
    }
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzModelFile) }
}
