import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio models --from URL`
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.models.name,
        abstract: RepositoryCommand.models.abstract,
        discussion: """
            One line per model: ID, canonical version, number of versions, tab-separated. With ID, the \
            model's versions instead: VERSION, SHA-256, size, date, a * for the canonical one. --json prints \
            the server's answer as JSON, with snake_case keys like every --json output.
            """
    )

    @Argument(help: "A model id: list its versions.")
    var id: String?

    @OptionGroup var server: SourceServerOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let client = try server.client()
        if let id {
            let list = try await client.versions(of: id)
            if json {
                print(try JSONText.encode(list))
                return
            }
            let dates = ISO8601DateFormatter()
            for version in list.versions {
                print([version.version, version.sha256, String(version.size), dates.string(from: version.createdAt),
                       version.canonical ? "*" : ""].joined(separator: "\t"))
            }
            return
        }
        let models = try await client.allModels()
        if json {
            // One object, as every --json output is: {"models": [...]}.
            print(try JSONText.encode(["models": models]))
            return
        }
        for model in models {
            print([model.id, model.canonicalVersion ?? "-", String(model.versionCount)].joined(separator: "\t"))
        }
    }
}
