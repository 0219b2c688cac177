import ArgumentParser

/// `tensorio`: validate, inspect and run Tensor/IO model bundles.
struct TensorIOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tensorio",
        abstract: "Validate, inspect and run Tensor/IO model bundles.",
        subcommands: [ValidateCommand.self, InspectCommand.self, RunCommand.self, ClassifyCommand.self, EvalCommand.self, BenchCommand.self]
    )
}
