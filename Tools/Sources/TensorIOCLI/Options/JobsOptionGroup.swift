import ArgumentParser
import Foundation
import TensorIOToolSupport

/// `--jobs N`, for the commands that run a list of inputs (classify, detect, segment, embed, similar, eval):
/// how many are decoded and run at once, each on a compiled copy of the model. Declared, checked and
/// counted here alone.
struct JobsOptionGroup: ParsableArguments {
    /// The jobs a command may be asked for: one per input at most, and no more copies of a model than a
    /// machine's cores could keep busy.
    static let allowed = 1...64

    @Option(help: "Inputs decoded and run at once, on as many compiled copies of the model (default: one per core).")
    var jobs: Int?

    func validate() throws {
        if let jobs, !Self.allowed.contains(jobs) {
            throw ValidationError("--jobs must be between \(Self.allowed.lowerBound) and \(Self.allowed.upperBound)")
        }
    }

    /// The jobs asked for, else one per core.
    var requested: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// How many of `inputs` run at once: the jobs asked for, no more than there are inputs, at least one.
    func count(for inputs: Int) -> Int { max(1, min(requested, inputs)) }

    /// Says that `--jobs`, when given, does nothing for videos: their frames run in order, one at a time.
    func warnUnusedForVideos() {
        if jobs != nil { warn("--jobs has no effect on videos: their frames run one after another, on one copy of the model with every core") }
    }
}
