/// How an image layer's pixel bytes map to floats, as written in `normalize` or `denormalize`.
public enum NormalizationSpec: Sendable, Hashable {
    /// `{"standard": "[0,1]"}` or `{"standard": "[-1,1]"}`.
    case standard(StandardRange)
    /// `{"scale": s, "bias": {"r": …, "g": …, "b": …}}`: normalize `p × scale[colour] + bias[colour]`,
    /// denormalize `(v + bias[colour]) × scale[colour]`. The scale (one number, or one per colour) defaults
    /// to 1 and each bias to 0. A per-colour scale is what a per-channel mean and standard deviation
    /// become: `(p − mean) / std` is `p × (1/std) + (−mean/std)`.
    case scaleAndBias(scale: ChannelValues, bias: ChannelValues)
}

/// A number literal is the same value for every colour: `.scaleAndBias(scale: 2, bias: 0)`.
extension ChannelValues: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public init(floatLiteral value: Float) {
        self.init(all: value)
    }

    public init(integerLiteral value: Int) {
        self.init(all: Float(value))
    }
}
