import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio rollback ID --into DIR`
struct RollbackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.rollback.name,
        abstract: RepositoryCommand.rollback.abstract,
        discussion: """
            Works offline, on the local model store only. The version that was current becomes the previous \
            one, so a second rollback undoes the first. Prints "ID: rolled back FROM -> TO", then the \
            bundle's path.
            """
    )

    @Argument(help: "The model id.")
    var id: String

    @Option(help: "The local model store.")
    var into: String

    func run() throws {
        let store = try ModelStore(directory: URL(fileURLWithPath: into), logger: ToolLog.logger)
        let before = try store.current(id)
        let now = try store.rollback(id)
        print("\(id): rolled back \(before?.version ?? "(none)") -> \(now.version)")
        print(now.bundleURL.path)
    }
}
