import ArgumentParser
import Foundation
import TensorIO

/// Options every command that loads a model shares.
struct ModelOptionGroup: ParsableArguments {
    @Argument(help: "A .tiobundle folder, a .tflite file or a TensorFlow SavedModel folder.")
    var bundle: String

    @Option(name: .long, help: "CPU threads the runtime may use (1 to 1024).")
    var threads: Int = 1

    @Option(name: .customLong("weight-cache"), help: ArgumentHelp(
        "Keep the weights LiteRT prepares for the CPU in this folder, so later runs of the same .tflite model load faster (also TENSORIO_WEIGHT_CACHE).",
        valueName: "folder"
    ))
    var weightCache: String?

    static let maximumThreads = ModelConfiguration.maximumThreadCount

    /// `--weight-cache`, else `TENSORIO_WEIGHT_CACHE`, else none.
    var weightCacheDirectory: URL? {
        let folder = weightCache ?? ProcessInfo.processInfo.environment["TENSORIO_WEIGHT_CACHE"]
        guard let folder, !folder.isEmpty else { return nil }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// Opens the bundle and builds its model.
    func makeModel(resizeMode: ImageResizeMode = .aspectFill, concurrentRuns: Int = 1) throws -> (ModelBundle, any Model) {
        let bundle = try ModelBundle.open(URL(fileURLWithPath: bundle), logger: ToolLog.logger)
        let model = try bundle.makeModel(
            configuration: ModelConfiguration(
                threadCount: threads, imageResizeMode: resizeMode, maximumConcurrentRuns: concurrentRuns,
                weightCacheDirectory: weightCacheDirectory, logger: ToolLog.logger
            )
        )
        return (bundle, model)
    }

    /// Opens the bundle and builds its model as one that trains.
    func makeTrainableModel() throws -> (ModelBundle, any TrainableModel) {
        let bundle = try ModelBundle.open(URL(fileURLWithPath: bundle), logger: ToolLog.logger)
        return (bundle, try bundle.makeTrainableModel(
            configuration: ModelConfiguration(threadCount: threads, logger: ToolLog.logger)
        ))
    }

    mutating func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard threads <= Self.maximumThreads else {
            throw ValidationError("--threads must be at most \(Self.maximumThreads)")
        }
    }
}
