import Foundation
@_spi(Internal) import TensorIO

/// One head trained and written: the split, the features' standardization, the step size, the training on
/// the backend, the measurements and the bundle, made in a hidden folder beside the destination and renamed
/// into place at the end (removed on any failure or cancellation).
struct HeadTraining {
    let labels: [String]
    /// Each class's feature vectors, in the order given.
    let rows: [[[Float]]]
    /// Each class's photos (or rows) given.
    let given: [Int]
    let featureCount: Int
    let features: ClassifierFeatures
    let base: ModelBundle?
    let options: ClassifierTrainingOptions
    let destination: URL
    let skipped: [ClassifierTrainingReport.SkippedPhoto]

    /// The base's folder inside the bundle written.
    static let baseFolder = "base.tiobundle"
    static let labelsFile = "labels.txt"

    func run(progress: (@Sendable (ClassifierTrainingProgress) -> Void)?) async throws -> ClassifierTrainingReport {
        let template = try ClassifierHeadTemplate(backend: options.backend, featureCount: featureCount)
        let (training, validation) = split()
        let statistics = FeatureStatistics(training.map(\.features), featureCount: featureCount)
        let weightDecay = options.weightDecay ?? 1 / Double(training.count)
        let learningRate = options.learningRate ?? statistics.learningRate(weightDecay: weightDecay)

        let files = FileManager.default
        let destination = destination.standardizedFileURL
        let parent = destination.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
        do {
            try files.createDirectory(at: staging, withIntermediateDirectories: true)
            let untrained = staging.appendingPathComponent("untrained.tiobundle")
            try writeBundle(untrained, template: template, entry: false)
            try template.writeModel(into: untrained)
            // One thread: the same seed then gives the same sums in the same order, so the same bytes.
            let head = try ModelBundle(at: untrained).makeTrainableModel(configuration: ModelConfiguration(threadCount: 1))
            let padding = template.featureCapacity - featureCount
            func item(_ example: Example) -> Batch.Item {
                var label = [Float](repeating: 0, count: ClassifierHeadTemplate.classCapacity)
                label[example.classIndex] = 1
                return [ClassifierHeadTemplate.featuresLayer: .numbers(.float32(example.features + repeatElement(0, count: padding))),
                        "label": .numbers(.float32(label))]
            }
            var mask = [Float](repeating: -1e9, count: ClassifierHeadTemplate.classCapacity)
            for index in labels.indices { mask[index] = 0 }
            let placeholders: [String: InputValue] = [
                "learning_rate": .numbers(.float32([Float(learningRate)])), "momentum": .numbers(.float32([Float(options.momentum)])),
                "weight_decay": .numbers(.float32([Float(weightDecay)])), "class_mask": .numbers(.float32(mask)),
                "feature_mean": .numbers(.float32(statistics.mean + repeatElement(0, count: padding))),
                "feature_scale": .numbers(.float32(statistics.scale + repeatElement(0, count: padding))),
            ]
            let epochs = options.epochs
            let trainer = ModelTrainer(
                model: head, data: InMemoryBatchDataSource(try Batch(training.map(item))), epochs: epochs,
                batchSize: min(options.batchSize, training.count), shuffle: true, placeholders: placeholders, seed: options.seed
            )
            try await trainer.train { event in
                if case .epoch(let summary) = event { progress?(.epoch(summary.epoch, of: epochs, loss: summary.mean("loss") ?? .nan)) }
            }
            let trainingScore = try evaluate(head, on: training, padding: padding)
            let validationScore = try validation.isEmpty ? nil : evaluate(head, on: validation, padding: padding)

            let written = staging.appendingPathComponent(destination.lastPathComponent)
            try head.export(to: written)
            try writeBundle(written, template: template, entry: true)
            if let base {
                try files.copyItem(at: base.url, to: written.appendingPathComponent(Self.baseFolder, isDirectory: true))
            }
            // What is written must open as what it claims to be before it takes the destination's name.
            guard try ModelBundle(at: written, registry: .vision).classifierHead != nil else {
                throw TensorIOError(.invalidBundle, "the bundle written has no classifier_head entry")
            }
            // Cancelled while the bundle was being written: it does not take the destination's name.
            try Task.checkCancellation()
            try Self.checkDestination(destination)
            if files.fileExists(atPath: destination.path) { try files.removeItem(at: destination) }
            try files.moveItem(at: written, to: destination)
            try? files.removeItem(at: staging)
            return ClassifierTrainingReport(
                bundleURL: destination, features: features, featureCount: featureCount, backend: options.backend,
                classes: labels.indices.map { index in
                    .init(label: labels[index], given: given[index], used: rows[index].count,
                          training: training.count { $0.classIndex == index }, validation: validation.count { $0.classIndex == index })
                },
                skipped: skipped, epochs: epochs, learningRate: learningRate, weightDecay: weightDecay,
                training: trainingScore, validation: validationScore)
        } catch {
            try? files.removeItem(at: staging)
            if error is TensorIOError || error is CancellationError { throw error }
            throw TensorIOError(.io, "writing \(destination.path) failed: \(error.localizedDescription)")
        }
    }

