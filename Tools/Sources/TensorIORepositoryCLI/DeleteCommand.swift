import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio delete ID VERSION --from URL [--force]`
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.delete.name,
        abstract: RepositoryCommand.delete.abstract,
        discussion: """
            Needs the write token. The server refuses (exit 1, "in use") while the version is the canonical \
            one or another version's upgrade-to names it; --force deletes it anyway, leaving the model with \
            no canonical version and clearing those upgrade-to. Devices that installed the version keep it. \
            Prints the server's answer as one JSON object: the deleted version, the model as it now is, and \
            the versions whose upgrade-to was cleared.
            """
    )

    @Argument(help: "The model id.")
    var id: String

    @Argument(help: "The version to delete.")
    var version: String

    @OptionGroup var server: SourceServerOptions

    @Flag(help: "Delete the version even while it is canonical or another version's upgrade-to.")
    var force = false

    func run() async throws {
        let client = try server.client()
        let deletion = try await client.deleteVersion(version, of: id, force: force)
        print(try JSONText.encode(deletion))
    }
}
