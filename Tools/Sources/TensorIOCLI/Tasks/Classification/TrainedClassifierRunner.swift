import Foundation
import TensorIO
import TensorIOVision
import TensorIOToolSupport
import TensorIOVideo

/// `tensorio classify` on a bundle `train-classifier` wrote (a `classifier_head` entry): each photo through
/// the base and the head, `jobs` photos at once on TensorIO's threads, printed in the order given.
///
/// For an embedder base, one classification per photo: `{"images":[{"path":P,"classification":[{"label":L,
/// "score":S}]}]}`. For a hand landmarker base, one per hand, best hand first:
/// `{"images":[{"path":P,"instances":[{"handedness":{"label":L,"score":S},"box":{…},"classification":[…]}]}]}`.
struct TrainedClassifierRunner: Sendable {
    let classifier: TrainedClassifier
    /// The labels shown per photo (or hand), and the score they must be above.
    let top: Int
    let threshold: Float?

    /// Whether each photo's answer is a list of hands.
    var findsHands: Bool { classifier.description.features == .handWorldLandmarks }

    /// What one photo gave: its instances (one for an embedder base), each with its best labels.
    struct PhotoResult: Sendable {
        var instances: [TrainedClassifier.Instance]
    }

    /// Classifies `paths` and prints each as it is ready.
    ///
    /// - Throws: ``InputFailures`` when a photo could not be read or classified (the others are printed).
    func run(paths: [String], jobs: Int, json: Bool) async throws {
        let runner = self
        let results = classifier.head.results(for: paths, concurrency: jobs) { path -> PhotoResult in
            runner.kept(try runner.classifier.classify(contentsOf: InputFileURL.checked(path, .image)))
        }
        let hands = findsHands
        try await PhotoResultPrinter.print(
            results, paths: paths, jsonKey: json ? "images" : nil,
            element: { path, photo in Self.json(path: path, photo, hands: hands) },
            block: { path, photo, first in Self.printBlock(path: path, photo, hands: hands, first: first) }
        )
    }

    /// Classifies each frame of `paths` that `sampling` keeps (``ClipTaskRunner``).
    ///
    /// - Throws: ``InputFailures`` when a video could not be read to its end; `ExitCode(130)` after Ctrl-C.
    func runVideos(_ paths: [String], sampling: VideoSampling, json: Bool) async throws {
        let (runner, hands) = (self, findsHands)
        try await ClipTaskRunner(
            paths: paths, sampling: sampling, json: json, drawing: nil,
            task: { frame, _ in (runner.kept(try runner.classifier.classify(frame.image)), nil) },
            element: { path, photo in Self.json(path: path, photo, hands: hands) },
            block: { heading, photo, first in Self.printBlock(path: heading, photo, hands: hands, first: first) }
        ).run()
    }

    /// The instances with each one's classes cut to the first `top` above the threshold (they come best first).
    func kept(_ instances: [TrainedClassifier.Instance]) -> PhotoResult {
        PhotoResult(instances: instances.map { instance in
            var kept = instance
            let above = threshold.map { threshold in instance.classification.filter { $0.score > threshold } } ?? instance.classification
            kept.classification = Array(above.prefix(top))
            return kept
        })
    }

    static func json(path: String, _ photo: PhotoResult, hands: Bool) -> JSONText.Value {
        guard hands else {
            return .object([("path", .string(path)), ("classification", json(photo.instances.first?.classification ?? []))])
        }
        return .object([
            ("path", .string(path)),
            ("instances", .array(photo.instances.map { instance in
                var members: [(String, JSONText.Value)] = []
                if let handedness = instance.handedness {
                    members.append(("handedness", .object([("label", .string(handedness.label)), ("score", .double(handedness.score))])))
                }
                if let box = instance.box {
                    members.append(("box", .object([
                        ("x", .double(box.x)), ("y", .double(box.y)), ("width", .double(box.width)), ("height", .double(box.height)),
                    ])))
                }
                members.append(("classification", json(instance.classification)))
                return .object(members)
            })),
        ])
    }

    static func json(_ entries: [LabeledScores.Entry]) -> JSONText.Value {
        .array(entries.map { .object([("label", .string($0.label)), ("score", .float($0.score))]) })
    }

    /// ```
    /// photos/a.jpg
    ///   1. call  0.9712
    /// ```
    /// or, for hands, one sub-block per hand:
    /// ```
    /// photos/a.jpg
    ///   hand 1: Right 0.99  (265.9, 349.5) 68.6×52.1
    ///     1. call  0.9712
    /// ```
    static func printBlock(path: String, _ photo: PhotoResult, hands: Bool, first: Bool) {
        if !first { print("") }
        print(path)
        guard hands else {
            printEntries(photo.instances.first?.classification ?? [], indent: "  ")
            return
        }
        for (index, instance) in photo.instances.enumerated() {
            let handedness = instance.handedness.map { " \($0.label) \(String(format: "%.2f", $0.score))" } ?? ""
            let box = instance.box.map { "  \($0)" } ?? ""
            print("  hand \(index + 1):\(handedness)\(box)")
            printEntries(instance.classification, indent: "    ")
        }
        if photo.instances.isEmpty { print("  (no hand found)") }
    }

    private static func printEntries(_ entries: [LabeledScores.Entry], indent: String) {
        let width = entries.map(\.label.count).max() ?? 0
        for (rank, entry) in entries.enumerated() {
            let label = entry.label.padding(toLength: width, withPad: " ", startingAt: 0)
            print("\(indent)\(rank + 1). \(label)  \(String(format: "%.4f", entry.score))")
        }
        if entries.isEmpty { print("\(indent)(no label above the threshold)") }
    }
}
