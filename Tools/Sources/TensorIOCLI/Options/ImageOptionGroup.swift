import ArgumentParser
import TensorIO

/// How images are fitted to image layers.
struct ImageOptionGroup: ParsableArguments {
    enum Resize: String, ExpressibleByArgument, CaseIterable {
        case fill, fit, stretch

        var mode: ImageResizeMode {
            switch self {
            case .fill: return .aspectFill
            case .fit: return .aspectFit
            case .stretch: return .stretch
            }
        }
    }

    enum Scaling: String, ExpressibleByArgument, CaseIterable {
        case box, bilinear
        case libyuvBilinear = "libyuv-bilinear"

        var filter: ImageScalingFilter {
            switch self {
            case .box: return .box
            case .bilinear: return .bilinear
            case .libyuvBilinear: return .libyuvBilinear
            }
        }
    }

    // Optional, so that a command can tell when it was given (and warn when it has no effect).
    @Option(name: .customLong("resize"), help: "How images are fitted to image layers: fill (centre crop), fit (pad) or stretch. Default: the layer's \"resize\" in model.json, else fill.")
    var resizeOption: Resize?

    @Option(name: .customLong("scaling"), help: "How images are resampled to image layers: box (an area average), bilinear (OpenCV's, as MediaPipe) or libyuv-bilinear (as the TFLite Task Library). Default: the layer's \"scaling\" in model.json, else box.")
    var scalingOption: Scaling?

    /// The fitting given on the command line; `nil` for each layer's own.
    var resizeMode: ImageResizeMode? { resizeOption?.mode }

    /// The filter given on the command line; `nil` for each layer's own.
    var scalingFilter: ImageScalingFilter? { scalingOption?.filter }

    /// Whether `--resize` or `--scaling` was on the command line.
    var resizeGiven: Bool { resizeOption != nil || scalingOption != nil }
}
