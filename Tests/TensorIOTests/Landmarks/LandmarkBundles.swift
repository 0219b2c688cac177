import Foundation
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// The landmark bundles `tensorio init DETECTOR LANDMARKS --landmarker NAME` writes for MediaPipe 0.10.21's
/// models, assembled for a test: the committed `model.json` files of `Tests/Fixtures/Landmarks/bundles/`
/// (regenerate with the command in that folder's README) and the models of the wheel's `mediapipe/modules/`
/// (`make setup-zoo`), copied into a temporary folder.
enum LandmarkBundles {
    static let fixtures = Fixtures.repositoryURL("Tests/Fixtures/Landmarks/bundles")
    static let modules = Fixtures.repositoryURL(".build/zoo/mediapipe-modules")

    /// A copy of the bundle `name` (`hand-full`, `hand-lite`, `face`, `pose`) with its two models.
    static func bundle(_ name: String) throws -> URL {
        let destination = try makeTemporaryDirectory().appendingPathComponent("\(name).tiobundle")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("\(name).tiobundle"), to: destination)
        for folder in [destination, destination.appendingPathComponent(MediaPipeLandmarker.detectorFolder)] {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("model.json"))) as? [String: Any]
            guard let file = (json?["model"] as? [String: Any])?["file"] as? String else { throw TestFailure("\(folder.path): no model.file") }
            // The wheel keeps palm_detection_full.tflite in palm_detection/, and so on: the first two words.
            let module = file.split(separator: ".")[0].split(separator: "_").prefix(2).joined(separator: "_")
            try FileManager.default.copyItem(
                at: modules.appendingPathComponent(module).appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        return destination
    }

    /// A landmarker over a copy of the bundle `name`.
    static func landmarker(_ name: String, configuration: ModelConfiguration = ModelConfiguration()) throws -> Landmarker {
        try Landmarker(bundle: ModelBundle(at: bundle(name), registry: .vision), configuration: configuration)
    }
}
