import Foundation

/// Trains a model over a data source for a number of epochs, in batches.
///
/// Each epoch visits every item once, in `ceil(count / batchSize)` batches (the last may be smaller).
/// With `shuffle`, the order is drawn again at the start of every epoch — the original shuffled once
/// per call, so every epoch saw the same batches. Training stops between batches when the task is
/// cancelled.
///
/// ```swift
/// let trainer = ModelTrainer(model: model, data: InMemoryBatchDataSource(batch), epochs: 10, batchSize: 32)
/// let epochs = try await trainer.train { progress in
///     if case .epoch(let epoch) = progress { print(epoch.epoch, epoch.mean("loss") ?? .nan) }
/// }
/// ```
public struct ModelTrainer: Sendable {
    /// The model to train.
    public var model: any TrainableModel
    /// Where the items come from.
    public var data: any BatchDataSource
    /// How many passes over the data.
    public var epochs: Int
    /// Items per training step.
    public var batchSize: Int
    /// Whether to visit the items in a new random order every epoch.
    public var shuffle: Bool
    /// Values for the model's placeholders, such as a learning rate, fed with every batch.
    public var placeholders: [String: InputValue]
    /// Seeds the shuffling so that a run can be repeated; `nil` draws a seed from the system.
    public var seed: UInt64?

    /// Creates a trainer.
    ///
    /// - Parameters:
    ///   - model: The model to train.
    ///   - data: The training items.
    ///   - epochs: Passes over the data, at least 1.
    ///   - batchSize: Items per step, at least 1.
    ///   - shuffle: Whether to reshuffle the items every epoch.
    ///   - placeholders: Placeholder values fed with every batch.
    ///   - seed: A seed for repeatable shuffles.
    public init(
        model: any TrainableModel, data: any BatchDataSource, epochs: Int = 1, batchSize: Int = 32,
        shuffle: Bool = true, placeholders: [String: InputValue] = [:], seed: UInt64? = nil
    ) {
        self.model = model
        self.data = data
        self.epochs = epochs
        self.batchSize = batchSize
        self.shuffle = shuffle
        self.placeholders = placeholders
        self.seed = seed
    }

    /// Trains for ``epochs`` epochs.
    ///
    /// The training task runs on TensorIO's threads (as the built-in models' steps do), so reading the
    /// batches, the steps and `progress` run there, off Swift's cooperative pool.
    ///
    /// - Parameter progress: Called after every batch and every epoch, on the training task.
    /// - Returns: A summary per epoch.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/invalidInput``) for a count below 1 or an empty
    ///   data source; whatever the model or the data source throws; `CancellationError` when the task is
    ///   cancelled (the model keeps what it learnt so far).
    @discardableResult
    public func train(progress: (@Sendable (TrainingProgress) -> Void)? = nil) async throws -> [TrainingEpoch] {
        guard epochs >= 1 else { throw TensorIOError.invalidInput("epochs must be at least 1, got \(epochs)") }
        guard batchSize >= 1 else { throw TensorIOError.invalidInput("the batch size must be at least 1, got \(batchSize)") }
        let count = data.count
        guard count > 0 else { throw TensorIOError.invalidInput("the training data has no items") }
        // The training task runs on TensorIO's threads, where the built-in models' steps then run without
        // moving to them and back: that hop woke two threads per step, which on two cores took longer
        // than a small model's step. The task still suspends and is cancelled as any other.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return try await withTaskExecutorPreference(RunThreads.shared.executor) {
                try await trainEpochs(count: count, progress: progress)
            }
        }
        return try await trainEpochs(count: count, progress: progress)
    }

    private func trainEpochs(count: Int, progress: (@Sendable (TrainingProgress) -> Void)?) async throws -> [TrainingEpoch] {
        var generator = SplitMix64(seed: seed ?? UInt64.random(in: .min ... .max))
        var order = Array(0..<count)
        let batchCount = (count + batchSize - 1) / batchSize
        var summaries: [TrainingEpoch] = []
        let clock = ContinuousClock()

        for epoch in 1...epochs {
            let start = clock.now
            if shuffle { order.shuffle(using: &generator) }
            var sums: [String: Double] = [:]
            var names: [String] = []
            var lastOutputs = Outputs([])
            for batchIndex in 0..<batchCount {
                try Task.checkCancellation()
                let indices = Array(order[(batchIndex * batchSize)..<min(count, (batchIndex + 1) * batchSize)])
                let batch = try data.batch(at: indices)
                let outputs = try await model.train(batch, placeholders: placeholders)
                for output in outputs {
                    // Averages are kept for single-number outputs (losses, accuracies), not tensors.
                    guard let value = output.singleDouble else { continue }
                    if sums[output.name] == nil { names.append(output.name) }
                    sums[output.name, default: 0] += value
                }
                lastOutputs = outputs
                progress?(.batch(epoch: epoch, batch: batchIndex + 1, batchCount: batchCount, outputs: outputs))
            }
            let summary = TrainingEpoch(
                epoch: epoch, batchCount: batchCount, itemCount: count,
                means: names.map { ($0, sums[$0, default: 0] / Double(batchCount)) },
                lastOutputs: lastOutputs, duration: clock.now - start
            )
            summaries.append(summary)
            progress?(.epoch(summary))
            // Once an epoch, not after every step: on TensorIO's threads a yield hands the task to the
            // next free one, a thread hop per step again.
            await Task.yield()
        }
        return summaries
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), so shuffles can be repeated.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
