import Foundation
import TensorIO
import TensorIOToolSupport

/// Top-1 accuracy of a classifier on held-out items: the prediction's best label against the item's
/// label (a class index, or a one-hot vector whose 1 marks the class).
///
/// The model must have a labelled prediction output and exactly one input that only training feeds
/// (`train.inputs` in model.json): the label.
struct HeldOutAccuracy {
    struct Result {
        var correct: Int
        var items: Int
        var accuracy: Double { items == 0 ? 0 : Double(correct) / Double(items) }
    }

    private let data: any BatchDataSource
    private let output: LayerDescription
    private let labelLayer: String
    private let predictionKeys: [String]

    init(bundle: ModelBundle, data: any BatchDataSource) throws {
        guard let output = bundle.predictionOutputs.first(where: { $0.labels != nil }) else {
            throw CLIError("--test measures a classifier's accuracy, but no prediction output of this model has labels")
        }
        let predictionKeys = bundle.predictionInputs.names
        let trainingOnly = bundle.inputs.names.filter { !predictionKeys.contains($0) }
        guard trainingOnly.count == 1, let labelLayer = trainingOnly.first else {
            throw CLIError("--test needs exactly one training-only input holding the label (train.inputs in model.json); this model has \(trainingOnly.count)")
        }
        let missing = (predictionKeys + [labelLayer]).filter { !data.keys.contains($0) }
        guard missing.isEmpty else {
            throw CLIError("--test: the held-out data has no values for \(missing.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        self.data = data
        self.output = output
        self.labelLayer = labelLayer
        self.predictionKeys = predictionKeys
    }

    func measure(_ model: any Model, batchSize: Int) throws -> Result {
        let labels = output.labels?.values ?? []
        var correct = 0
        var start = 0
        while start < data.count {
            let end = min(data.count, start + batchSize)
            var batch = Batch(keys: predictionKeys)
            var truth: [Int] = []
            for index in start..<end {
                let item = try data.item(at: index)
                try batch.append(item.filter { predictionKeys.contains($0.key) })
                truth.append(try Self.classIndex(item[labelLayer], item: index))
            }
            for (outputs, expected) in zip(try model.run(batch), truth) {
                let scores = try outputs[output.name].labeled
                if expected < labels.count, scores.top(1).first?.label == labels[expected] { correct += 1 }
            }
            start = end
        }
        return Result(correct: correct, items: data.count)
    }

    private static func classIndex(_ value: InputValue?, item: Int) throws -> Int {
        guard case .numbers(let numbers)? = value, numbers.count > 0 else {
            throw CLIError("--test: item \(item)'s label is not numbers")
        }
        guard let values = numbers.values(as: Double.self) else {
            throw CLIError("--test: item \(item)'s label is not numbers")
        }
        if values.count == 1 { return Int(values[0]) }
        return values.indices.max { values[$0] < values[$1] } ?? 0
    }
}
