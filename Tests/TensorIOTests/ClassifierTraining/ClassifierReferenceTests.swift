import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// Issue 40, point 3: the hand landmarker's features against MediaPipe's, and the head trained on them at least
/// as accurate as scikit-learn's LogisticRegression on MediaPipe's (Tests/Fixtures/ClassifierTraining, written
/// by scripts/fixtures/make_classifier_references.py), leave-one-out over the 25 photos with a hand.
@Suite("Classifier training: the reference")
struct ClassifierReferenceTests {
    struct Document: Decodable {
        struct Entry: Decodable {
            var name: String
            var `class`: String
            var hand: Bool
            var features: [Float]?
        }
        struct Classifier: Decodable {
            struct LeaveOneOut: Decodable { var accuracy: Double; var right: Int; var total: Int }
            var leave_one_out: LeaveOneOut
        }
        struct Classifiers: Decodable { var raw: Classifier; var standardized: Classifier }
        var entries: [Entry]
        var classifiers: Classifiers
    }

    static let document = Result {
        try JSONDecoder().decode(Document.self, from: Data(contentsOf: Fixtures.repositoryURL("Tests/Fixtures/ClassifierTraining/references.json")))
    }

    /// TensorIO's features of every gesture photo (`nil`: no hand), by name under task-data/gestures/.
    static func tensorIOFeatures() throws -> [String: [Float]?] {
        let extractor = try FeatureExtractor(bundle: ModelBundle(at: LandmarkBundles.bundle("hand-full"), registry: .vision))
        var features: [String: [Float]?] = [:]
        for name in GesturePhotos.names {
            // updateValue: assigning nil through the subscript would remove the key, not record "no hand".
            features.updateValue(try extractor.instances(contentsOf: TestData.url(name)).first?.features, forKey: String(name.dropFirst("task-data/gestures/".count)))
        }
        return features
    }

    @Test("the same hands as MediaPipe, and features within 0.01 of its (world landmarks within about 1 mm)",
          TestData.required(GesturePhotos.names))
    func features() throws {
        let document = try Self.document.get()
        let ours = try Self.tensorIOFeatures()
        var largest: Float = 0
        for entry in document.entries {
            let mine = try #require(ours[entry.name])
            #expect((mine != nil) == entry.hand, "\(entry.name)")
            guard let mine, let theirs = entry.features else { continue }
            largest = max(largest, zip(mine, theirs).map { abs($0 - $1) }.max() ?? 0)
        }
        print("largest feature difference from MediaPipe's: \(largest)")
        #expect(largest < 0.01, "largest difference \(largest)")
    }

    @Test("leave-one-out: the head is right at least as often as scikit-learn's LogisticRegression, on both backends",
          TestData.required(GesturePhotos.names))
    func leaveOneOut() async throws {
        let document = try Self.document.get()
        let reference = document.classifiers.standardized.leave_one_out
        #expect(reference.accuracy >= document.classifiers.raw.leave_one_out.accuracy)
        let ours = try Self.tensorIOFeatures()
        let examples = document.entries.compactMap { entry in ours[entry.name]!.map { (label: entry.class, features: $0) } }
        #expect(examples.count == reference.total)
        let folder = try makeTemporaryDirectory()
        for backend in ClassifierBackend.allCases {
            var right = 0
            for (held, example) in examples.enumerated() {
                let rest = examples.enumerated().filter { $0.offset != held }.map(\.element)
                let classes = GesturePhotos.classes.map { label in
                    LabeledFeatures(label: label, features: rest.filter { $0.label == label }.map(\.features))
                }
                let output = folder.appendingPathComponent("\(backend)-\(held).tiobundle")
                _ = try await ClassifierTrainer().train(features: classes, options: ClassifierTrainingOptions(backend: backend), to: output)
                let best = try TrainedClassifier(bundle: ModelBundle(at: output, registry: .vision)).classify(features: example.features).first
                if best?.label == example.label { right += 1 }
                try FileManager.default.removeItem(at: output)
            }
            print("leave-one-out, \(backend): \(right) of \(examples.count) (scikit-learn: \(reference.right))")
            #expect(right >= reference.right, "\(backend): \(right) of \(examples.count), scikit-learn \(reference.right)")
        }
    }

    @Test("both bases on the gesture photos, a fixed split (seed 0, 30% of each class aside): each gets its training photos right, and only the hand's world landmarks tell the gestures apart",
          TestData.required(GesturePhotos.names), arguments: ClassifierBackend.allCases)
    func bases(_ backend: ClassifierBackend) async throws {
        let options = ClassifierTrainingOptions(backend: backend, validationSplit: 0.3)
        let hand = try await ClassifierTrainer(base: ModelBundle(at: LandmarkBundles.bundle("hand-full"), registry: .vision))
            .train(classes: GesturePhotos.labeled(), options: options, to: makeTemporaryDirectory().appendingPathComponent("hand.tiobundle"))
        let embedder = try await ClassifierTrainer(base: ModelBundle(at: Fixtures.repositoryURL("Examples/efficientnet-lite0-embedding.tiobundle"), registry: .vision))
            .train(classes: GesturePhotos.labeled(), options: options, to: makeTemporaryDirectory().appendingPathComponent("embedder.tiobundle"))
        for (name, report) in [("hand", hand), ("embedder", embedder)] {
            let validation = try #require(report.validation)
            print("\(backend), \(name): training \(report.training.count) photos, accuracy \(report.training.accuracy); validation \(validation.count) photos, accuracy \(validation.accuracy), loss \(validation.loss)")
            #expect(report.training.accuracy >= 0.95)
        }
        #expect(hand.validation!.accuracy > embedder.validation!.accuracy)
    }
}
