public import Foundation
@_spi(Internal) public import TensorIO

/// Trains a classifier of your own classes from a few photos of each, on the device: a base bundle (an
/// image embedder or a hand landmarker) turns every photo into features once, and a softmax-regression head
/// learns them on LiteRT (TensorFlow's on-device training) or on TensorFlow (docs/training-classifiers.md).
/// The bundle written holds the base and the trained head; ``TrainedClassifier`` (and `tensorio classify`)
/// runs it on photos.
///
/// ```swift
/// let base = try ModelBundle(at: URL(filePath: "hand.tiobundle"), registry: .vision)
/// let trainer = try ClassifierTrainer(base: base)
/// let report = try await trainer.train(
///     classes: [try LabeledPhotos(label: "call", folder: URL(filePath: "photos/call")),
///               try LabeledPhotos(label: "rock", folder: URL(filePath: "photos/rock"))],
///     to: URL(filePath: "gestures.tiobundle"))
/// print(report.training.accuracy)
/// ```
///
/// Nothing is left at the destination when training fails or its task is cancelled: the bundle is made in a
/// hidden folder beside it and renamed into place at the end.
public struct ClassifierTrainer: Sendable {
    /// The base, or `nil` for a trainer of given features.
    public let extractor: FeatureExtractor?
    /// How many classes and photos it takes.
    public let limits: ClassifierTrainingLimits

    /// A trainer whose features come from a base bundle.
    ///
    /// - Parameters:
    ///   - base: An image embedder (an `embedding` entry) or a hand landmarker (a `landmarks` entry with
    ///     world landmarks).
    ///   - configuration: Threads, concurrent runs and limits for the base's models; give
    ///     ``ClassifierTrainingOptions/jobs`` concurrent runs to read that many photos at once.
    ///   - registry: The backends and tasks the base's models are built with.
    ///   - limits: How many classes and photos it takes.
    /// - Throws: `TensorIOError` (`TensorIOError/Code/unsupported`) when the base is neither an embedder
    ///   nor a hand landmarker; what opening its models throws.
    public init(
        base: ModelBundle, configuration: ModelConfiguration = ModelConfiguration(), registry: ModelRegistry = .vision,
        limits: ClassifierTrainingLimits = ClassifierTrainingLimits()
    ) throws {
        extractor = try FeatureExtractor(bundle: base, configuration: configuration, registry: registry)
        self.limits = limits
    }

    /// A trainer of feature vectors the caller brings (``train(features:options:to:progress:)``).
    ///
    /// - Parameter limits: How many classes and rows it takes.
    public init(limits: ClassifierTrainingLimits = ClassifierTrainingLimits()) {
        extractor = nil
        self.limits = limits
    }

    /// Runs every photo through the base, trains a head on the features and writes the bundle.
    ///
    /// Photos that cannot be read, or in which the base finds nothing (no hand), are left out, each
    /// reported (``ClassifierTrainingProgress/skipped(_:reason:)`` and the report); a class left with no
    /// photo is an error. For a landmarker, the best hand of each photo is its class's.
    ///
    /// - Parameters:
    ///   - classes: 2 to 100 classes, each with a distinct name and at least one photo.
    ///   - options: The backend, epochs, validation split, seed.
    ///   - destination: The bundle to write, `NAME.tiobundle`; it must not exist (or be an empty folder).
    ///   - progress: Called after each photo and each epoch.
    /// - Returns: What was trained and how well.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/invalidInput` for wrong classes, options or
    ///   destination, or a class none of whose photos gives features; `TensorIOError/Code/limitExceeded`
    ///   past ``limits``; `TensorIOError/Code/unsupported` for a trainer without a base; what the models
    ///   and writing throw. `CancellationError` when the task is cancelled.
    public func train(
        classes: [LabeledPhotos], options: ClassifierTrainingOptions = ClassifierTrainingOptions(), to destination: URL,
        progress: (@Sendable (ClassifierTrainingProgress) -> Void)? = nil
    ) async throws -> ClassifierTrainingReport {
        guard let extractor else {
            throw TensorIOError(.unsupported, "this trainer has no base bundle: give it features (train(features:)), or open it with a base")
        }
        try Self.check(labels: classes.map(\.label), counts: classes.map(\.photos.count), limits: limits)
        try Self.check(options, destination: destination)
        let photos = classes.enumerated().flatMap { index, group in group.photos.map { (index, $0) } }
        let features = try await Self.extract(photos.map(\.1), with: extractor, jobs: options.jobs, progress: progress)
        var rows = Array(repeating: [[Float]](), count: classes.count)
        var skipped: [ClassifierTrainingReport.SkippedPhoto] = []
        for ((index, url), result) in zip(photos, features) {
            switch result {
            case .success(let vector): rows[index].append(vector)
            case .failure(let reason): skipped.append(.init(url: url, reason: reason.text))
            }
        }
        for (group, found) in zip(classes, rows) where found.isEmpty {
            throw TensorIOError(
                .invalidInput,
                "class \"\(group.label)\": the base found \(extractor.features == .handWorldLandmarks ? "no hand" : "nothing") in any of its \(group.photos.count) photo\(group.photos.count == 1 ? "" : "s")")
        }
        return try await HeadTraining(
            labels: classes.map(\.label), rows: rows, given: classes.map(\.photos.count), featureCount: extractor.featureCount,
            features: extractor.features, base: extractor.bundle, options: options, destination: destination, skipped: skipped
        ).run(progress: progress)
    }

