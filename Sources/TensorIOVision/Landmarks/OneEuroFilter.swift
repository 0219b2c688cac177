import Foundation

/// MediaPipe's one-euro filter (`OneEuroFilter` of mediapipe/util/filtering, which its
/// `LandmarksSmoothingCalculator` runs on each coordinate), on one number: a low-pass filter whose cutoff
/// rises with the number's speed, so slow jitter is smoothed and fast motion followed. The speed is scaled by
/// `valueScale` (one over the instance's size, or 1), so the filter behaves alike on large and small instances.
///
/// The arithmetic is MediaPipe's, precision included: its options are float fields (0.05 is
/// 0.0500000007…), its state two single-precision `LowPassFilter`s, its frequency and cutoffs doubles.
struct OneEuroFilter: Sendable, Hashable {
    let settings: TrackingRule.Smoothing
    /// The frequency in hertz: the settings' until two samples give one, then one over their interval.
    private var frequency: Double
    private var lastTime: Duration?
    private var value = LowPassFilter()
    private var speed = LowPassFilter()

    init(_ settings: TrackingRule.Smoothing) {
        self.settings = settings
        frequency = Self.option(settings.frequency)
    }

    /// The filtered value of `raw` at `time`.
    ///
    /// A time not later than the last sample's, or a number that is not finite, passes the number through and
    /// leaves the filter as it was (MediaPipe passes an old time through likewise; a NaN would stay in its
    /// state for good). MediaPipe also takes a first time of exactly zero for "no time yet", a quirk of its
    /// sentinel that its Python solutions never meet (they stamp the first frame 33,333 µs) and that is not
    /// copied: here the first sample is the first sample, whatever its time.
    mutating func callAsFunction(_ raw: Float, at time: Duration, valueScale: Float) -> Float {
        guard raw.isFinite, valueScale.isFinite else { return raw }
        if let lastTime {
            guard time > lastTime else { return raw }
            frequency = 1 / (Self.nanoseconds(time - lastTime) * 1e-9)
        }
        lastTime = time
        let change = value.lastRaw.map { (Double(raw) - Double($0)) * Double(valueScale) * frequency } ?? 0
        let smoothedSpeed = speed(Float(change), alpha: Float(alpha(cutoff: Self.option(settings.derivativeCutoff))))
        let cutoff = Self.option(settings.minimumCutoff) + Self.option(settings.beta) * Double(abs(smoothedSpeed))
        return value(raw, alpha: Float(alpha(cutoff: cutoff)))
    }

    private func alpha(cutoff: Double) -> Double {
        let period = 1 / frequency, tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / period)
    }

    /// A setting as MediaPipe holds it: a proto float field widened to double.
    private static func option(_ value: Double) -> Double { Double(Float(value)) }

    /// A duration in whole nanoseconds, as `absl::ToInt64Nanoseconds` gives it (exact below 2^53 ns).
    private static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds / 1_000_000_000)
    }
}
