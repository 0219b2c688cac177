import ArgumentParser

/// `tensorio`: validate, inspect and run Tensor/IO model bundles.
struct TensorIOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tensorio",
        abstract: "Validate, inspect, run and train Tensor/IO model bundles; serve, push and pull them.",
        subcommands: [
            ValidateCommand.self, InspectCommand.self, RunCommand.self, ClassifyCommand.self, EvalCommand.self,
            BenchCommand.self, TrainCommand.self, ServeCommand.self, PushCommand.self, ModelsCommand.self,
            PullCommand.self, UpdateCommand.self, RollbackCommand.self,
        ]
    )
}
