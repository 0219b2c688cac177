// Fuzz target: TensorIOVideo's reader — the container probe and check, libavformat through our own
// AVIOContext over the bytes, the chosen stream's decoder (libavcodec) and the conversion to BGRA
// (libswscale) — every frame decoded, then a second pass that seeks to a start time and samples by rate.
import FuzzSupport
import Foundation
import TensorIO
import TensorIOVideo

func fuzzVideo(_ data: Data) {
    // Small limits keep each input fast (one decoding thread, no thread start per input); the checks are
    // the same at any size.
    let limits = VideoLimits(
        maximumFileBytes: 1 << 20, maximumPixels: 1 << 18, maximumDimension: 2048, maximumFrames: 64,
        maximumPacketsWithoutFrame: 256, maximumDecodingThreads: 1
    )
    guard let reader = try? VideoReader(data: data, limits: limits) else { return }
    precondition(reader.info.width * reader.info.height <= limits.maximumPixels)
    var decoded = 0
    if let decoder = try? reader.makeDecoder() {
        while let frame = try? decoder.nextFrame() {
            precondition(frame.image.width * frame.image.height <= limits.maximumPixels)
            precondition(frame.image.bytes.count == frame.image.width * frame.image.height * 4)
            decoded += 1
        }
    }
    precondition(decoded <= limits.maximumFrames)
    guard decoded > 1, let sampled = try? reader.makeDecoder(options: VideoSampling(maximumFramesPerSecond: 5, start: .milliseconds(100))) else { return }
    while (try? sampled.nextFrame()) != nil {}
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzVideo) }
}
