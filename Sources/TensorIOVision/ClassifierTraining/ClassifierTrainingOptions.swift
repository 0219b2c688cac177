/// How ``ClassifierTrainer`` trains a head.
public struct ClassifierTrainingOptions: Sendable, Hashable {
    /// The most epochs a training takes.
    public static let maximumEpochs = 100_000

    /// Where the head trains and runs.
    public var backend: ClassifierBackend
    /// Passes over the training items (1 to ``maximumEpochs``).
    public var epochs: Int
    /// The share of each class's items kept aside to measure the head (0 to 0.9); each class keeps at least
    /// one item to train on.
    public var validationSplit: Double
    /// Seeds the validation split and the order of the items: the same seed, items and options give the same
    /// bundle, byte for byte.
    public var seed: UInt64
    /// Items per training step (1 to 65,536).
    public var batchSize: Int
    /// The step size; `nil` for 1 / L, L the largest curvature of the loss (half the largest eigenvalue of
    /// the standardized features' second moment, plus the weight decay), found by power iteration.
    public var learningRate: Double?
    /// Momentum of the gradient descent (0 to 0.99).
    public var momentum: Double
    /// The L2 penalty's weight, `weightDecay / 2 · |W|²` added to the mean cross-entropy; `nil` for 1 / the
    /// training items, which makes the objective scikit-learn's `LogisticRegression(C=1)` divided by their
    /// count.
    public var weightDecay: Double?
    /// Photos read and run through the base at once.
    public var jobs: Int

    /// Creates options.
    ///
    /// - Parameters:
    ///   - backend: Where the head trains and runs.
    ///   - epochs: Passes over the training items.
    ///   - validationSplit: The share of each class kept aside.
    ///   - seed: Seeds the split and the order.
    ///   - batchSize: Items per step.
    ///   - learningRate: The step size; `nil` to derive it from the features.
    ///   - momentum: Momentum of the gradient descent.
    ///   - weightDecay: The L2 penalty's weight; `nil` for 1 / the training items.
    ///   - jobs: Photos read at once.
    public init(
        backend: ClassifierBackend = .tflite, epochs: Int = 200, validationSplit: Double = 0, seed: UInt64 = 0,
        batchSize: Int = 256, learningRate: Double? = nil, momentum: Double = 0.9, weightDecay: Double? = nil, jobs: Int = 1
    ) {
        self.backend = backend
        self.epochs = epochs
        self.validationSplit = validationSplit
        self.seed = seed
        self.batchSize = batchSize
        self.learningRate = learningRate
        self.momentum = momentum
        self.weightDecay = weightDecay
        self.jobs = jobs
    }
}

/// How many photos and classes ``ClassifierTrainer`` takes.
public struct ClassifierTrainingLimits: Sendable, Hashable {
    /// The most photos (or feature rows) in one class.
    public var maximumItemsPerClass: Int
    /// The most photos (or feature rows) in all.
    public var maximumItems: Int
    /// The longest class name, in characters.
    public var maximumLabelLength: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumItemsPerClass: The most photos in one class.
    ///   - maximumItems: The most photos in all.
    ///   - maximumLabelLength: The longest class name.
    public init(maximumItemsPerClass: Int = 10_000, maximumItems: Int = 100_000, maximumLabelLength: Int = 256) {
        self.maximumItemsPerClass = maximumItemsPerClass
        self.maximumItems = maximumItems
        self.maximumLabelLength = maximumLabelLength
    }
}
