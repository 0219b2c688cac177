#if Tools  // built with the Tools trait only (Package.swift)
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
#else
import Foundation

/// `tensorio` built without the Tools trait (a plain `swift build`): the tool's dependencies are not in the
/// build, so it says how to build it and fails.
@main
enum Main {
    static func main() {
        FileHandle.standardError.write(Data("error: tensorio was built without the Tools trait: build it with `swift build --traits Tools` (make build does)\n".utf8))
        exit(1)
    }
}
#endif
