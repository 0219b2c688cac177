import ArgumentParser
import TensorIOToolSupport

/// `tensorio-repository`: serve, publish, install and sign model versions. Usually run as `tensorio
/// COMMAND`, which hands these commands over to this program, so its help and messages name `tensorio`.
struct RepositoryToolCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tensorio",
        abstract: "Serve, push and pull Tensor/IO model bundles, manage their rollouts, sign and verify releases.",
        discussion: """
            These are the repository commands of tensorio, in a program of their own so that the model \
            commands do not load the networking libraries; run them as `tensorio COMMAND`.
            """,
        version: ToolVersion.current,
        subcommands: [
            ServeCommand.self, PushCommand.self, ModelsCommand.self, PullCommand.self, UpdateCommand.self,
            RollbackCommand.self, RolloutCommand.self, DeleteCommand.self, CollectGarbageCommand.self,
            KeygenCommand.self, VerifyCommand.self,
        ]
    )
}
