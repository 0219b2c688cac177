#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import TensorIO
import TensorIOToolSupport
import TensorIOIsolation
import TensorIOSupport

/// Hands the repository commands (`tensorio pull …`, `tensorio help pull`) over to `tensorio-repository`,
/// which replaces this process (`execv`) with the same arguments: its exit status, output and signals are
/// the command's own.
///
/// Those commands need the delivery client and the server, whose networking libraries would cost every
/// `tensorio` process about 10 ms to load (docs/performance.md); this program does not link them.
enum RepositoryHandover {
    /// Replaces the process with `tensorio-repository` when `arguments` (the program's own, its name
    /// first) name a repository command; returns otherwise. Ends the process with one `error:` line when
    /// that program cannot be found or started.
    ///
    /// - Parameter arguments: The command line, `CommandLine.arguments`.
    static func handOverIfRepositoryCommand(_ arguments: [String]) {
        guard let name = repositoryCommand(in: arguments) else { return }
        let programName = RepositoryCommandSummary.programName
        guard let program = CompanionProgram.find(named: programName) else {
            ToolMain.fail(
                "tensorio \(name) is run by \(programName), which is neither next to tensorio nor on PATH: "
                    + "build it with `swift build --product \(programName)` (make build does)")
        }
        let argv = [program.path] + arguments.dropFirst()
        var pointers = argv.map { strdup($0) }
        pointers.append(nil)
        execv(program.path, pointers)
        // Only reached when execv failed.
        ToolMain.fail("cannot start \(program.path) for tensorio \(name): \(SystemErrorText.reason(errno: errno))")
    }

    /// The repository command `arguments` run or ask help for: `tensorio NAME …` or `tensorio help NAME …`.
    static func repositoryCommand(in arguments: [String]) -> String? {
        let words = arguments.dropFirst()
        guard var name = words.first else { return nil }
        if name == "help", let asked = words.dropFirst().first { name = asked }
        return RepositoryCommandSummary.all.contains { $0.name == name } ? name : nil
    }

    /// The entries `tensorio --help` lists for them.
    static let listedCommands: [any ParsableCommand.Type] = [
        Listed<Serve>.self, Listed<Push>.self, Listed<Models>.self, Listed<Pull>.self, Listed<Update>.self,
        Listed<Rollback>.self, Listed<Rollout>.self, Listed<Delete>.self, Listed<CollectGarbage>.self,
        Listed<Keygen>.self, Listed<Verify>.self,
    ]
}

/// One repository command as `tensorio --help` lists it. `Main` hands such a command over before
/// parsing, so `run()` is reached only if it was parsed some other way; it hands over then too.
private struct Listed<Command: ListedRepositoryCommand>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Command.summary.name, abstract: Command.summary.abstract)
    }

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        RepositoryHandover.handOverIfRepositoryCommand(["tensorio", Command.summary.name] + arguments)
    }
}

private protocol ListedRepositoryCommand {
    static var summary: RepositoryCommandSummary { get }
}

private enum Serve: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.serve }
private enum Push: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.push }
private enum Models: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.models }
private enum Pull: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.pull }
private enum Update: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.update }
private enum Rollback: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.rollback }
private enum Rollout: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.rollout }
private enum Delete: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.delete }
private enum CollectGarbage: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.collectGarbage }
private enum Keygen: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.keygen }
private enum Verify: ListedRepositoryCommand { static let summary = RepositoryCommandSummary.verify }
