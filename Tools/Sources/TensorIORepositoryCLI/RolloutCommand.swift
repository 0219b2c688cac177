import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIORepositoryServer
import TensorIOToolSupport

/// `tensorio rollout show|set|ramp|pause|resume|rollback|assign|bench`
struct RolloutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: RepositoryCommand.rollout.name,
        abstract: RepositoryCommand.rollout.abstract,
        discussion: """
            A rollout is an ordered list of rules: conditions on the attributes a device sends (app and OS \
            version ranges, platform, locale, region, device class, custom keys), a percentage of matching \
            devices, and a version or an A/B split. Each change takes effect on the next request. The rule \
            file and the documents printed are the API's JSON (camelCase), so that `show` output can be \
            edited and given back to `set`. See docs/repository-api.md.
            """,
        subcommands: [
            RolloutShowCommand.self, RolloutSetCommand.self, RolloutRampCommand.self, RolloutPauseCommand.self,
            RolloutResumeCommand.self, RolloutRollbackCommand.self, RolloutAssignCommand.self, RolloutBenchCommand.self,
        ]
    )
}

/// The server and token of a rollout command that writes.
struct RolloutWriteOptions: ParsableArguments {
    @Argument(help: "The model id.")
    var id: String

    @OptionGroup var server: TargetServerOptions

    @Flag(help: "Print the rollout as the API's JSON instead of a summary line.")
    var json = false

    func client() throws -> RepositoryClient { try server.client() }

    /// Prints the rollout: a summary line, or the document with `--json`.
    func report(_ rollout: Rollout, client: RepositoryClient) async throws {
        if json {
            print(try RolloutText.document(rollout, pretty: false))
        } else {
            let canonical = try? await client.model(rollout.modelId).canonicalVersion
            print(RolloutText.summary(rollout, canonical: canonical ?? nil))
        }
    }
}

/// `tensorio rollout show ID --from URL`
struct RolloutShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a model's rollout as JSON (the file `rollout set` reads).")

    @Argument(help: "The model id.")
    var id: String

    @OptionGroup var server: SourceServerOptions

    func run() async throws {
        let client = try server.client()
        print(try RolloutText.document(try await client.rollout(of: id), pretty: true), terminator: "")
    }
}

/// `tensorio rollout set ID FILE --to URL`
struct RolloutSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Replace a model's rollout rules with those in a JSON file (- for stdin).",
        discussion: """
            The file is {"rules": [...], "paused": false}, or what `rollout show` printed: its revision then \
            makes the change fail (HTTP 409) if someone changed the rollout since.
            """)

    @OptionGroup var options: RolloutWriteOptions

    @Argument(help: "The JSON file, or - for stdin.")
    var file: String

    func run() async throws {
        // At most one byte past the server's limit is read, whatever FILE is (a pipe, /dev/zero).
        let handle: FileHandle
        if file == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: file) else { throw CLIError("cannot read \(file)") }
            handle = opened
        }
        let data: Data
        do {
            data = try handle.read(upToCount: RolloutLimits.maximumRulesBodyBytes + 1) ?? Data()
        } catch {
            throw CLIError("cannot read \(file): \(error.localizedDescription)")
        }
        if file != "-" { try? handle.close() }
        guard data.count <= RolloutLimits.maximumRulesBodyBytes else {
            throw CLIError("\(file) is larger than \(RolloutLimits.maximumRulesBodyBytes) bytes, the server's limit for rules")
        }
        let update: RolloutUpdate
        do {
            update = try RepositoryAPI.makeStrictDecoder().decode(RolloutUpdate.self, from: data)
        } catch let error as DecodingError {
            throw CLIError("\(file): \(RolloutInvalid.from(error))")
        }
        let client = try options.client()
        try await options.report(try await client.setRollout(update, of: options.id), client: client)
    }
}

/// `tensorio rollout ramp ID PERCENT --to URL [--rule NAME]`
struct RolloutRampCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ramp",
        abstract: "Set the percentage of devices one rule takes (raising it only adds devices).")

    @OptionGroup var options: RolloutWriteOptions

    @Argument(help: "The percentage, 0 to 100 in steps of 0.01 (a trailing % is allowed).")
    var percent: String

    @Option(help: "The rule to ramp (needed when the rollout has several rules).")
    var rule: String?

    func run() async throws {
        let text = percent.hasSuffix("%") ? String(percent.dropLast()) : percent
        guard let value = Double(text), value.isFinite else { throw CLIError.usage("PERCENT \(percent) is not a number") }
        let client = try options.client()
        try await options.report(try await client.rampRollout(of: options.id, to: value, rule: rule), client: client)
    }
}

