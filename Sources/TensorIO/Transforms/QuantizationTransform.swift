/// What ``Quantizer`` and ``Dequantizer`` share: both are a scale and a bias, made from a standard range,
/// from the two numbers themselves, or from a tensor's own scale and zero point.
protocol QuantizationTransform {
    /// The scale.
    var scale: Float { get }
    /// The bias.
    var bias: Float { get }
    /// The transform with this scale and bias (each type's formula says how it applies them).
    init(scale: Float, bias: Float)
    /// The transform for a standard range.
    init(standard range: StandardRange)
    /// The transform matching a tensor's own quantization parameters.
    init(tensorScale: Float, zeroPoint: Int64)
}

extension QuantizationTransform {
    /// The transform a `quantize` or `dequantize` entry describes; `nil` for ``QuantizationSpec/fromTensor``
    /// when the tensor's parameters are not given (or its scale is not positive).
    init?(_ spec: QuantizationSpec, tensorScale: Float? = nil, zeroPoint: Int64 = 0) {
        switch spec {
        case .standard(let range): self.init(standard: range)
        case .scaleAndBias(let scale, let bias): self.init(scale: scale, bias: bias)
        case .fromTensor:
            guard let tensorScale, tensorScale > 0 else { return nil }
            self.init(tensorScale: tensorScale, zeroPoint: zeroPoint)
        }
    }
}