    /// Trains a head on feature vectors the caller brings, and writes a bundle without a base
    /// (``ClassifierFeatures/given``): ``TrainedClassifier/classify(features:)`` runs it.
    ///
    /// - Parameters:
    ///   - classes: 2 to 100 classes, each with a distinct name and at least one vector, every vector of
    ///     one length (1 to 2,048) and finite.
    ///   - options: The backend, epochs, validation split, seed.
    ///   - destination: The bundle to write, `NAME.tiobundle`; it must not exist (or be an empty folder).
    ///   - progress: Called after each epoch.
    /// - Returns: What was trained and how well.
    /// - Throws: As ``train(classes:options:to:progress:)``.
    public func train(
        features classes: [LabeledFeatures], options: ClassifierTrainingOptions = ClassifierTrainingOptions(), to destination: URL,
        progress: (@Sendable (ClassifierTrainingProgress) -> Void)? = nil
    ) async throws -> ClassifierTrainingReport {
        try Self.check(labels: classes.map(\.label), counts: classes.map(\.features.count), limits: limits)
        try Self.check(options, destination: destination)
        let width = classes[0].features[0].count
        for group in classes {
            for vector in group.features {
                guard vector.count == width else {
                    throw TensorIOError(.invalidInput, "class \"\(group.label)\": a feature vector has \(vector.count) values, the first has \(width)")
                }
                guard vector.allSatisfy(\.isFinite) else {
                    throw TensorIOError(.invalidInput, "class \"\(group.label)\": a feature value is not a finite number")
                }
            }
        }
        guard width >= 1 else { throw TensorIOError(.invalidInput, "the feature vectors are empty") }
        return try await HeadTraining(
            labels: classes.map(\.label), rows: classes.map(\.features), given: classes.map(\.features.count), featureCount: width,
            features: .given, base: nil, options: options, destination: destination, skipped: []
        ).run(progress: progress)
    }

    // MARK: - Checks

