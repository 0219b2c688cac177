public import Foundation

/// A model that can learn: it runs its training operations on a batch and writes what it learnt.
public protocol TrainableModel: Model {
    /// Runs one training step on a batch: feeds every input layer from the batch and the placeholders,
    /// runs the training operations (`train.ops`), and returns the training outputs (the loss, say).
    ///
    /// - Parameters:
    ///   - batch: Items with a value for every input layer the training uses.
    ///   - placeholders: Values for `placeholders` layers, such as a learning rate.
    /// - Returns: The training outputs, each over the whole batch.
    /// - Throws: ``TensorIOError`` when the model does not train (model.modes), a value does not fit, or
    ///   the runtime fails.
    func train(_ batch: Batch, placeholders: [String: InputValue]) throws -> Outputs

    /// Takes one training step without blocking the calling task's thread.
    ///
    /// - Parameters:
    ///   - batch: Items with a value for every input layer the training uses.
    ///   - placeholders: Values for `placeholders` layers, such as a learning rate.
    /// - Returns: The training outputs, each over the whole batch.
    /// - Throws: `CancellationError` when the task is cancelled before the step starts; otherwise as
    ///   `train(_:placeholders:)`.
    func train(_ batch: Batch, placeholders: [String: InputValue]) async throws -> Outputs

    /// Writes a copy of the bundle whose model holds the weights learnt so far; opening that bundle gives
    /// the trained model.
    ///
    /// - Parameter directory: Where the new bundle goes, named `NAME.tiobundle`; it must not exist yet (or
    ///   be an empty folder).
    /// - Throws: ``TensorIOError`` when the name does not end in `.tiobundle`, the folder exists and is not
    ///   empty, or writing fails. Nothing is left at `directory` when it fails.
    func export(to directory: URL) throws
}

extension TrainableModel {
    /// Runs one training step on a batch without placeholders.
    ///
    /// - Parameter batch: Items with a value for every input layer the training uses.
    /// - Returns: The training outputs.
    /// - Throws: ``TensorIOError`` as `train(_:placeholders:)` does.
    public func train(_ batch: Batch) throws -> Outputs {
        try train(batch, placeholders: [:])
    }

    /// Takes one training step without placeholders, without blocking the calling task's thread.
    ///
    /// - Parameter batch: Items with a value for every input layer the training uses.
    /// - Returns: The training outputs.
    /// - Throws: As `train(_:placeholders:)` does.
    public func train(_ batch: Batch) async throws -> Outputs {
        try await train(batch, placeholders: [:])
    }

    /// Runs the synchronous `train(_:placeholders:)` on TensorIO's threads.
    public func train(_ batch: Batch, placeholders: [String: InputValue]) async throws -> Outputs {
        try await RunThreads.shared.perform { _ in try self.train(batch, placeholders: placeholders) }
    }
}
