/// How an array layer's floats map to quantized integers, as written in `quantize` or `dequantize`.
public enum QuantizationSpec: Sendable, Hashable {
    /// `{"standard": "[0,1]"}` or `{"standard": "[-1,1]"}`.
    case standard(StandardRange)
    /// `{"scale": s, "bias": b}`, with the original's formulas: quantize `(v + b) × s`,
    /// dequantize `q × s + b`.
    case scaleAndBias(scale: Float, bias: Float)
    /// `{"from": "tensor"}`: the scale and zero point the model stores on the tensor itself.
    case fromTensor
}
