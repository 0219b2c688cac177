import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport

/// A model with one image input and at least one labelled output, fed from image files.
struct PhotoClassifier: Sendable {
    let bundle: ModelBundle
    let model: any Model
    let imageLayer: LayerDescription
    let labelledOutputs: [String]
    /// How the image layer's photos are prepared (size, fitting, filter), for decoding them.
    let imageTarget: ImageTarget

    /// - Parameters:
    ///   - concurrentRuns: How many images may run at once (one compiled copy of the model each).
    ///   - preload: Load the model now (else ``loadInBackground()`` or the first run does).
    init(_ options: ModelOptionGroup, images: ImageOptionGroup, concurrentRuns: Int = 1, preload: Bool = true) throws {
        let (bundle, model) = try options.makeModel(
            images: images, concurrentRuns: concurrentRuns,
            defaultThreads: ModelOptionGroup.threadsSharingCores(among: concurrentRuns)
        )
        try self.init(bundle: bundle, model: model, preload: preload)
    }

    /// - Parameter preload: Load the model now (else ``loadInBackground()`` or the first run does).
    init(bundle: ModelBundle, model: any Model, preload: Bool = true) throws {
        self.bundle = bundle
        self.model = model
        guard bundle.predictionInputs.count == 1, bundle.predictionInputs[0].isImage,
              let target = ImageTarget(layer: bundle.predictionInputs[0], configuration: model.configuration)
        else {
            throw CLIError("the model must have exactly one input, an image layer (it has: \(bundle.predictionInputs.map { "\($0.name) (\($0.kindName))" }.joined(separator: ", ")))")
        }
        imageLayer = bundle.predictionInputs[0]
        labelledOutputs = bundle.predictionOutputs.filter { $0.labels != nil }.map(\.name)
        guard !labelledOutputs.isEmpty else {
            throw CLIError("the model has no labelled output (give an output \"labels\" in model.json)")
        }
        imageTarget = target
        if preload { try RuntimeLog.capturing { try model.load() } }
    }

    /// Loads the model on a thread of its own (loading blocks for milliseconds to seconds, so not on
    /// Swift's cooperative pool). Without the tool's own stderr capture: images decode meanwhile on other
    /// threads, whose runs may capture too, and swapping file descriptor 2 from two threads at once could
    /// leave it pointing at a capture file. The library's capture of what LiteRT prints while loading is
    /// serialised and still applies.
    func loadInBackground() -> Task<Void, any Error> {
        let model = self.model
        return Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try model.load() })
                }
            }
        }
    }

    /// Decodes (at reduced size when the file is much larger than the layer) and runs.
    func classify(_ url: URL) throws -> Outputs {
        try model.run(try input(url))
    }

    /// The image file decoded for the model (at reduced size when it is much larger than the layer).
    func input(_ url: URL) throws -> InputValue {
        .image(try PixelBuffer(contentsOf: url, targetSize: imageTarget.decodeSize, resizeMode: imageTarget.resizeMode))
    }

    /// As ``input(_:)`` for a path given on the command line, refusing a folder with a hint.
    @Sendable func input(path: String) throws -> InputValue {
        try input(try InputFileURL.checked(path, .image))
    }
}
