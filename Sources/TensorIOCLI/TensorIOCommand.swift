import ArgumentParser

/// `tensorio`: validate, inspect and run Tensor/IO model bundles.
struct TensorIOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tensorio",
        abstract: "Validate, inspect and run Tensor/IO model bundles; serve, push and pull them.",
        subcommands: [
            ValidateCommand.self, InspectCommand.self, RunCommand.self, ClassifyCommand.self, EvalCommand.self,
            BenchCommand.self, ServeCommand.self, PushCommand.self, ModelsCommand.self, PullCommand.self,
            UpdateCommand.self, RollbackCommand.self,
        ]
    )
}
