import Foundation
import Testing
@testable import TensorIO
@testable import TensorIOVision
import TensorIOTestSupport

/// Training a head on a base's features, end to end (issue 40): the hand landmarker and the embedder on the
/// gesture photos, on both backends; the same seed giving the same bytes; photos read upright.
@Suite("Classifier training")
struct ClassifierTrainerTests {
    static func handBase() throws -> ModelBundle {
        try ModelBundle(at: LandmarkBundles.bundle("hand-full"), registry: .vision)
    }

    /// Every file of a bundle folder, by relative path.
    static func contents(of folder: URL) throws -> [String: Data] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var contents: [String: Data] = [:]
        while let url = files?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            contents[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
        return contents
    }

    @Test("a hand landmarker's head: every training photo with a hand right, the same bytes from the same seed, classify gives each photo's class",
          TestData.required(GesturePhotos.names), arguments: ClassifierBackend.allCases)
    func handHead(_ backend: ClassifierBackend) async throws {
        let trainer = try ClassifierTrainer(base: Self.handBase())
        let (folder, again) = (try makeTemporaryDirectory(), try makeTemporaryDirectory())
        let options = ClassifierTrainingOptions(backend: backend, seed: 7)
        let events = Events()
        let report = try await trainer.train(
            classes: GesturePhotos.labeled(), options: options, to: folder.appendingPathComponent("mine.tiobundle"), progress: events.record)
        #expect(report.training.accuracy >= 0.95)
        #expect(report.classes.map(\.used) == [5, 6, 7, 7] && report.classes.map(\.given) == [7, 7, 7, 7])
        #expect(report.skipped.map(\.reason) == Array(repeating: "the base finds no hand", count: 3))
        #expect(events.epochs == 200 && events.photos == 28)

        // The same seed, the same bytes; the base is in the bundle, byte for byte.
        _ = try await trainer.train(classes: GesturePhotos.labeled(), options: options, to: again.appendingPathComponent("mine.tiobundle"))
        let first = try Self.contents(of: folder.appendingPathComponent("mine.tiobundle"))
        let second = try Self.contents(of: again.appendingPathComponent("mine.tiobundle"))
        #expect(first == second, "differ: \(first.keys.filter { first[$0] != second[$0] }.sorted())")
        #expect(first.keys.contains("/base.tiobundle/hand_landmark_full.tflite"))

        let classifier = try TrainedClassifier(bundle: ModelBundle(at: folder.appendingPathComponent("mine.tiobundle"), registry: .vision))
        var right = 0
        for group in GesturePhotos.labeled() {
            for photo in group.photos {
                let hands = try classifier.classify(contentsOf: photo)
                if hands.first?.classification.first?.label == group.label { right += 1 }
                #expect(hands.allSatisfy { $0.handedness != nil && $0.box != nil && $0.classification.count == 4 })
            }
        }
        #expect(right >= report.classes.map(\.used).reduce(0, +) * 95 / 100)
    }

    @Test("an embedder's head on both backends: its training photos right, classify gives one answer a photo")
    func embedderHead() async throws {
        let base = try ModelBundle(at: Fixtures.repositoryURL("Examples/efficientnet-lite0-embedding.tiobundle"), registry: .vision)
        let trainer = try ClassifierTrainer(base: base)
        let photos = Fixtures.repositoryURL("Examples/photos")
        let classes = [
            LabeledPhotos(label: "things", photos: ["coffee.jpg", "china.jpg", "flower.jpg"].map(photos.appendingPathComponent)),
            LabeledPhotos(label: "beings", photos: ["cat.jpg", "grace_hopper.jpg"].map(photos.appendingPathComponent)),
        ]
        for backend in ClassifierBackend.allCases {
            let output = try makeTemporaryDirectory().appendingPathComponent("mine.tiobundle")
            let report = try await trainer.train(classes: classes, options: ClassifierTrainingOptions(backend: backend, epochs: 100), to: output)
            #expect(report.features == .embedding && report.featureCount == 1280 && report.training.accuracy == 1)
            let classifier = try TrainedClassifier(bundle: ModelBundle(at: output, registry: .vision))
            let answer = try classifier.classify(contentsOf: photos.appendingPathComponent("cat.jpg"))
            #expect(answer.count == 1 && answer[0].handedness == nil && answer[0].box == nil)
            #expect(answer.first?.classification.first?.label == "beings")
        }
    }

