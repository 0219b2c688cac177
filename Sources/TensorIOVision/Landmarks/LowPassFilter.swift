/// MediaPipe's `LowPassFilter` (mediapipe/util/filtering): an exponential moving average in single
/// precision, as MediaPipe keeps it, so that a filter fed MediaPipe's numbers gives MediaPipe's numbers to the
/// last bit. The first sample is kept as it is.
struct LowPassFilter: Sendable, Hashable {
    /// The last sample given, or `nil` before the first.
    private(set) var lastRaw: Float?
    private var stored: Float = 0

    /// The filtered value of `value`: `alpha` of it and the rest of the previous result.
    ///
    /// MediaPipe computes `alpha * value + (1.0 - alpha) * stored`: the first product in float, the second
    /// (its `1.0` a double literal) and the sum in double, the result rounded to float; so here.
    mutating func callAsFunction(_ value: Float, alpha: Float) -> Float {
        let result = lastRaw == nil ? value : Float(Double(alpha * value) + (1 - Double(alpha)) * Double(stored))
        lastRaw = value
        stored = result
        return result
    }
}
