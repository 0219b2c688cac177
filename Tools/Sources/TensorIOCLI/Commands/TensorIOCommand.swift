import ArgumentParser
import TensorIOToolSupport

/// `tensorio`: validate, inspect, run and train Tensor/IO model bundles; the repository commands are
/// listed here and run by `tensorio-repository` (``RepositoryHandover``).
struct TensorIOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tensorio",
        abstract: "Validate, inspect, run and train Tensor/IO model bundles; serve, push and pull them.",
        discussion: """
            The repository subcommands are run by \(RepositoryCommand.programName), which `make build-server` \
            puts next to tensorio.
            """,
        version: ToolVersion.current,
        groupedSubcommands: [
            CommandGroup(
                name: "Model",
                subcommands: [
                    InitCommand.self, ValidateCommand.self, InspectCommand.self, RunCommand.self, ClassifyCommand.self, DetectCommand.self, SegmentCommand.self, LandmarksCommand.self, EmbedCommand.self, SimilarCommand.self,
                    EvalCommand.self, BenchCommand.self, TrainCommand.self, TrainClassifierCommand.self,
                ]
            ),
            CommandGroup(
                name: "Repository",
                subcommands: RepositoryHandover.listedCommands
            ),
        ]
    )
}