    @Test("photos are read upright: a photo stored turned with an EXIF orientation gives the features of the photo as displayed",
          TestData.required(GesturePhotos.names))
    func upright() throws {
        let extractor = try FeatureExtractor(bundle: Self.handBase())
        let original = try Data(contentsOf: GesturePhotos.labeled()[0].photos[0])
        // An EXIF segment saying "turned 90° clockwise to display" (orientation 6) after the SOI marker.
        let segment: [UInt8] = [0xFF, 0xE1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
                                0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let file = try makeTemporaryDirectory().appendingPathComponent("turned.jpg")
        try (original.prefix(2) + Data(segment) + original.dropFirst(2)).write(to: file)
        var displayed = try PixelBuffer(data: original).orientedUpright()
        displayed.orientation = .right
        let fromFile = try extractor.instances(contentsOf: file)
        let fromPixels = try extractor.instances(in: displayed)
        #expect(!fromFile.isEmpty && fromFile == fromPixels)
        // The box is in the displayed photo's pixels: the stored photo is 512 wide, the displayed one 384.
        #expect(fromFile.allSatisfy { $0.box!.x + $0.box!.width <= 384 + 1 })
    }

    @Test("every compiled-in head decodes to the size and SHA-256 the generating script recorded; a damaged encoding is refused")
    func templates() throws {
        let folder = try makeTemporaryDirectory()
        #expect(Set(ClassifierHeadTemplate.files.map(\.template)) == ["tflite-64", "tflite-2048", "tensorflow-64", "tensorflow-2048"])
        for (index, file) in ClassifierHeadTemplate.files.enumerated() {
            let url = folder.appendingPathComponent("\(index)")
            try file.decoded().write(to: url)
            let digest = Process()
            digest.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            digest.arguments = [url.path]
            let pipe = Pipe()
            digest.standardOutput = pipe
            try digest.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            digest.waitUntilExit()
            #expect(text.hasPrefix(file.sha256 + " "), "\(file.template)/\(file.path)")
        }
        // Records that run past the size, or stop short of it, decode to nothing.
        #expect(ClassifierHeadTemplate.EncodedFile.runLengthDecoded(Data([2, 1, 2, 3]), size: 5) == Data([1, 2, 0, 0, 0]))
        #expect(ClassifierHeadTemplate.EncodedFile.runLengthDecoded(Data([2, 1, 2, 9]), size: 5) == nil)
        #expect(ClassifierHeadTemplate.EncodedFile.runLengthDecoded(Data([9, 1, 2]), size: 5) == nil)
        #expect(ClassifierHeadTemplate.EncodedFile.runLengthDecoded(Data([0x80]), size: 5) == nil)
    }

    @Test("cancelling leaves nothing at the destination, nor the hidden folder the bundle was being made in")
    func cancel() async throws {
        let folder = try makeTemporaryDirectory()
        let output = folder.appendingPathComponent("mine.tiobundle")
        let classes = [LabeledFeatures(label: "a", features: [[0, 1], [0.1, 1.2]]), LabeledFeatures(label: "b", features: [[1, 0], [1.1, 0.1]])]
        let started = AsyncStream<Void>.makeStream()
        let training = Task {
            try await ClassifierTrainer().train(
                features: classes, options: ClassifierTrainingOptions(epochs: ClassifierTrainingOptions.maximumEpochs), to: output
            ) { event in if case .epoch = event { started.continuation.yield() } }
        }
        for await _ in started.stream { break }
        training.cancel()
        await #expect(throws: CancellationError.self) { try await training.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

/// Progress events counted, from the trainer's callback.
final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var epochCount = 0, photoCount = 0
    var epochs: Int { lock.withLock { epochCount } }
    var photos: Int { lock.withLock { photoCount } }

    func record(_ event: ClassifierTrainingProgress) {
        lock.withLock {
            switch event {
            case .epoch: epochCount += 1
            case .photo: photoCount += 1
            case .skipped: break
            }
        }
    }
}
