#if Tools  // built with the Tools trait only (Package.swift)
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

    // Optional, so that a command can tell when it was given (and warn when it has no effect).
    @Option(name: .customLong("resize"), help: "How images are fitted to image layers: fill (centre crop, the default), fit (pad) or stretch.")
    var resizeOption: Resize?

    /// The chosen fitting, `fill` unless given.
    var resize: Resize { resizeOption ?? .fill }

    /// Whether `--resize` was on the command line.
    var resizeGiven: Bool { resizeOption != nil }
}
#endif
