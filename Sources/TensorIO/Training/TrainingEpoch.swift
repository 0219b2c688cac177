/// What one epoch of training produced.
public struct TrainingEpoch: Sendable, Hashable {
    /// The epoch's number, from 1.
    public var epoch: Int
    /// How many batches it ran.
    public var batchCount: Int
    /// How many items it trained on.
    public var itemCount: Int
    /// Each single-number training output (the loss, say) averaged over the epoch's batches, in the
    /// order of the training outputs.
    public var means: [(name: String, value: Double)] {
        get { zip(meanNames, meanValues).map { ($0, $1) } }
        set {
            meanNames = newValue.map(\.name)
            meanValues = newValue.map(\.value)
        }
    }
    /// The outputs of the epoch's last batch.
    public var lastOutputs: Outputs
    /// How long the epoch took.
    public var duration: Duration

    private var meanNames: [String]
    private var meanValues: [Double]

    /// Creates an epoch summary.
    ///
    /// - Parameters:
    ///   - epoch: The epoch's number, from 1.
    ///   - batchCount: Batches run.
    ///   - itemCount: Items trained on.
    ///   - means: Single-number outputs averaged over the batches.
    ///   - lastOutputs: The last batch's outputs.
    ///   - duration: How long the epoch took.
    public init(
        epoch: Int, batchCount: Int, itemCount: Int, means: [(name: String, value: Double)], lastOutputs: Outputs,
        duration: Duration
    ) {
        self.epoch = epoch
        self.batchCount = batchCount
        self.itemCount = itemCount
        self.meanNames = means.map(\.name)
        self.meanValues = means.map(\.value)
        self.lastOutputs = lastOutputs
        self.duration = duration
    }

    /// The epoch's mean of the output called `name`, or `nil` when it is not a single number.
    public func mean(_ name: String) -> Double? {
        meanNames.firstIndex(of: name).map { meanValues[$0] }
    }
}
