import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIORepositoryServer
import TensorIOToolSupport

/// `tensorio rollout bench [--decisions N] [--threads T] [--from URL --model ID --requests N --clients C]`
struct RolloutBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure rollout decisions per second: the rule evaluation in this process, and optionally the assignment endpoint of a server.",
        discussion: """
            Evaluates --decisions decisions of a realistic rule set (8 rules: test devices, a custom \
            cohort, app/OS version ranges with regions, an A/B split, locales, device classes, percentages) \
            over 10,000 synthetic devices, on --threads threads, and prints decisions/s. With --from and \
            --model, also sends --requests assignment requests from --clients concurrent clients to that \
            server's model (whatever rules it has) and prints requests/s: an end-to-end figure that includes \
            this client's HTTP work. Build with -c release for meaningful numbers.
            """)

    @Option(help: "Decisions to evaluate in this process.")
    var decisions = 1_000_000

    @Option(help: "Threads evaluating at once.")
    var threads = 1

    @Option(help: "A server to send assignment requests to.")
    var from: String?

    @Option(help: "The model on that server.")
    var model: String?

    @Option(help: "Assignment requests to send.")
    var requests = 5_000

    @Option(help: "Concurrent clients sending them.")
    var clients = 8

    @OptionGroup var tokens: TokenOptions

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard (1...1_000_000_000).contains(decisions) else { throw ValidationError("--decisions must be from 1 to 1,000,000,000") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be from 1 to 256") }
        guard (1...10_000_000).contains(requests) else { throw ValidationError("--requests must be from 1 to 10,000,000") }
        guard (1...1024).contains(clients) else { throw ValidationError("--clients must be from 1 to 1024") }
        guard (from == nil) == (model == nil) else { throw ValidationError("give --from and --model together") }
    }

    func run() async throws {
        let policy = try RolloutPolicy(modelId: "bench-model", rules: Self.rules, paused: false)
        let devices = Self.devices(count: 10_000)
        let perThread = decisions / threads
        let start = ContinuousClock.now
        let counts = await withTaskGroup(of: [String: Int].self) { group in
            for thread in 0..<threads {
                let count = thread == threads - 1 ? decisions - perThread * (threads - 1) : perThread
                group.addTask {
                    var counts: [String: Int] = [:]
                    for index in 0..<count {
                        let device = devices[(index &+ thread &* 7919) % devices.count]
                        let decision = policy.evaluate(device, installedVersion: "3")
                        counts[decision.version ?? "fallback", default: 0] += 1
                    }
                    return counts
                }
            }
            var total: [String: Int] = [:]
            for await counts in group { total.merge(counts, uniquingKeysWith: +) }
            return total
        }
        let seconds = Self.seconds(ContinuousClock.now - start)
        let rate = Double(decisions) / seconds
        var output: [(String, JSONText.Value)] = [
            ("decisions", .integer(Int64(decisions))), ("threads", .integer(Int64(threads))),
            ("seconds", .double(seconds)), ("decisions_per_second", .double(rate.rounded())),
            ("versions", .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
        ]
        if !json {
            let shares = counts.sorted { $0.key < $1.key }
                .map { "\($0.key) \(String(format: "%.1f", Double($0.value) * 100 / Double(decisions)))%" }.joined(separator: ", ")
            print("rollout decisions: \(decisions) in \(String(format: "%.3f", seconds)) s on \(threads) thread(s): \(Int(rate)) decisions/s (\(Self.rules.count) rules, \(devices.count) devices; \(shares))")
        }
        if let from, let model {
            let client = try tokens.client(of: from, option: "--from")
            _ = try await client.assignment(modelId: model, attributes: devices[0])  // fails early on a wrong model
            let (requests, clients) = (self.requests, self.clients)
            let perClient = requests / clients
            let httpStart = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<clients {
                    let count = worker == clients - 1 ? requests - perClient * (clients - 1) : perClient
                    group.addTask {
                        for index in 0..<count {
                            _ = try await client.assignment(modelId: model, attributes: devices[(index &* clients &+ worker) % devices.count])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let httpSeconds = Self.seconds(ContinuousClock.now - httpStart)
            let httpRate = Double(requests) / httpSeconds
            output += [
                ("requests", .integer(Int64(requests))), ("clients", .integer(Int64(clients))),
                ("http_seconds", .double(httpSeconds)), ("requests_per_second", .double(httpRate.rounded())),
            ]
            if !json {
                print("assignment requests: \(requests) from \(clients) clients in \(String(format: "%.3f", httpSeconds)) s: \(Int(httpRate)) requests/s")
            }
        }
        if json { print(JSONText.render(.object(output))) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return max(Double(seconds) + Double(attoseconds) / 1e18, 1e-9)
    }

    /// The rule set measured: what a team running a few experiments at once might have.
    static let rules: [RolloutRule] = [
        RolloutRule(name: "qa-devices", when: RolloutConditions(installationId: (0..<20).map { "qa-device-\($0)" }), version: "5"),
        RolloutRule(name: "beta-cohort", when: RolloutConditions(custom: ["cohort": ["beta", "internal"]]), version: "5"),
        RolloutRule(
            name: "ios-new-app", when: RolloutConditions(appVersion: ">=2.4.0 <3", osVersion: ">=16", platform: ["ios"], region: ["US", "CA", "GB"]),
            percent: 10, version: "4"),
        RolloutRule(
            name: "android-ab", when: RolloutConditions(platform: ["android"], deviceClass: ["phone"]), percent: 50,
            split: [RolloutArm(version: "4", weight: 50), RolloutArm(version: "5", weight: 50)]),
        RolloutRule(name: "europe", when: RolloutConditions(locale: ["de", "fr", "es", "it"]), percent: 25, version: "4"),
        RolloutRule(name: "tablets", when: RolloutConditions(osVersion: ">=17.0", deviceClass: ["tablet"]), percent: 5, version: "4"),
        RolloutRule(name: "old-apps", when: RolloutConditions(appVersion: "<2.0"), version: "2"),
        RolloutRule(name: "everyone", percent: 1, version: "4"),
    ]

    /// Synthetic devices, the same every run (a fixed linear congruential sequence).
    static func devices(count: Int) -> [DeviceAttributes] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let platforms = ["ios", "android", "macos"]
        let locales = ["en-US", "en-GB", "de-DE", "fr-FR", "fr-CA", "es-ES", "it-IT", "ja-JP", "pt-BR"]
        let regions = ["US", "CA", "GB", "DE", "FR", "ES", "IT", "JP", "BR"]
        let classes = ["phone", "tablet", "desktop"]
        return (0..<count).map { index in
            let locale = next(locales.count)
            var device = DeviceAttributes(
                installationId: String(format: "%08x-%04x-4%03x-8%03x-%012x", next(1 << 30), next(1 << 16), next(1 << 12), next(1 << 12), index),
                appVersion: "\(1 + next(3)).\(next(10)).\(next(5))", platform: platforms[next(platforms.count)],
                osVersion: "\(13 + next(6)).\(next(5))", locale: locales[locale], region: regions[locale],
                deviceClass: classes[next(classes.count)])
            if next(20) == 0 { device.custom["cohort"] = "beta" }
            return device
        }
    }
}
