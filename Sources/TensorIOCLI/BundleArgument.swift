import ArgumentParser
import Foundation
import TensorIO

/// Options every command that loads a model shares.
struct ModelOptionGroup: ParsableArguments {
    @Argument(help: "A .tiobundle folder, a .tflite file or a TensorFlow SavedModel folder.")
    var bundle: String

    @Option(name: .long, help: "CPU threads the runtime may use (1 to 1024).")
    var threads: Int = 1

    static let maximumThreads = ModelConfiguration.maximumThreadCount

    /// Opens the bundle and builds its model.
    func makeModel(resizeMode: ImageResizeMode = .aspectFill, concurrentRuns: Int = 1) throws -> (ModelBundle, any Model) {
        let bundle = try ModelBundle.open(URL(fileURLWithPath: bundle), logger: ToolLog.logger)
        let model = try bundle.makeModel(
            configuration: ModelConfiguration(
                threadCount: threads, imageResizeMode: resizeMode, maximumConcurrentRuns: concurrentRuns,
                logger: ToolLog.logger
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
