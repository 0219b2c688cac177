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
        /// A regex tokenizer: the text split at matches of `pattern` (RE2 syntax), each token looked up in
        /// the first vocabulary file (`TOKEN ID` lines).
        case regexTokenizer(pattern: String, vocabularyFiles: [AssociatedFile])
        /// BERT's WordPiece tokenizer, over the first vocabulary file (one token a line).
        case bertTokenizer(vocabularyFiles: [AssociatedFile])
        /// A SentencePiece tokenizer: the first model file is a serialized `ModelProto`.
        case sentencePieceTokenizer(modelFiles: [AssociatedFile], vocabularyFiles: [AssociatedFile])
        /// A unit this reader names but does not detail: `NONE`, or `options type N` for a type from a
        /// newer schema.
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
