import Foundation

extension ModelBundle {
    /// The output that answers a classification of sound or text: the first labelled prediction output,
    /// else the only prediction output (whose scores ``Outputs/classificationScores(of:)`` labels by index,
    /// as MediaPipe names the categories of an output without labels).
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/unsupported``) when several outputs and none labelled.
    package func classificationOutputName() throws -> String {
        let outputs = predictionOutputs
        if let labelled = outputs.first(where: { $0.labels != nil }) { return labelled.name }
        if outputs.count == 1 { return outputs[0].name }
        throw TensorIOError(
            .unsupported,
            "\(url.lastPathComponent) has \(outputs.count) outputs and none is labelled: label the classification output (\"labels\" in model.json)",
            location: "outputs"
        )
    }
}

extension Outputs {
    /// The scores of the classification output `output`, labelled `"0"`, `"1"`, … when it has no labels.
    ///
    /// - Throws: ``TensorIOError`` when there is no such output or it holds no numbers.
    package func classificationScores(of output: String) throws -> LabeledScores {
        let value = try self[output]
        if case .labeled(let labelled) = value.value { return labelled }
        let values = try value.values(as: Float.self)
        return LabeledScores(unchecked: values.indices.map(String.init), scores: values)
    }
}
