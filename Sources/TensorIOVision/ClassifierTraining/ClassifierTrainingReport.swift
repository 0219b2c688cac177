public import Foundation

/// What a ``ClassifierTrainer`` run did: the bundle it wrote, the items per class, the photos it skipped
/// and how well the head does on its training and validation items.
public struct ClassifierTrainingReport: Sendable, Hashable {
    /// One class's items.
    public struct ClassSummary: Sendable, Hashable {
        /// The class name.
        public var label: String
        /// The photos (or feature rows) given.
        public var given: Int
        /// Those the base found something in.
        public var used: Int
        /// Those trained on.
        public var training: Int
        /// Those kept aside.
        public var validation: Int
    }

    /// A photo left out, and why.
    public struct SkippedPhoto: Sendable, Hashable {
        /// The photo.
        public var url: URL
        /// Why: it could not be read, or the base found nothing in it.
        public var reason: String
    }

    /// The head measured on a set of items.
    public struct Evaluation: Sendable, Hashable {
        /// The share of items whose best class is theirs.
        public var accuracy: Double
        /// The mean cross-entropy.
        public var loss: Double
        /// The items.
        public var count: Int
    }

    /// The bundle written.
    public var bundleURL: URL
    /// What the features are.
    public var features: ClassifierFeatures
    /// How many values they have.
    public var featureCount: Int
    /// Where the head trained.
    public var backend: ClassifierBackend
    /// Per class, in the order given.
    public var classes: [ClassSummary]
    /// The photos left out, in the order given.
    public var skipped: [SkippedPhoto]
    /// The epochs trained.
    public var epochs: Int
    /// The step size and weight decay used.
    public var learningRate: Double
    /// The L2 penalty's weight used.
    public var weightDecay: Double
    /// The head on its training items.
    public var training: Evaluation
    /// The head on the items kept aside; `nil` when none were.
    public var validation: Evaluation?
}

/// Progress reported while a ``ClassifierTrainer`` trains.
public enum ClassifierTrainingProgress: Sendable {
    /// A photo went through the base (or was skipped): how many of how many so far.
    case photo(done: Int, total: Int)
    /// A photo was left out, and why.
    case skipped(URL, reason: String)
    /// An epoch finished, with its mean loss.
    case epoch(Int, of: Int, loss: Double)
}

/// A class's name and its photos.
public struct LabeledPhotos: Sendable, Hashable {
    /// The class name.
    public var label: String
    /// The photos (JPEG or PNG files).
    public var photos: [URL]

    /// Creates a class.
    ///
    /// - Parameters:
    ///   - label: The class name.
    ///   - photos: Its photos.
    public init(label: String, photos: [URL]) {
        self.label = label
        self.photos = photos
    }
}

/// A class's name and its feature vectors, for a head without a base.
public struct LabeledFeatures: Sendable, Hashable {
    /// The class name.
    public var label: String
    /// The feature vectors, all of one length.
    public var features: [[Float]]

    /// Creates a class.
    ///
    /// - Parameters:
    ///   - label: The class name.
    ///   - features: Its feature vectors.
    public init(label: String, features: [[Float]]) {
        self.label = label
        self.features = features
    }
}
