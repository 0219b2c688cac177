// Fuzz target: the JPEG and PNG decoders with EXIF orientation, then the vision pipeline (orient, crop,
// scale) to a small target, as a run would use them.
import FuzzSupport
import Foundation
import TensorIO

func fuzzImage(_ data: Data) {
    // Small limits keep each input fast; the checks are the same at any size.
    let limits = ModelLimits(maximumDecodedImagePixels: 1 << 22)
    guard let image = try? PixelBuffer(data: data, targetSize: ImageSize(width: 7, height: 5), limits: limits) else { return }
    _ = image.uprightSize
    _ = image.converted(to: .rgb)
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzImage) }
}
