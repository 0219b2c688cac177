import Foundation

/// Which output answers a classification of sound or text, and its scores in a run's outputs: the first
/// labelled prediction output, else the only prediction output with its elements' indices as labels (as
/// MediaPipe names categories of an output without labels by index).
package enum ClassificationOutput {
    /// The output's name.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) when several outputs and none labelled.
    package static func name(in bundle: ModelBundle) throws -> String {
        let outputs = bundle.predictionOutputs
        if let labelled = outputs.first(where: { $0.labels != nil }) { return labelled.name }
        if outputs.count == 1 { return outputs[0].name }
        throw TensorIOError(
            .unsupported,
            "\(bundle.url.lastPathComponent) has \(outputs.count) outputs and none is labelled: label the classification output (\"labels\" in model.json)",
            location: "outputs"
        )
    }

    /// The scores of `output` in `outputs`, labelled `"0"`, `"1"`, … when the output has no labels.
    package static func scores(of output: String, in outputs: Outputs) throws -> LabeledScores {
        let value = try outputs[output]
        if case .labeled(let labelled) = value.value { return labelled }
        let values = try value.values(as: Float.self)
        return LabeledScores(unchecked: values.indices.map(String.init), scores: values)
    }
}
