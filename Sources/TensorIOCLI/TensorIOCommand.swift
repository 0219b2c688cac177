import ArgumentParser

/// `tensorio`: validate, inspect and run Tensor/IO model bundles.
struct TensorIOCommand: AsyncParsableCommand {
    /// What `tensorio --version` prints.
    static let version = "0.10.0-dev"

    static let configuration = CommandConfiguration(
        commandName: "tensorio",
        abstract: "Validate, inspect, run and train Tensor/IO model bundles; serve, push and pull them.",
        version: TensorIOCommand.version,
        subcommands: [
            InitCommand.self, ValidateCommand.self, InspectCommand.self, RunCommand.self, ClassifyCommand.self, EvalCommand.self,
            BenchCommand.self, TrainCommand.self, ServeCommand.self, PushCommand.self, ModelsCommand.self,
            PullCommand.self, UpdateCommand.self, RollbackCommand.self, RolloutCommand.self, DeleteCommand.self, CollectGarbageCommand.self,
            KeygenCommand.self, VerifyCommand.self,
        ]
    )
}
