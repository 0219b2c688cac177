import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio pull ID --from URL [--into DIR]`
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.pull.name,
        abstract: RepositoryCommand.pull.abstract,
        discussion: """
            Gets the version the server assigns this machine (the canonical one unless the model's rollout \
            rules target it; the machine's attributes are sent: see --attribute) or --version, resuming an \
            interrupted download, checks its SHA-256, unpacks and validates it (with --trusted-key, checks \
            that it is signed by one of those keys for this model and version), then makes it current; the \
            version it replaces is kept for rollback. \
            Prints the installed bundle's path. A progress bar is drawn on stderr when it is a terminal.
            """
    )

    @Argument(help: "The model id.")
    var id: String

    @OptionGroup var server: SourceServerOptions

    @Option(help: "The local model store.")
    var into = "models"

    @Option(help: "The version to install (default: the one the server assigns this machine).")
    var version: String?

    @OptionGroup var conditionOptions: ConditionOptions
    @OptionGroup var trustOptions: TrustedKeyOptions
    @OptionGroup var deviceOptions: DeviceAttributeOptions

    func run() async throws {
        let (client, store) = try server.installing(into: into, trust: trustOptions, device: deviceOptions)
        var conditions = try conditionOptions.conditions(onlyIfNewer: false)
        if version == nil { conditions.onlyIfNewer = false }
        let (installed, _) = try await runDownload(
            client: client, modelId: id, version: version, store: store, conditions: conditions)
        guard let installed else { throw CLIError("model \(id): nothing was installed") }
        print(installed.bundleURL.path)
    }
}
