import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `tensorio update ID --from URL --into DIR`
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.update.name,
        abstract: RepositoryCommand.update.abstract,
        discussion: """
            The recommended version is the one the model's rollout rules assign this machine (its attributes \
            are sent: see --attribute), else the installed version's upgradeTo, else the canonical version. \
            For a model without a rollout, by default only a version uploaded after the installed one counts \
            (--allow-older follows a server that moved its canonical version back); a rollout's assignment \
            is followed even when older (a rollback). With --trusted-key, a version not signed by one of \
            those keys is refused and the installed one kept. Prints "ID: updated FROM -> TO" or "ID: up to date \
            (VERSION)", then the current bundle's path.
            """
    )

    @Argument(help: "The model id.")
    var id: String

    @OptionGroup var server: SourceServerOptions

    @Option(help: "The local model store.")
    var into: String

    @Flag(name: .customLong("allow-older"), help: "Also install a recommended version older than the installed one.")
    var allowOlder = false

    @OptionGroup var conditionOptions: ConditionOptions
    @OptionGroup var trustOptions: TrustedKeyOptions
    @OptionGroup var deviceOptions: DeviceAttributeOptions

    func run() async throws {
        let (client, store) = try server.installing(into: into, trust: trustOptions, device: deviceOptions)
        let before = try store.current(id)
        let (installed, upToDate) = try await runDownload(
            client: client, modelId: id, version: nil, store: store,
            conditions: try conditionOptions.conditions(onlyIfNewer: !allowOlder))
        guard let installed else { throw CLIError("model \(id): nothing was installed") }
        // Always the version the store now points at, and whether bytes came over the network for it.
        if upToDate {
            print("\(id): up to date (\(installed.version))")
        } else if let before, before.sha256 == installed.sha256 {
            print("\(id): updated \(before.version) -> \(installed.version) (the same archive: nothing downloaded)")
        } else {
            print("\(id): updated \(before?.version ?? "(none)") -> \(installed.version)")
        }
        print(installed.bundleURL.path)
    }
}
