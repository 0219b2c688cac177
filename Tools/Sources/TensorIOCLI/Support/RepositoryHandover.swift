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
        let programName = RepositoryCommand.programName
        guard let program = CompanionProgram.find(named: programName) else {
            ToolMain.fail(
                "tensorio \(name) is run by \(programName), which is neither next to tensorio nor on PATH: "
                    + "build it with `make build-server` (`swift build -c release --package-path Tools --product \(programName)`)")
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
        return RepositoryCommand(rawValue: name)?.name
    }

    /// The entries `tensorio --help` lists for them: one per case of ``RepositoryCommand``, in its order.
    static let listedCommands = Listed<FirstPosition>.entriesFromHere()
}

/// One repository command as `tensorio --help` lists it: the case of ``RepositoryCommand`` at `Position`.
/// `Main` hands such a command over before parsing, so `run()` is reached only if it was parsed some
/// other way; it hands over then too.
///
/// ArgumentParser knows a subcommand by its type, and a list of values cannot declare types; a generic
/// type can be made at run time, though, so each position in the list is a type of its own
/// (`NextPosition<NextPosition<FirstPosition>>` is the third), and the list of entries is built by
/// walking those positions to the end of the cases.
private struct Listed<Position: ListPosition>: ParsableCommand {
    static var command: RepositoryCommand { RepositoryCommand.allCases[Position.index] }

    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: command.name, abstract: command.abstract)
    }

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        RepositoryHandover.handOverIfRepositoryCommand(["tensorio", Self.command.name] + arguments)
    }

    /// This entry and those of every later position, to the last case.
    static func entriesFromHere() -> [any ParsableCommand.Type] {
        guard Position.index < RepositoryCommand.allCases.count else { return [] }
        return [Self.self] + Listed<NextPosition<Position>>.entriesFromHere()
    }
}

/// A position in ``RepositoryCommand/allCases``, as a type.
private protocol ListPosition {
    static var index: Int { get }
}

private enum FirstPosition: ListPosition {
    static var index: Int { 0 }
}

private enum NextPosition<Previous: ListPosition>: ListPosition {
    static var index: Int { Previous.index + 1 }
}