/// `tensorio rollout pause ID --to URL`
struct RolloutPauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause a rollout: devices already on a rule's version keep it; no other device gets it.")

    @OptionGroup var options: RolloutWriteOptions

    func run() async throws {
        let client = try options.client()
        try await options.report(try await client.pauseRollout(of: options.id), client: client)
    }
}

/// `tensorio rollout resume ID --to URL`
struct RolloutResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resume a paused rollout.")

    @OptionGroup var options: RolloutWriteOptions

    func run() async throws {
        let client = try options.client()
        try await options.report(try await client.resumeRollout(of: options.id), client: client)
    }
}

/// `tensorio rollout rollback ID --to URL [--version V]`
struct RolloutRollbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Remove every rule (every device gets the canonical version), optionally making --version canonical.",
        discussion: """
            Devices follow a rollback even though it moves them to an older version. (`tensorio rollback` \
            without `rollout` is the device-side command that goes back to the previously installed version.)
            """)

    @OptionGroup var options: RolloutWriteOptions

    @Option(help: "The version to make canonical in the same change.")
    var version: String?

    func run() async throws {
        let client = try options.client()
        try await options.report(try await client.rollBackRollout(of: options.id, to: version), client: client)
    }
}

/// `tensorio rollout assign ID --from URL [--installation-id ID] [--attribute K=V]... [--installed V]`
struct RolloutAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Ask which version the server assigns a device, and why.",
        discussion: """
            Prints VERSION, then what decided it: "rule NAME (bucket B[, arm A])", "held by the paused rule \
            NAME", "paused rule NAME: fallback", "upgradeTo" or "canonical", tab-separated, then the \
            rollout's revision. --json prints the server's answer with snake_case keys.
            """)

    @Argument(help: "The model id.")
    var id: String

    @OptionGroup var server: SourceServerOptions

    @OptionGroup var deviceOptions: DeviceAttributeOptions

    @Option(help: "The version the device has installed.")
    var installed: String?

    @Option(help: "A local model store: its installation id, and its current version unless --installed is given.")
    var into: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let client = try server.client()
        let store = try into.map { try ModelStore(directory: URL(fileURLWithPath: $0), logger: ToolLog.logger) }
        let attributes = try deviceOptions.resolve(store: store)
        let installedVersion = try installed ?? store?.current(id)?.version
        let answer = try await client.assignment(modelId: id, attributes: attributes, installedVersion: installedVersion)
        if json {
            print(try JSONText.encode(answer))
            return
        }
        let reason: String = switch answer.decidedBy {
        case Assignment.Reason.rule:
            "rule \(answer.rule ?? "?") (bucket \(answer.bucket.map(String.init) ?? "?")\(answer.arm.map { ", arm \($0)" } ?? ""))"
        case Assignment.Reason.held: "held by the paused rule \(answer.rule ?? "?")"
        case Assignment.Reason.paused: "paused rule \(answer.rule ?? "?"): fallback"
        default: answer.decidedBy
        }
        print([answer.version.version, reason, "revision \(answer.revision)"].joined(separator: "\t"))
    }
}

/// What the rollout commands print.
enum RolloutText {
    /// The rollout as the API's JSON (camelCase: the format `rollout set` reads).
    static func document(_ rollout: Rollout, pretty: Bool) throws -> String {
        let encoder = RepositoryAPI.makeEncoder()
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        return String(decoding: try encoder.encode(rollout), as: UTF8.self) + (pretty ? "\n" : "")
    }

    /// `ID: revision N[, paused]: RULE -> VERSION at P%; …`
    static func summary(_ rollout: Rollout, canonical: String?) -> String {
        let head = "\(rollout.modelId): revision \(rollout.revision)\(rollout.paused ? ", paused" : "")"
        guard !rollout.rules.isEmpty else {
            return "\(head): no rules (every device gets the fallback: the canonical version\(canonical.map { " \($0)" } ?? ""))"
        }
        let rules = rollout.rules.map { rule -> String in
            let target = rule.version ?? (rule.split ?? []).map { "\($0.version):\($0.weight)" }.joined(separator: "/")
            return "\(rule.name) -> \(target) at \(format(rule.percent ?? 100))%"
        }
        return "\(head): " + rules.joined(separator: "; ")
    }

    static func format(_ percent: Double) -> String {
        percent == percent.rounded() ? String(Int(percent)) : String(format: "%.2f", percent)
    }
}
