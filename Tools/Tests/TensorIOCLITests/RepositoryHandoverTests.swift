import ArgumentParser
import Foundation
@testable import TensorIOCLI
@testable import TensorIORepositoryCLI
import TensorIOToolSupport
import Testing
import TensorIOTestSupport

/// `tensorio` hands its repository commands to `tensorio-repository` (built next to it): the help lists
/// them, and their help, output, errors and exit statuses are the same as when one program ran them.
@Suite("Repository commands handed over to tensorio-repository")
struct RepositoryHandoverTests {
    /// The names in ``RepositoryCommand``, the one list the handover, the help and this suite share.
    static let repositoryCommands = RepositoryCommand.allCases.map(\.name)

    @Test("tensorio-repository's subcommands are the table's commands, in its order, with its one-line help")
    func repositoryProgramMatchesTable() {
        let subcommands = RepositoryToolCommand.configuration.subcommands.map { $0.configuration }
        #expect(subcommands.map { $0.commandName ?? "" } == Self.repositoryCommands)
        #expect(subcommands.map(\.abstract) == RepositoryCommand.allCases.map(\.abstract))
    }

    @Test("tensorio lists the table's commands, in its order, and hands over each of them and their help")
    func handoverMatchesTable() {
        let listed = RepositoryHandover.listedCommands.map { $0.configuration }
        #expect(listed.map { $0.commandName ?? "" } == Self.repositoryCommands)
        #expect(listed.map(\.abstract) == RepositoryCommand.allCases.map(\.abstract))
        for name in Self.repositoryCommands {
            #expect(RepositoryHandover.repositoryCommand(in: ["tensorio", name, "--help"]) == name)
            #expect(RepositoryHandover.repositoryCommand(in: ["tensorio", "help", name]) == name)
        }
        for other in ["run", "help", "--help", "Serve", "collectGarbage"] {
            #expect(RepositoryHandover.repositoryCommand(in: ["tensorio", other]) == nil, "\(other)")
        }
        #expect(RepositoryHandover.repositoryCommand(in: ["tensorio"]) == nil)
    }

    @Test("tensorio --help lists the model commands and every repository command with its one-line help")
    func rootHelp() async throws {
        let result = try await CLI.run("--help")
        #expect(result.exited && result.status == 0, "\(result)")
        let lines = result.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }
        for command in ["run", "classify", "train"] + Self.repositoryCommands {
            #expect(lines.contains { $0.hasPrefix(command + " ") }, "\(command) is not listed: \(result)")
        }
        #expect(result.stdout.contains("Download a model version into a local model store"), "\(result)")
        #expect(result.stdout.contains("tensorio-repository"), "\(result)")
    }

    @Test("a repository command's help comes from tensorio-repository, under tensorio's name", arguments: [
        ["help", "pull"], ["pull", "--help"], ["rollout", "set", "--help"], ["help", "rollout", "set"], ["serve", "-h"],
    ])
    func commandHelp(arguments: [String]) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.exited && result.status == 0, "\(result)")
        let command = arguments.filter { !$0.hasPrefix("-") && $0 != "help" }.joined(separator: " ")
        #expect(result.stdout.contains("USAGE: tensorio \(command)"), "\(result)")
        #expect(result.stdout.contains("OPTIONS:"), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("usage errors and failures keep their one line and exit status")
    func errors() async throws {
        expectUsageError(try await CLI.run("pull"), containing: ["'<id>'", "(see 'tensorio pull --help')"])
        try await withTemporaryDirectory { folder in
            expectUsageError(try await CLI.run("keygen", "--out", folder.appendingPathComponent("key").path, "--bogus"),
                             containing: ["--bogus"])
            expectOneLineError(try await CLI.run("serve", "--root", folder.path, "--port", "99999"),
                               containing: ["--port must be from 0 to 65535"])
            let missing = folder.appendingPathComponent("nothing-here").path
            expectOneLineError(try await CLI.run("rollback", "some-model", "--into", missing), containing: ["some-model"])
        }
    }

    @Test("tensorio --version and tensorio-repository --version agree")
    func version() async throws {
        let tool = try await CLI.run("--version")
        let repository = try CLI.executableURL().deletingLastPathComponent().appendingPathComponent("tensorio-repository")
        let handedOver = try await CLI.run(["--version"], executable: repository)
        #expect(tool.exited && tool.status == 0 && !tool.stdout.isEmpty, "\(tool)")
        #expect(handedOver.stdout == tool.stdout, "\(handedOver)")
    }

    @Test("without tensorio-repository or tensorio-load-check, a command that needs one is one line naming the make target that builds it; the rest works")
    func missingProgram() async throws {
        try await withTemporaryDirectory { folder in
            // A copy of tensorio alone: nothing next to it, nothing on PATH.
            let lone = folder.appendingPathComponent("tensorio")
            try BuiltProducts.copyExecutable(try CLI.executableURL(), to: lone)
            let environment: [String: String?] = ["PATH": folder.path]
            for arguments in [["pull", "model", "--from", "http://127.0.0.1:9"], ["help", "serve"]] {
                let result = try await CLI.run(arguments, environment: environment, executable: lone)
                expectOneLineError(result, containing: [
                    "tensorio \(arguments[0] == "help" ? arguments[1] : arguments[0]) is run by tensorio-repository",
                    "make build-server",
                ])
            }
            let run = try await CLI.run(
                ["run", Fixtures.path("1_in_1_out_number_test.tiobundle"), "--input", "2"], environment: environment,
                executable: lone)
            expectSuccess(run, stdout: #"{"output":25}"#)
            // validate --load needs tensorio-load-check: one line naming the target that builds it.
            let load = try await CLI.run(
                ["validate", Fixtures.path("1_in_1_out_number_test.tiobundle"), "--load"],
                environment: environment.merging(["TENSORIO_LOAD_CHECK": nil]) { $1 }, executable: lone)
            // validate's own form: one line per bundle, "PATH: problem".
            #expect(load.exited && load.status == 1 && load.stderrLines.count == 1, "\(load)")
            #expect(load.stderr.contains("cannot find tensorio-load-check") && load.stderr.contains("make build-load-check"), "\(load)")
        }
    }
}
