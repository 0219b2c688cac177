import TensorIOToolSupport

/// `tensorio`: a repository command goes to `tensorio-repository` before anything is parsed; every
/// other command runs here.
@main
enum Main {
    static func main() async {
        RepositoryHandover.handOverIfRepositoryCommand(CommandLine.arguments)
        await ToolMain.run(TensorIOCommand.self)
    }
}
