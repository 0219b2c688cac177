import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// Training a head on a base's features, end to end (issue 40): the hand landmarker and the embedder on the
/// gesture photos, on both backends.
@Suite("Classifier training")
struct ClassifierTrainerTests {
    @Test("a hand landmarker's head learns the gesture photos on both backends, and classify gives their class",
          TestData.required(GesturePhotos.names), arguments: ClassifierBackend.allCases)
    func handHead(_ backend: ClassifierBackend) async throws {
        let base = try ModelBundle(at: LandmarkBundles.bundle("hand-full"), registry: .vision)
        let trainer = try ClassifierTrainer(base: base)
        let output = try makeTemporaryDirectory().appendingPathComponent("gestures.tiobundle")
        let report = try await trainer.train(classes: GesturePhotos.labeled(), options: ClassifierTrainingOptions(backend: backend), to: output)
        print(report)
        #expect(report.training.accuracy >= 0.95)
        let classifier = try TrainedClassifier(bundle: ModelBundle(at: output, registry: .vision))
        let photo = GesturePhotos.labeled()[0].photos[0]
        let hands = try classifier.classify(contentsOf: photo)
        #expect(hands.first?.classification.first?.label == "call")
    }
}
