import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// Issue 40, point 5: empty folders, one class, a class of one photo, thousands of classes, unreadable photos,
/// a base that is neither an embedder nor a landmarker, a folder of too many files, a wrong `classifier_head`
/// entry: a clear error or a bounded result, and nothing written after a failure.
@Suite("Classifier training: hostile input")
struct ClassifierTrainingHostileTests {
    static let pair = [LabeledFeatures(label: "a", features: [[0, 1], [0.2, 0.9]]), LabeledFeatures(label: "b", features: [[1, 0], [0.9, 0.1]])]

    static func error(_ body: () async throws -> Void) async -> TensorIOError? {
        do { try await body() } catch let error as TensorIOError { return error } catch { Issue.record("not a TensorIOError: \(error)") }
        return nil
    }

    @Test("wrong classes: one, 101, 10,000, a name twice, a name on two lines, a class without items, vectors of two lengths or not finite")
    func classes() async throws {
        let folder = try makeTemporaryDirectory()
        let output = folder.appendingPathComponent("mine.tiobundle")
        let many = (0..<10_000).map { LabeledFeatures(label: "c\($0)", features: [[Float($0)]]) }
        let cases: [([LabeledFeatures], TensorIOError.Code, String)] = [
            (Array(Self.pair.prefix(1)), .invalidInput, "at least 2 classes"),
            (Array(many.prefix(101)), .limitExceeded, "at most 100 classes"),
            (many, .limitExceeded, "at most 100 classes"),
            ([Self.pair[0], Self.pair[0]], .invalidInput, "given twice"),
            ([Self.pair[0], LabeledFeatures(label: "b\nc", features: [[1, 0]])], .invalidInput, "on one line"),
            ([Self.pair[0], LabeledFeatures(label: "b", features: [])], .invalidInput, "has no items"),
            ([Self.pair[0], LabeledFeatures(label: "b", features: [[1, 0, 0]])], .invalidInput, "the first has 2"),
            ([Self.pair[0], LabeledFeatures(label: "b", features: [[.nan, 0]])], .invalidInput, "not a finite number"),
            ([LabeledFeatures(label: "a", features: [Array(repeating: 0, count: 2049)]), LabeledFeatures(label: "b", features: [Array(repeating: 1, count: 2049)])],
             .limitExceeded, "at most 2048"),
        ]
        for (classes, code, message) in cases {
            let error = await Self.error { _ = try await ClassifierTrainer().train(features: classes, to: output) }
            #expect(error?.code == code && error?.message.contains(message) == true, "\(message): \(String(describing: error))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("a class of one item trains (it stays on the training side of a split); wrong options are refused before any work")
    func smallest() async throws {
        let folder = try makeTemporaryDirectory()
        let classes = [LabeledFeatures(label: "a", features: [[0, 1]]), LabeledFeatures(label: "b", features: [[1, 0], [0.9, 0.2], [1, 0.1]])]
        let report = try await ClassifierTrainer().train(
            features: classes, options: ClassifierTrainingOptions(epochs: 50, validationSplit: 0.5), to: folder.appendingPathComponent("one.tiobundle"))
        #expect(report.classes.map(\.training) == [1, 2] && report.classes.map(\.validation) == [0, 1] && report.training.accuracy == 1)
        for (options, message) in [(ClassifierTrainingOptions(epochs: 0), "epochs"), (ClassifierTrainingOptions(validationSplit: 1), "validation split"),
                                   (ClassifierTrainingOptions(learningRate: -1), "learning rate"), (ClassifierTrainingOptions(jobs: 0), "jobs")] {
            let error = await Self.error { _ = try await ClassifierTrainer().train(features: Self.pair, options: options, to: folder.appendingPathComponent("x.tiobundle")) }
            #expect(error?.code == .invalidInput && error?.message.contains(message) == true, "\(String(describing: error))")
        }
        for (name, message) in [("x.bundle", "NAME.tiobundle"), ("one.tiobundle", "already exists")] {
            let error = await Self.error { _ = try await ClassifierTrainer().train(features: Self.pair, to: folder.appendingPathComponent(name)) }
            #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["one.tiobundle"])
    }

    @Test("folders: empty, not a folder, more photos than the limit, a flood of other files; unreadable photos are skipped, each with its reason")
    func folders() async throws {
        let folder = try makeTemporaryDirectory()
        let files = FileManager.default
        let empty = folder.appendingPathComponent("empty")
        try files.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(throws: TensorIOError.self) { try LabeledPhotos(label: "e", folder: empty) }
        #expect(throws: TensorIOError.self) { try LabeledPhotos(label: "e", folder: folder.appendingPathComponent("missing")) }
        let crowded = folder.appendingPathComponent("crowded")
        try files.createDirectory(at: crowded, withIntermediateDirectories: true)
        for index in 0..<40 { try Data().write(to: crowded.appendingPathComponent("\(index).jpg")) }
        let limits = ClassifierTrainingLimits(maximumItemsPerClass: 10)
        #expect { try LabeledPhotos(label: "c", folder: crowded, limits: limits) } throws: { ($0 as? TensorIOError)?.code == .limitExceeded }
        let flooded = folder.appendingPathComponent("flooded")
        try files.createDirectory(at: flooded, withIntermediateDirectories: true)
        for index in 0..<40 { try Data().write(to: flooded.appendingPathComponent("\(index).txt")) }
        #expect { try LabeledPhotos(label: "f", folder: flooded, limits: limits) } throws: { ($0 as? TensorIOError)?.code == .limitExceeded }

        // A folder of links to photos kept elsewhere is a folder of those photos; a link to a folder is not a photo.
        let linked = folder.appendingPathComponent("linked")
        try files.createDirectory(at: linked, withIntermediateDirectories: true)
        let cat = Fixtures.repositoryURL("Examples/photos/cat.jpg")
        try files.createSymbolicLink(at: linked.appendingPathComponent("cat.jpg"), withDestinationURL: cat)
        try files.createSymbolicLink(at: linked.appendingPathComponent("folder.jpg"), withDestinationURL: empty)
        #expect(try LabeledPhotos(label: "l", folder: linked).photos.map(\.lastPathComponent) == ["cat.jpg"])

        // Two readable photos and two that are not: the broken ones are skipped with the decoder's reason.
        let photos = Fixtures.repositoryURL("Examples/photos")
        let broken = folder.appendingPathComponent("broken.jpg"), truncated = folder.appendingPathComponent("truncated.jpg")
        try Data("not a JPEG".utf8).write(to: broken)
        try Data(contentsOf: photos.appendingPathComponent("cat.jpg")).prefix(600).write(to: truncated)
        let base = try ModelBundle(at: Fixtures.repositoryURL("Examples/efficientnet-lite0-embedding.tiobundle"), registry: .vision)
        let report = try await ClassifierTrainer(base: base).train(
            classes: [LabeledPhotos(label: "cat", photos: [photos.appendingPathComponent("cat.jpg"), broken]),
                      LabeledPhotos(label: "cup", photos: [photos.appendingPathComponent("coffee.jpg"), truncated])],
            options: ClassifierTrainingOptions(epochs: 20), to: folder.appendingPathComponent("mine.tiobundle"))
        #expect(report.skipped.map(\.url) == [broken, truncated] && report.skipped.allSatisfy { !$0.reason.isEmpty })
        #expect(report.classes.map(\.used) == [1, 1])

        // A class whose every photo is unreadable: an error, nothing written.
        let error = await Self.error {
            _ = try await ClassifierTrainer(base: base).train(
                classes: [LabeledPhotos(label: "cat", photos: [photos.appendingPathComponent("cat.jpg")]), LabeledPhotos(label: "cup", photos: [broken])],
                to: folder.appendingPathComponent("none.tiobundle"))
        }
        #expect(error?.message.contains("class \"cup\"") == true)
        #expect(!files.fileExists(atPath: folder.appendingPathComponent("none.tiobundle").path))
    }

    @Test("a base that is neither an embedder nor a hand landmarker, and a landmarker that is not a hand's, are refused")
    func wrongBase() throws {
        let classifier = try ModelBundle(at: Fixtures.repositoryURL("Examples/efficientnet-lite0-float32.tiobundle"), registry: .vision)
        #expect { try ClassifierTrainer(base: classifier) } throws: { ($0 as? TensorIOError)?.code == .unsupported }
        let face = try ModelBundle(at: LandmarkBundles.bundle("face"), registry: .vision)
        #expect { try ClassifierTrainer(base: face) } throws: { ($0 as? TensorIOError)?.message.contains("hand landmarker") == true }
    }

    @Test("a wrong classifier_head entry is one error per problem, each at its JSON path")
    func entry() async throws {
        let folder = try makeTemporaryDirectory()
        let bundle = folder.appendingPathComponent("given.tiobundle")
        _ = try await ClassifierTrainer().train(features: Self.pair, options: ClassifierTrainingOptions(epochs: 5), to: bundle)
        #expect(try ModelBundle(at: bundle, registry: .vision).classifierHead?.labels == ["a", "b"])
        let json = bundle.appendingPathComponent("model.json")
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as! [String: Any]
        let cases: [([String: Any], String)] = [
            (["features": "photo"], "classifier_head.features"),
            (["features": "embedding"], "classifier_head.base"),
            (["base": "../elsewhere"], "classifier_head.base"),
            (["feature_count": 5000], "classifier_head.feature_count"),
            (["feature_count": 2.5], "classifier_head.feature_count"),
            (["input": "image"], "classifier_head.input"),
            (["labels": "missing.txt"], "classifier_head.labels"),
            (["extra": true], "classifier_head.extra"),
        ]
        for (change, path) in cases {
            var document = original
            var entry = document["classifier_head"] as! [String: Any]
            entry.merge(change) { $1 }
            document["classifier_head"] = entry
            try JSONSerialization.data(withJSONObject: document).write(to: json)
            let error = #expect(throws: TensorIOError.self) { try ModelBundle(at: bundle, registry: .vision) }
            #expect(error?.issues.contains { $0.path == path } == true, "\(path): \(String(describing: error))")
        }
        // Too many class names for the head, and a base that is not in the bundle.
        try JSONSerialization.data(withJSONObject: original).write(to: json)
        try Data((0..<101).map { "c\($0)" }.joined(separator: "\n").utf8).write(to: bundle.appendingPathComponent("assets/labels.txt"))
        let labels = #expect(throws: TensorIOError.self) { try ModelBundle(at: bundle, registry: .vision) }
        #expect(labels?.issues.contains { $0.path == "classifier_head.labels" } == true)
    }
}
