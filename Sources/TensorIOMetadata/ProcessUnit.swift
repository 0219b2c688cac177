extension TFLiteMetadata {
    /// A processing step to apply outside the graph, before an input or after an output (the metadata
    /// schema's `ProcessUnit`).
    package enum ProcessUnit: Sendable, Hashable {
        /// Per-channel normalization, `(x − mean) / std`; a single value applies to every channel.
        case normalization(mean: [Float], std: [Float])
        /// Sigmoid score calibration, with parameters in an associated file of type
        /// ``AssociatedFile/FileType/tensorAxisScoreCalibration``.
        case scoreCalibration(transformation: ScoreTransformation, defaultScore: Float)
        /// Results scoring below `globalThreshold` are low-confidence and should be dropped.
        case scoreThresholding(globalThreshold: Float)
        /// A unit this reader names but does not detail: `BertTokenizerOptions`,
        /// `SentencePieceTokenizerOptions`, `RegexTokenizerOptions`, `NONE`, or `options type N` for a
        /// type from a newer schema.
        case other(name: String)
    }

    /// The transform applied to a score before calibration.
    package enum ScoreTransformation: Sendable, Hashable {
        /// `g(x) = x` (also any value this reader does not know).
        case identity
        /// `g(x) = log(x)`.
        case log
        /// `g(x) = log(x) − log(1 − x)`.
        case inverseLogistic
    }
}