    // MARK: - Steps

    struct Example {
        let classIndex: Int
        let features: [Float]
    }

    /// Each class's items, shuffled by the seed, the first `validationSplit` of them (rounded down, leaving at
    /// least one) kept aside; both sets in class order.
    func split() -> (training: [Example], validation: [Example]) {
        var generator = SplitMix64(seed: options.seed)
        var training: [Example] = [], validation: [Example] = []
        for (classIndex, vectors) in rows.enumerated() {
            var order = Array(vectors.indices)
            order.shuffle(using: &generator)
            let aside = min(Int(Double(vectors.count) * options.validationSplit), vectors.count - 1)
            for (position, index) in order.enumerated() {
                let example = Example(classIndex: classIndex, features: vectors[index])
                if position < aside { validation.append(example) } else { training.append(example) }
            }
        }
        return (training, validation)
    }

    /// Accuracy and mean cross-entropy of the head's predictions.
    func evaluate(_ head: any TrainableModel, on examples: [Example], padding: Int) throws -> ClassifierTrainingReport.Evaluation {
        var right = 0
        var loss = 0.0
        for example in examples {
            let input = InputValue.named([ClassifierHeadTemplate.featuresLayer: .numbers(.float32(example.features + repeatElement(0, count: padding)))])
            let probabilities = Array(try head.run(input)[ClassifierHeadTemplate.probabilitiesLayer].values(as: Float.self).prefix(labels.count))
            guard probabilities.count == labels.count else {
                throw TensorIOError.outputMismatch("the head gives \(probabilities.count) scores for \(labels.count) classes", output: ClassifierHeadTemplate.probabilitiesLayer)
            }
            let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] } ?? 0
            if best == example.classIndex { right += 1 }
            loss -= log(max(Double(probabilities[example.classIndex]), 1e-12))
        }
        return .init(accuracy: Double(right) / Double(examples.count), loss: loss / Double(examples.count), count: examples.count)
    }

    /// Writes `model.json` and the labels; with `entry`, the `classifier_head` entry too (the bundle being
    /// trained has none: its base is not in it yet).
    func writeBundle(_ folder: URL, template: ClassifierHeadTemplate, entry: Bool) throws {
        let name = destination.deletingPathExtension().lastPathComponent
        var document = template.modelJSONLayers
        document["name"] = name
        document["id"] = name
        document["version"] = "1"
        document["author"] = "tensorio train-classifier"
        document["license"] = base?.license ?? ""
        let source = base.map { "\(features.rawValue) features of \($0.url.lastPathComponent)" } ?? "\(featureCount) given features"
        document["details"] = "A classification head trained on \(source): \(labels.count) classes (assets/\(Self.labelsFile))."
        document["model"] = ["file": template.modelPath, "backend": template.backend.rawValue, "quantized": false, "modes": ["predict", "train"]] as [String: Any]
        if entry {
            var head: [String: Any] = [
                "features": features.rawValue, "feature_count": featureCount, "input": ClassifierHeadTemplate.featuresLayer,
                "output": ClassifierHeadTemplate.probabilitiesLayer, "labels": Self.labelsFile,
            ]
            if base != nil { head["base"] = Self.baseFolder }
            document[ClassifierHeadTask.entryKey] = head
        }
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try (data + Data("\n".utf8)).write(to: folder.appendingPathComponent("model.json"))
        try Data((labels.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("assets").appendingPathComponent(Self.labelsFile))
    }

    /// The destination must be named `NAME.tiobundle` and be free (missing, or an empty folder).
    static func checkDestination(_ destination: URL) throws {
        guard destination.pathExtension == "tiobundle", destination.lastPathComponent.count > ".tiobundle".count else {
            throw TensorIOError(.invalidInput, "write the classifier into a folder named NAME.tiobundle (got \(destination.lastPathComponent))")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            let contents = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: destination.path)) : nil
            guard let contents, contents.isEmpty else {
                throw TensorIOError(.io, "\(destination.path) already exists and is not an empty folder; give a new one")
            }
        }
    }
}
