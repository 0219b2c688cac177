// Fuzz target: TensorIOAudio's reader — the WAV/FLAC/Ogg header check, then libsndfile through its virtual
// I/O over the checked bytes — and the mixing and resampling a classification does next.
import FuzzSupport
import Foundation
import TensorIO
import TensorIOAudio

func fuzzAudio(_ data: Data) {
    // Small limits keep each input fast; the checks are the same at any size.
    let limits = AudioLimits(maximumFileBytes: 1 << 20, maximumSamples: 1 << 18)
    guard let audio = try? AudioBuffer(data: data, limits: limits) else { return }
    precondition(audio.samples.count <= limits.maximumSamples && audio.samples.allSatisfy(\.isFinite))
    guard let mono = try? audio.mixed(toChannels: 1) else { return }
    _ = try? mono.resampled(to: 16_000, limits: limits)
}

@main
enum FuzzTarget {
    static func main() { FuzzInput.main(fuzzAudio) }
}
