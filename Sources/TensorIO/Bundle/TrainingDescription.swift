/// The `train` entry of `model.json`: how the model trains.
///
/// ```json
/// "train": { "ops": ["train"], "inputs": ["label"], "outputs": ["loss", "accuracy"] }
/// ```
///
/// `inputs` and `outputs` are an addition to the original's schema for bundles that both predict and
/// train: they name the layers that exist only for training (labels fed, a loss fetched), which a
/// prediction then leaves out. Without them, training and prediction use every layer, as in the original.
public struct TrainingDescription: Sendable, Hashable {
    /// The operations (TensorFlow) or the signature (TensorFlow Lite) run for a training step (`ops`).
    public var operations: [String]
    /// Input layers fed only when training, such as labels (`inputs`).
    public var trainingOnlyInputs: [String]
    /// Output layers fetched only when training, such as the loss (`outputs`). When empty, training
    /// fetches every output.
    public var trainingOnlyOutputs: [String]

    /// Creates a description.
    ///
    /// - Parameters:
    ///   - operations: The training operations or signature.
    ///   - trainingOnlyInputs: Input layer names fed only when training.
    ///   - trainingOnlyOutputs: Output layer names fetched only when training.
    public init(operations: [String], trainingOnlyInputs: [String] = [], trainingOnlyOutputs: [String] = []) {
        self.operations = operations
        self.trainingOnlyInputs = trainingOnlyInputs
        self.trainingOnlyOutputs = trainingOnlyOutputs
    }
}

extension ModelBundle {
    /// The input layers a prediction takes: every input except those only training feeds.
    public var predictionInputs: LayerList {
        guard let excluded = training?.trainingOnlyInputs, !excluded.isEmpty else { return inputs }
        return LayerList(inputs.filter { !excluded.contains($0.name) })
    }

    /// The output layers a prediction returns: every output except those only training fetches.
    public var predictionOutputs: LayerList {
        guard let excluded = training?.trainingOnlyOutputs, !excluded.isEmpty else { return outputs }
        return LayerList(outputs.filter { !excluded.contains($0.name) })
    }

    /// The output layers a training step returns: those `train.outputs` names, else every output.
    public var trainingOutputs: LayerList {
        guard let names = training?.trainingOnlyOutputs, !names.isEmpty else { return outputs }
        return LayerList(outputs.filter { names.contains($0.name) })
    }
}
