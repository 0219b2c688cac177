import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport

/// Options every command that loads a model shares.
struct ModelOptionGroup: ParsableArguments {
    @Argument(help: "A .tiobundle folder, a .tflite file or a TensorFlow SavedModel folder.")
    var bundle: String

    @Option(name: .long, help: ArgumentHelp(
        "CPU threads the runtime may use for one run (1 to 1024).",
        discussion: "Default 1; classify and eval share the cores among the images they run at once."
    ))
    var threads: Int?

    @Option(name: .customLong("weight-cache"), help: ArgumentHelp(
        "Keep the weights LiteRT prepares for the CPU in this folder, so later runs of the same .tflite model load faster (also TENSORIO_WEIGHT_CACHE).",
        valueName: "folder"
    ))
    var weightCache: String?

    static let maximumThreads = ModelConfiguration.maximumThreadCount

    /// Threads per run when `jobs` runs share the machine's cores: a single image gets every core.
    static func threadsSharingCores(among jobs: Int) -> Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, jobs))
    }

    /// `--weight-cache`, else `TENSORIO_WEIGHT_CACHE`, else none.
    var weightCacheDirectory: URL? {
        let folder = weightCache ?? ProcessInfo.processInfo.environment["TENSORIO_WEIGHT_CACHE"]
        guard let folder, !folder.isEmpty else { return nil }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// Opens the bundle and builds its model.
    ///
    /// - Parameter defaultThreads: The threads per run when `--threads` is not given.
    /// - Parameter images: `--resize` and `--scaling`, when the command takes them.
    func makeModel(
        images: ImageOptionGroup? = nil, concurrentRuns: Int = 1, defaultThreads: Int = 1
    ) throws -> (ModelBundle, any Model) {
        let bundle = try openBundle()
        return (bundle, try makeModel(of: bundle, images: images, concurrentRuns: concurrentRuns, defaultThreads: defaultThreads))
    }

    /// Opens the bundle (a `.tflite` file's is inferred).
    func openBundle() throws -> ModelBundle {
        try ModelBundle.open(URL(fileURLWithPath: bundle), registry: .tool, logger: ToolLog.logger)
    }

    /// Builds the model of a bundle ``openBundle()`` opened, with these options.
    func makeModel(
        of bundle: ModelBundle, images: ImageOptionGroup? = nil, concurrentRuns: Int = 1, defaultThreads: Int = 1
    ) throws -> any Model {
        try bundle.makeModel(configuration: configuration(images: images, concurrentRuns: concurrentRuns, defaultThreads: defaultThreads))
    }

    /// How a model of the bundle runs with these options.
    func configuration(images: ImageOptionGroup? = nil, concurrentRuns: Int = 1, defaultThreads: Int = 1) -> ModelConfiguration {
        ModelConfiguration(
            threadCount: threads ?? defaultThreads, imageResizeMode: images?.resizeMode,
            imageScalingFilter: images?.scalingFilter, maximumConcurrentRuns: concurrentRuns,
            weightCacheDirectory: weightCacheDirectory, logger: ToolLog.logger
        )
    }

    /// Opens the bundle and builds its model as one that trains.
    func makeTrainableModel() throws -> (ModelBundle, any TrainableModel) {
        let bundle = try ModelBundle.open(URL(fileURLWithPath: bundle), registry: .tool, logger: ToolLog.logger)
        return (bundle, try bundle.makeTrainableModel(
            configuration: ModelConfiguration(threadCount: threads ?? 1, logger: ToolLog.logger)
        ))
    }

    mutating func validate() throws {
        guard let threads else { return }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard threads <= Self.maximumThreads else {
            throw ValidationError("--threads must be at most \(Self.maximumThreads)")
        }
    }
}
