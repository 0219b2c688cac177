/// How many frames MediaPipe's resampler gives for a clip, so that a recording makes the windows
/// MediaPipe's `AudioClassifier` makes of it.
///
/// MediaPipe resamples a clip with `audio_dsp::QResampleSignal` (a polyphase Kaiser-windowed sinc), which
/// flushes the filter's tail: `ceil((n + R) · b / a)` frames for `n` input frames, where `a / b`
/// approximates the rate ratio `in / out` with `b ≤ 1000` and `R = ceil(5 · max(1, a / b))` is the
/// kernel's radius in input frames (Tests/Fixtures/Audio/README.md, "Resampling"). libsoxr gives
/// `n · out / in` frames; the windowing pads the difference with silence, which is what the tail is, give
/// or take the filter's last ripples, and which decides whether a last, nearly silent window exists.
enum ResampledLength {
    /// The largest denominator of the rate ratio's approximation (`QResamplerParams.max_denominator`).
    static let maximumDenominator = 1000

    /// Frames MediaPipe's resampler makes of `frames` frames from `inputRate` to `outputRate`; `frames`
    /// when the rates are equal.
    static func mediaPipe(frames: Int, from inputRate: Int, to outputRate: Int) -> Int {
        guard inputRate != outputRate, frames > 0 else { return frames }
        let (a, b) = ratio(inputRate, outputRate)
        let radius = Int((5 * max(1, Double(a) / Double(b))).rounded(.up))
        // frames ≤ 2^27·64 and b ≤ 1000: no overflow.
        return ((frames + radius) * b + a - 1) / a
    }

    /// `numerator / denominator` as `a / b` in lowest terms, or its best continued-fraction convergent
    /// with `b ≤ maximumDenominator`.
    static func ratio(_ numerator: Int, _ denominator: Int) -> (Int, Int) {
        func gcd(_ x: Int, _ y: Int) -> Int { y == 0 ? x : gcd(y, x % y) }
        let divisor = gcd(numerator, denominator)
        if denominator / divisor <= maximumDenominator { return (numerator / divisor, denominator / divisor) }
        // Convergents h/k of the continued fraction of numerator/denominator, while k stays in bounds.
        var (previousH, h) = (1, numerator / denominator)
        var (previousK, k) = (0, 1)
        var (x, y) = (denominator, numerator % denominator)
        while y != 0 {
            let term = x / y
            let (nextH, nextK) = (term * h + previousH, term * k + previousK)
            guard nextK <= maximumDenominator else { break }
            (previousH, h, previousK, k) = (h, nextH, k, nextK)
            (x, y) = (y, x % y)
        }
        return (h, k)
    }
}
