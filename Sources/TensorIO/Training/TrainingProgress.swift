/// Progress reported while a ``ModelTrainer`` trains.
public enum TrainingProgress: Sendable {
    /// A batch finished: its number within the epoch (from 1) and the epoch's batch count.
    case batch(epoch: Int, batch: Int, batchCount: Int, outputs: Outputs)
    /// An epoch finished.
    case epoch(TrainingEpoch)
}
