/// Turns pixel bytes into floats for an image input layer: `p × scale[colour] + bias[colour]`.
///
/// Its memberwise `init(scale:bias:)` computes `p × scale[colour] + bias[colour]`; a `normalize` entry makes
/// one with ``PixelTransform/init(_:)``: a standard range maps a pixel byte as it maps a quantized byte
/// (``Dequantizer/init(standard:)``).
struct PixelNormalizer: PixelTransform, Sendable, Hashable {
    typealias StandardTransform = Dequantizer

    /// Multiplies the pixel value, by colour.
    public var scale: ChannelValues = 1
    /// Added after scaling, by colour.
    public var bias: ChannelValues = 0

    /// Normalizes one channel value of a pixel. The bias is chosen by colour, not by tensor position, so
    /// BGR layers get each colour's own bias (the original applied the red bias to blue).
    @inlinable
    public func callAsFunction(_ value: UInt8, channel: ColorChannel) -> Float {
        Self.fused(value, scale[channel], bias[channel])
    }

    /// `value × scale + bias` rounded once, as a fused multiply-add gives it — what OpenCV's `convertTo`
    /// (MediaPipe's `ImageToTensorCalculator`, a [-1, 1] range) computes with its FMA instructions, and what
    /// `CPixelTensor` computes for a float tensor (the same bits: the tests compare them). With no bias it is
    /// the plain `Float` product, as before.
    @inlinable
    static func fused(_ value: UInt8, _ scale: Float, _ bias: Float) -> Float {
        bias.addingProduct(Float(value), scale)
    }

    /// ``fused(_:_:_:)`` for every byte, indexed by it: a pixel loop looks each value up rather than calling
    /// the fused multiply-add per value (a library call where the build does not assume the FMA instruction).
    static func table(scale: Float, bias: Float) -> [Float] {
        (0...255).map { fused(UInt8($0), scale, bias) }
    }
}
