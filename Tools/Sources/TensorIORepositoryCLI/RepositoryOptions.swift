import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `--token` / `--token-file`, shared by the commands that talk to a repository server.
struct TokenOptions: ParsableArguments {
    @Option(help: "The bearer token (prefer --token-file: a command line is visible to other users).")
    var token: String?

    @Option(name: .customLong("token-file"), help: "A file holding the bearer token.")
    var tokenFile: String?

    /// The token from either option, or `nil`.
    func resolve() throws -> String? {
        if token != nil, tokenFile != nil {
            throw CLIError("give --token or --token-file, not both")
        }
        if let token { return token }
        guard let tokenFile else { return nil }
        return try readToken(tokenFile)
    }
}

/// Reads a token file: its content without surrounding whitespace, which must not be empty.
func readToken(_ path: String) throws -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw CLIError("cannot read the token file \(path)")
    }
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty else { throw CLIError("the token file \(path) is empty") }
    return token
}

extension TokenOptions {
    /// A client of the server `address` names (given with `option`), with the token.
    func client(of address: String, option: String) throws -> RepositoryClient {
        RepositoryClient(baseURL: try serverURL(address, option: option), token: try resolve(), logger: ToolLog.logger)
    }
}

/// `--from` and the token: the server a command reads from or acts on.
struct SourceServerOptions: ParsableArguments {
    @Option(help: "The server, such as http://127.0.0.1:8080.")
    var from: String

    @OptionGroup var tokens: TokenOptions

    /// A client of that server, with the token.
    func client() throws -> RepositoryClient { try tokens.client(of: from, option: "--from") }

    /// The client and the local model store of a command that installs versions (pull, update).
    ///
    /// - Parameters:
    ///   - into: The store's folder.
    ///   - trust: The keys a version must be signed with.
    ///   - device: The device attributes the server's rollout rules pick the version for (the canonical
    ///     one when the model has no rollout), over the store's installation id.
    func installing(
        into: String, trust: TrustedKeyOptions, device: DeviceAttributeOptions
    ) throws -> (RepositoryClient, ModelStore) {
        var client = try client()
        let store = try ModelStore(
            directory: URL(fileURLWithPath: into), logger: ToolLog.logger, trustedKeys: try trust.resolve())
        client.deviceAttributes = try device.resolve(store: store)
        return (client, store)
    }
}

/// `--to` and the token: the server a command writes to.
struct TargetServerOptions: ParsableArguments {
    @Option(help: "The server, such as http://127.0.0.1:8080.")
    var to: String

    @OptionGroup var tokens: TokenOptions

    /// A client of that server, with the token.
    func client() throws -> RepositoryClient { try tokens.client(of: to, option: "--to") }
}

/// Parses a server address given with --to or --from.
func serverURL(_ text: String, option: String) throws -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
          url.host != nil
    else {
        throw CLIError("\(option) \(text) is not an http:// or https:// address")
    }
    return url
}

/// Turns a download's events into a progress bar and a result.
func runDownload(
    client: RepositoryClient, modelId: String, version: String?, store: ModelStore, conditions: DownloadConditions
) async throws -> (installed: InstalledModel?, upToDate: Bool) {
    var bar: ProgressBar?
    var installed: InstalledModel?
    var upToDate = false
    for await event in client.download(modelId: modelId, version: version, into: store, conditions: conditions) {
        switch event {
        case .started(let details, _):
            bar = ProgressBar(total: Int(details.size), label: "download", format: ProgressBar.megabytes)
        case .progress(let received, _):
            bar?.update(Int(received))
        case .verified:
            bar?.finish()
            bar = nil
        case .installed(let model):
            installed = model
        case .upToDate(let model):
            installed = model
            upToDate = true
        case .failed(let error):
            bar?.finish()
            throw error
        }
    }
    return (installed, upToDate)
}

/// `--max-mb`, `--no-resume`: the download conditions of pull and update.
struct ConditionOptions: ParsableArguments {
    @Option(name: .customLong("max-mb"), help: "Refuse archives larger than this many megabytes (10^6 bytes).")
    var maximumMegabytes: Double?

    @Flag(name: .customLong("no-resume"), help: "Start interrupted downloads over instead of resuming them.")
    var noResume = false

    func conditions(onlyIfNewer: Bool) throws -> DownloadConditions {
        if let maximumMegabytes, !(maximumMegabytes > 0) {
            throw CLIError("--max-mb must be a positive number")
        }
        return DownloadConditions(
            maximumBytes: maximumMegabytes.map { Int64($0 * 1_000_000) }, onlyIfNewer: onlyIfNewer, allowsResume: !noResume)
    }
}
