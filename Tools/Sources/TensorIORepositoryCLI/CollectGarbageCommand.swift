import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio collect-garbage --from URL [--older-than SECONDS]`
struct CollectGarbageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.collectGarbage.name,
        abstract: RepositoryCommand.collectGarbage.abstract,
        discussion: """
            Needs the write token. The server removes archives that no version names and unfinished uploads, \
            when older than --older-than seconds (default: the server's, one hour; another instance sharing \
            the archive folder may be placing a younger one). Prints the server's report as one JSON object.
            """
    )

    @OptionGroup var server: SourceServerOptions

    @Option(name: .customLong("older-than"), help: "Only remove files older than this many seconds.")
    var olderThan: Int?

    func validate() throws {
        if let olderThan, olderThan < 0 { throw ValidationError("--older-than must be 0 or more seconds") }
    }

    func run() async throws {
        let client = try server.client()
        print(try JSONText.encode(try await client.collectGarbage(olderThan: olderThan)))
    }
}
