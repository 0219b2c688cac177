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
    private var lastRaw: Double?
    private var value: Double?
    private var speed: Double?

    init(_ settings: TrackingRule.Smoothing) {
        self.settings = settings
        frequency = settings.frequency
    }

    /// The filtered value of `raw` at `time` (later than the last sample's; an earlier or equal time, or a
    /// number that is not finite, passes the value through unfiltered and leaves the filter as it was, as
    /// MediaPipe does with a time that does not advance).
    mutating func callAsFunction(_ raw: Double, at time: Duration, valueScale: Double) -> Double {
        guard raw.isFinite, valueScale.isFinite else { return raw }
        if let lastTime {
            guard time > lastTime else { return raw }
            let seconds = Double((time - lastTime) / .nanoseconds(1)) / 1e9
            frequency = 1 / seconds
        }
        lastTime = time
        let change = lastRaw.map { (raw - $0) * valueScale * frequency } ?? 0
        let smoothedSpeed = Self.lowPass(&speed, change, alpha: alpha(cutoff: settings.derivativeCutoff))
        let cutoff = settings.minimumCutoff + settings.beta * abs(smoothedSpeed)
        lastRaw = raw
        return Self.lowPass(&value, raw, alpha: alpha(cutoff: cutoff))
    }

    private func alpha(cutoff: Double) -> Double {
        let period = 1 / frequency, tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / period)
    }

    /// MediaPipe's `LowPassFilter::ApplyWithAlpha`: the first sample is kept as it is.
    private static func lowPass(_ stored: inout Double?, _ sample: Double, alpha: Double) -> Double {
        let result = stored.map { alpha * sample + (1 - alpha) * $0 } ?? sample
        stored = result
        return result
    }
}
