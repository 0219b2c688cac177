#if Tools  // built with the Tools trait only (Package.swift)
import TensorIOToolSupport

/// `tensorio-repository`: the repository commands, which `tensorio` hands over to this program.
@main
enum Main {
    static func main() async {
        await ToolMain.run(RepositoryToolCommand.self)
    }
}
#else
import Foundation

/// `tensorio-repository` built without the Tools trait (a plain `swift build`): the tool's dependencies are not in the
/// build, so it says how to build it and fails.
@main
enum Main {
    static func main() {
        FileHandle.standardError.write(Data("error: tensorio-repository was built without the Tools trait: build it with `swift build --traits Tools` (make build does)\n".utf8))
        exit(1)
    }
}
#endif