    static func check(labels: [String], counts: [Int], limits: ClassifierTrainingLimits) throws {
        guard labels.count >= 2 else {
            throw TensorIOError(.invalidInput, "a classifier needs at least 2 classes (got \(labels.count))")
        }
        guard labels.count <= ClassifierHeadDescription.maximumClasses else {
            throw TensorIOError(.limitExceeded, "a classifier takes at most \(ClassifierHeadDescription.maximumClasses) classes (got \(labels.count))")
        }
        var seen = Set<String>()
        for (label, count) in zip(labels, counts) {
            guard !label.isEmpty, label.count <= limits.maximumLabelLength,
                  !label.contains(where: { $0.isNewline || $0 == "\0" }), label.trimmingCharacters(in: .whitespaces) == label
            else {
                throw TensorIOError(.invalidInput, "the class name \"\(label.prefix(80))\" must be 1 to \(limits.maximumLabelLength) characters on one line, without leading or trailing spaces")
            }
            guard seen.insert(label).inserted else { throw TensorIOError(.invalidInput, "the class \"\(label)\" is given twice") }
            guard count >= 1 else { throw TensorIOError(.invalidInput, "the class \"\(label)\" has no items") }
            guard count <= limits.maximumItemsPerClass else {
                throw TensorIOError(.limitExceeded, "the class \"\(label)\" has \(count) items; a class takes at most \(limits.maximumItemsPerClass) (maximumItemsPerClass)")
            }
        }
        let total = counts.reduce(0) { $0 &+ $1 }
        guard total <= limits.maximumItems else {
            throw TensorIOError(.limitExceeded, "the classes have \(total) items in all; at most \(limits.maximumItems) (maximumItems)")
        }
    }

    static func check(_ options: ClassifierTrainingOptions, destination: URL) throws {
        guard (1...ClassifierTrainingOptions.maximumEpochs).contains(options.epochs) else {
            throw TensorIOError(.invalidInput, "epochs must be 1 to \(ClassifierTrainingOptions.maximumEpochs), got \(options.epochs)")
        }
        guard (0...0.9).contains(options.validationSplit) else {
            throw TensorIOError(.invalidInput, "the validation split must be 0 to 0.9, got \(options.validationSplit)")
        }
        guard (1...65_536).contains(options.batchSize) else {
            throw TensorIOError(.invalidInput, "the batch size must be 1 to 65536, got \(options.batchSize)")
        }
        guard (0...0.99).contains(options.momentum) else {
            throw TensorIOError(.invalidInput, "the momentum must be 0 to 0.99, got \(options.momentum)")
        }
        if let rate = options.learningRate, !(rate > 0 && rate <= 1e6) {
            throw TensorIOError(.invalidInput, "the learning rate must be more than 0 and at most 10^6, got \(rate)")
        }
        if let decay = options.weightDecay, !(decay >= 0 && decay <= 1e6) {
            throw TensorIOError(.invalidInput, "the weight decay must be 0 to 10^6, got \(decay)")
        }
        guard (1...64).contains(options.jobs) else { throw TensorIOError(.invalidInput, "jobs must be 1 to 64, got \(options.jobs)") }
        try HeadTraining.checkDestination(destination)
    }

    // MARK: - Features

    /// Each photo's features (its best instance's), or why it has none, in the order given; `jobs` photos at
    /// once on TensorIO's threads.
    static func extract(
        _ urls: [URL], with extractor: FeatureExtractor, jobs: Int, progress: (@Sendable (ClassifierTrainingProgress) -> Void)?
    ) async throws -> [Result<[Float], SkipReason>] {
        var results = Array(repeating: Result<[Float], SkipReason>.failure(SkipReason("not read")), count: urls.count)
        try await withThrowingTaskGroup(of: (Int, Result<[Float], SkipReason>).self) { group in
            var next = 0
            func start() {
                let index = next, url = urls[index]
                next += 1
                group.addTask {
                    do {
                        let instances = try await RunThreads.shared.perform { _ in try extractor.instances(contentsOf: url, maximumInstances: 1) }
                        guard let first = instances.first else {
                            return (index, .failure(SkipReason(extractor.features == .handWorldLandmarks ? "the base finds no hand" : "the base finds nothing")))
                        }
                        return (index, .success(first.features))
                    } catch let error as TensorIOError where [.invalidImage, .io, .limitExceeded].contains(error.code) {
                        return (index, .failure(SkipReason(error.description)))
                    }
                }
            }
            for _ in 0..<min(jobs, urls.count) { start() }
            var done = 0
            while let (index, result) = try await group.next() {
                try Task.checkCancellation()
                results[index] = result
                done += 1
                if case .failure(let reason) = result { progress?(.skipped(urls[index], reason: reason.text)) }
                progress?(.photo(done: done, total: urls.count))
                if next < urls.count { start() }
            }
        }
        return results
    }

    /// Why a photo gave no features.
    struct SkipReason: Error, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }
}
