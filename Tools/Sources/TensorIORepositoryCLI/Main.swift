import TensorIOToolSupport

/// `tensorio-repository`: the repository commands, which `tensorio` hands over to this program.
@main
enum Main {
    static func main() async {
        await ToolMain.run(RepositoryToolCommand.self)
    }
}
