import Foundation

/// MediaPipe's one-euro filter (`OneEuroFilter` of its `LandmarksSmoothingCalculator`), on one number: a
/// low-pass filter whose cutoff rises with the number's speed, so slow jitter is smoothed and fast motion
/// followed. The speed is scaled by `valueScale` (one over the instance's size), so the filter behaves
/// alike on large and small instances.
struct OneEuroFilter: Sendable, Hashable {
    var settings: TrackingRule.Smoothing
    /// The frequency in hertz: the settings' until two samples give one, then one over their interval.
    private var frequency: Double
    private var lastTime: Duration?
    // MediaPipe's LowPassFilter keeps its numbers in floats (its last raw value, its result, its alpha).
    private var lastRaw: Float?
    private var value: Float?
    private var speed: Float?

    init(_ settings: TrackingRule.Smoothing) {
        self.settings = settings
        frequency = settings.frequency
    }

    /// The filtered value of `raw` at `time` (later than the last sample's; an earlier or equal time, or a
    /// number that is not finite, passes the value through unfiltered and leaves the filter as it was, as
    /// MediaPipe does with a time that does not advance). MediaPipe's arithmetic: the speed and the cutoffs
    /// in doubles, the two low-pass filters in floats (`LowPassFilter::Apply(float)`).
    mutating func callAsFunction(_ raw: Double, at time: Duration, valueScale: Double) -> Double {
        guard raw.isFinite, valueScale.isFinite else { return raw }
        if let lastTime {
            guard time > lastTime else { return raw }
            // frequency_ = 1.0 / ((new_timestamp - last_time_) * kNanoSecondsToSecond): times 1e-9, which
            // rounds otherwise than a division by 1e9.
            frequency = 1 / (Double((time - lastTime) / .nanoseconds(1)) * 1e-9)
        }
        lastTime = time
        let change = lastRaw.map { (raw - Double($0)) * valueScale * frequency } ?? 0
        // The options are floats in MediaPipe's proto (min_cutoff 0.01 is 0.0099999998), used as doubles.
        let smoothedSpeed = Self.lowPass(&speed, Float(change), alpha: Float(alpha(cutoff: Double(Float(settings.derivativeCutoff)))))
        let cutoff = Double(Float(settings.minimumCutoff)) + Double(Float(settings.beta)) * abs(Double(smoothedSpeed))
        lastRaw = Float(raw)
        return Double(Self.lowPass(&value, Float(raw), alpha: Float(alpha(cutoff: cutoff))))
    }

    private func alpha(cutoff: Double) -> Double {
        let period = 1 / frequency, tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / period)
    }

    /// MediaPipe's `LowPassFilter::ApplyWithAlpha`: the first sample is kept as it is; then
    /// `alpha_ * value + (1.0 - alpha_) * stored_value_` — a float product plus a double one, kept as a float.
    private static func lowPass(_ stored: inout Float?, _ sample: Float, alpha: Float) -> Float {
        let result = stored.map { Float(Double(alpha * sample) + (1 - Double(alpha)) * Double($0)) } ?? sample
        stored = result
        return result
    }
}
