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

    @Option(help: "How images are fitted to image layers: fill (centre crop), fit (pad) or stretch.")
    var resize: Resize = .fill
}
