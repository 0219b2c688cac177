/// What ``PixelNormalizer`` and ``PixelDenormalizer`` share: a scale and a bias by colour, made from a
/// `normalize` or `denormalize` entry.
protocol PixelTransform {
    /// The transform of quantized bytes whose standard ranges the pixel transform's are: a pixel byte
    /// stands for the same float as a quantized byte.
    associatedtype StandardTransform: QuantizationTransform

    /// The transform with this scale and bias (each type's formula says how it applies them).
    init(scale: ChannelValues, bias: ChannelValues)
}

extension PixelTransform {
    /// Creates the transform a `normalize` or `denormalize` entry describes.
    init(_ spec: NormalizationSpec) {
        switch spec {
        case .standard(let range):
            let bytes = StandardTransform(standard: range)
            self.init(scale: ChannelValues(all: bytes.scale), bias: ChannelValues(all: bytes.bias))
        case .scaleAndBias(let scale, let bias): self.init(scale: scale, bias: bias)
        }
    }
}
