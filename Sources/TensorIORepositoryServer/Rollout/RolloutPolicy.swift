#if Server  // built with the Server trait only (Package.swift)
import Crypto
public import TensorIODelivery

/// A model's rollout rules, checked and prepared for evaluation: a pure function from a device's
/// attributes to the version it gets (or to "the fallback"), with nothing to read or write.
///
/// The rules are tried in order. A rule takes a device when every one of its conditions holds **and** the
/// device's bucket is inside the rule's percentage; the first rule that takes it decides. The bucket is
/// a fixed, documented function of the model id, the rule's salt (its name unless given) and the
/// installation id — the first 8 bytes of `SHA-256("tensorio-rollout-bucket\n" + modelId + "\n" + salt +
/// "\n" + installationId)` as a big-endian integer, modulo 10,000 — and a device is inside percentage `p`
/// when `bucket < p × 100`: raising the percentage only adds devices, and a device keeps its bucket on
/// every server, in every process, forever. An A/B split draws the arm the same way from
/// `"tensorio-rollout-arm\n" + …` modulo the sum of the weights, so arms stay stable too and are
/// independent of the percentage.
///
/// When the rollout is paused, a rule gives its version only to a device that already has it installed
/// (`held`); a device it would move gets the fallback (`paused`).
public struct RolloutPolicy: Sendable {
    /// The model the rules are for (part of every bucket).
    public let modelId: String
    /// Whether the rollout is paused.
    public let paused: Bool
    let rules: [CompiledRule]
    /// The attributes some condition reads: the others are not prepared for each device.
    let uses: PreparedDevice.Uses

    /// Checks `rules` against ``RolloutLimits`` and prepares them.
    ///
    /// - Parameters:
    ///   - modelId: The model's identifier.
    ///   - rules: The rules, in order.
    ///   - paused: Whether the rollout is paused.
    /// - Throws: ``RolloutInvalid`` naming the first value that breaks the rules, by its JSON path
    ///   (`rules[1].when.region[0]`). Whether the versions named exist is not checked here.
    public init(modelId: String, rules: [RolloutRule], paused: Bool) throws(RolloutInvalid) {
        self.modelId = modelId
        self.paused = paused
        guard rules.count <= RolloutLimits.maximumRules else {
            throw RolloutInvalid("rules", "has \(rules.count) rules; at most \(RolloutLimits.maximumRules) are allowed")
        }
        var names = Set<String>()
        var compiled: [CompiledRule] = []
        for (index, rule) in rules.enumerated() {
            let rule = try CompiledRule(rule, modelId: modelId, path: "rules[\(index)]")
            guard names.insert(rule.name).inserted else {
                throw RolloutInvalid("rules[\(index)].name", "\"\(rule.name)\" is the name of an earlier rule; names must be unique")
            }
            compiled.append(rule)
        }
        self.rules = compiled
        uses = compiled.reduce(into: PreparedDevice.Uses()) { $0.formUnion($1.conditions.uses) }
    }

    /// The version for a device.
    ///
    /// - Parameters:
    ///   - attributes: The device's attributes, checked against ``RolloutLimits`` by the caller.
    ///   - installedVersion: The version the device has installed, if any.
    /// - Returns: The decision: a version, or `nil` for the fallback.
    public func evaluate(_ attributes: DeviceAttributes, installedVersion: String?) -> RolloutDecision {
        let device = PreparedDevice(attributes, uses: uses)
        for rule in rules where rule.conditions.match(device) {
            let bucket = Int(Self.draw(rule.bucketPrefix, attributes.installationId) % 10_000)
            guard bucket < rule.basisPoints else { continue }
            let (version, arm) = rule.target(installationId: attributes.installationId)
            if paused {
                if installedVersion == version {
                    return RolloutDecision(version: version, decidedBy: Assignment.Reason.held, rule: rule.name, arm: arm, bucket: bucket)
                }
                return RolloutDecision(version: nil, decidedBy: Assignment.Reason.paused, rule: rule.name, arm: nil, bucket: bucket)
            }
            return RolloutDecision(version: version, decidedBy: Assignment.Reason.rule, rule: rule.name, arm: arm, bucket: bucket)
        }
        return RolloutDecision(version: nil, decidedBy: nil, rule: nil, arm: nil, bucket: nil)
    }

    /// A device's bucket in a rule, 0 to 9,999 (see the type's description).
    ///
    /// - Parameters:
    ///   - modelId: The model's identifier.
    ///   - salt: The rule's salt (its name unless it has one).
    ///   - installationId: The device's installation id.
    /// - Returns: The bucket.
    public static func bucket(modelId: String, salt: String, installationId: String) -> Int {
        Int(draw(Array("tensorio-rollout-bucket\n\(modelId)\n\(salt)\n".utf8), installationId) % 10_000)
    }

    /// The first 8 bytes of SHA-256(prefix + id), big-endian.
    static func draw(_ prefix: [UInt8], _ id: String) -> UInt64 {
        var hasher = SHA256()
        prefix.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        var id = id
        id.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize().withUnsafeBytes { bytes in bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    }
}

/// What ``RolloutPolicy/evaluate(_:installedVersion:)`` decided.
public struct RolloutDecision: Sendable, Hashable {
    /// The version the rules give; `nil` when the device gets the fallback.
    public var version: String? = nil
    /// `Assignment.Reason.rule`, `Assignment.Reason.held`, `Assignment.Reason.paused` (TensorIODelivery), or `nil` when
    /// no rule took the device.
    public var decidedBy: String? = nil
    /// The rule that took the device.
    public var rule: String? = nil
    /// The A/B arm drawn, by index.
    public var arm: Int? = nil
    /// The device's bucket in that rule.
    public var bucket: Int? = nil
}

/// A rule checked and prepared: conditions as sets and parsed ranges, hashing prefixes, cumulative weights.
struct CompiledRule: Sendable {
    enum Target: Sendable {
        case version(String)
        /// The arms' versions with the running sums of their weights, and the total.
        case split([(version: String, upTo: UInt64)], total: UInt64)
    }

    let name: String
    let basisPoints: Int
    let target: Target
    let conditions: CompiledConditions
    let bucketPrefix: [UInt8]
    let armPrefix: [UInt8]

    init(_ rule: RolloutRule, modelId: String, path: String) throws(RolloutInvalid) {
        guard RepositoryIdentifier.isValid(rule.name) else {
            throw RolloutInvalid("\(path).name", "\"\(rule.name.prefix(80))\" is not a valid name: use 1 to 128 characters from A-Z a-z 0-9 . _ -, starting with a letter or digit")
        }
        name = rule.name
        if let salt = rule.salt, !RolloutLimits.isToken(salt) {
            throw RolloutInvalid("\(path).salt", "must be 1 to \(RolloutLimits.maximumTokenLength) characters from A-Z a-z 0-9 . _ - :")
        }
        basisPoints = try Self.basisPoints(rule.percent ?? 100, path: "\(path).percent")
        switch (rule.version, rule.split) {
        case (let version?, nil):
            guard RepositoryIdentifier.isValid(version) else {
                throw RolloutInvalid("\(path).version", RepositoryIdentifier.describeInvalid(version, kind: "version"))
            }
            target = .version(version)
        case (nil, let arms?):
            guard (2...RolloutLimits.maximumArms).contains(arms.count) else {
                throw RolloutInvalid("\(path).split", "has \(arms.count) arms; a split has 2 to \(RolloutLimits.maximumArms) (use \"version\" for one)")
            }
            var running: UInt64 = 0
            var cumulative: [(version: String, upTo: UInt64)] = []
            for (index, arm) in arms.enumerated() {
                guard RepositoryIdentifier.isValid(arm.version) else {
                    throw RolloutInvalid("\(path).split[\(index)].version", RepositoryIdentifier.describeInvalid(arm.version, kind: "version"))
                }
                guard !cumulative.contains(where: { $0.version == arm.version }) else {
                    throw RolloutInvalid("\(path).split[\(index)].version", "\"\(arm.version)\" is in an earlier arm; each arm names a different version")
                }
                guard (1...RolloutLimits.maximumWeight).contains(arm.weight) else {
                    throw RolloutInvalid("\(path).split[\(index)].weight", "is \(arm.weight); a weight is a whole number from 1 to \(RolloutLimits.maximumWeight)")
                }
                running += UInt64(arm.weight)  // at most 16 × 10,000: no overflow
                cumulative.append((arm.version, running))
            }
            target = .split(cumulative, total: running)
        case (nil, nil):
            throw RolloutInvalid(path, "has neither \"version\" nor \"split\": give one")
        case (_?, _?):
            throw RolloutInvalid(path, "has both \"version\" and \"split\": give one")
        }
        conditions = try CompiledConditions(rule.when, path: "\(path).when")
        let salt = rule.salt ?? rule.name
        bucketPrefix = Array("tensorio-rollout-bucket\n\(modelId)\n\(salt)\n".utf8)
        armPrefix = Array("tensorio-rollout-arm\n\(modelId)\n\(salt)\n".utf8)
    }

    /// A percentage in hundredths: 0…10,000; more precision than 0.01 is an error rather than rounded away.
    static func basisPoints(_ percent: Double, path: String) throws(RolloutInvalid) -> Int {
        guard percent.isFinite, percent >= 0, percent <= 100 else {
            throw RolloutInvalid(path, "is \(percent); a percentage is from 0 to 100")
        }
        let scaled = (percent * 100).rounded()
        guard abs(percent * 100 - scaled) < 1e-6 else {
            throw RolloutInvalid(path, "is \(percent); a percentage has at most two decimals (steps of 0.01)")
        }
        return Int(scaled)
    }

    /// The version a device gets from this rule, and the arm when it is a split.
    func target(installationId: String) -> (String, Int?) {
        switch target {
        case .version(let version):
            return (version, nil)
        case .split(let arms, let total):
            let draw = RolloutPolicy.draw(armPrefix, installationId) % total
            let index = arms.firstIndex { draw < $0.upTo } ?? arms.count - 1
            return (arms[index].version, index)
        }
    }
}

/// A device's attributes as the conditions compare them: versions parsed, tokens lowercased — only those
/// some condition of the policy reads.
struct PreparedDevice {
    /// Which attributes to prepare.
    struct Uses: OptionSet, Sendable {
        let rawValue: Int
        static let appVersion = Uses(rawValue: 1)
        static let osVersion = Uses(rawValue: 2)
        static let platform = Uses(rawValue: 4)
        static let locale = Uses(rawValue: 8)
        static let region = Uses(rawValue: 16)
        static let deviceClass = Uses(rawValue: 32)
    }

    let attributes: DeviceAttributes
    let appVersion: SemanticVersion?
    let osVersion: SemanticVersion?
    let platform: String?
    let locale: String?
    let region: String?
    let deviceClass: String?

    init(_ attributes: DeviceAttributes, uses: Uses) {
        self.attributes = attributes
        appVersion = uses.contains(.appVersion) ? attributes.appVersion.flatMap(SemanticVersion.init) : nil
        osVersion = uses.contains(.osVersion) ? attributes.osVersion.flatMap(SemanticVersion.init) : nil
        platform = uses.contains(.platform) ? attributes.platform?.lowercased() : nil
        locale = uses.contains(.locale) ? attributes.locale.map(CompiledConditions.normalizedLocale) : nil
        region = uses.contains(.region) ? attributes.region?.lowercased() : nil
        deviceClass = uses.contains(.deviceClass) ? attributes.deviceClass?.lowercased() : nil
    }
}

/// A rule's conditions, checked and prepared.
struct CompiledConditions: Sendable {
    var appVersion: VersionRange?
    var osVersion: VersionRange?
    var platform: Set<String>?
    var locale: [String]?
    var region: Set<String>?
    var deviceClass: Set<String>?
    var installationId: Set<String>?
    var custom: [(key: String, values: Set<String>)] = []

    init(_ conditions: RolloutConditions?, path: String) throws(RolloutInvalid) {
        guard let conditions else { return }
        appVersion = try Self.range(conditions.appVersion, path: "\(path).appVersion")
        osVersion = try Self.range(conditions.osVersion, path: "\(path).osVersion")
        platform = try Self.tokens(conditions.platform, path: "\(path).platform").map { Set($0.map { $0.lowercased() }) }
        locale = try Self.tokens(conditions.locale, path: "\(path).locale").map { $0.map(Self.normalizedLocale) }
        region = try Self.tokens(conditions.region, path: "\(path).region").map { Set($0.map { $0.lowercased() }) }
        deviceClass = try Self.tokens(conditions.deviceClass, path: "\(path).deviceClass").map { Set($0.map { $0.lowercased() }) }
        installationId = try Self.tokens(
            conditions.installationId, path: "\(path).installationId", limit: RolloutLimits.maximumInstallationIds
        ).map(Set.init)
        if let custom = conditions.custom {
            guard custom.count <= RolloutLimits.maximumCustomKeys else {
                throw RolloutInvalid("\(path).custom", "has \(custom.count) keys; at most \(RolloutLimits.maximumCustomKeys) are allowed")
            }
            for (key, values) in custom.sorted(by: { $0.key < $1.key }) {
                guard RolloutLimits.isKey(key) else {
                    throw RolloutInvalid("\(path).custom", "key \"\(key.prefix(80))\" is not 1 to 64 characters from A-Z a-z 0-9 . _ -")
                }
                try Self.checkCount(values.count, path: "\(path).custom.\(key)", limit: RolloutLimits.maximumListValues)
                for (index, value) in values.enumerated() where !RolloutLimits.isCustomValue(value) {
                    throw RolloutInvalid("\(path).custom.\(key)[\(index)]", "is longer than \(RolloutLimits.maximumCustomValueBytes) bytes or has control characters")
                }
                self.custom.append((key, Set(values)))
            }
        }
    }

    /// The attributes these conditions read.
    var uses: PreparedDevice.Uses {
        var uses = PreparedDevice.Uses()
        if appVersion != nil { uses.insert(.appVersion) }
        if osVersion != nil { uses.insert(.osVersion) }
        if platform != nil { uses.insert(.platform) }
        if locale != nil { uses.insert(.locale) }
        if region != nil { uses.insert(.region) }
        if deviceClass != nil { uses.insert(.deviceClass) }
        return uses
    }

    /// `en_US` → `en-us`: the API's separator, lowercase.
    static func normalizedLocale(_ text: String) -> String {
        String(text.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    private static func range(_ text: String?, path: String) throws(RolloutInvalid) -> VersionRange? {
        guard let text else { return nil }
        do {
            return try VersionRange(parsing: text)
        } catch {
            throw RolloutInvalid(path, "\"\(text.prefix(80))\" \(error.message)")
        }
    }

    private static func tokens(_ values: [String]?, path: String, limit: Int = RolloutLimits.maximumListValues) throws(RolloutInvalid) -> [String]? {
        guard let values else { return nil }
        try checkCount(values.count, path: path, limit: limit)
        for (index, value) in values.enumerated() where !RolloutLimits.isToken(value) {
            throw RolloutInvalid("\(path)[\(index)]", "must be 1 to \(RolloutLimits.maximumTokenLength) characters from A-Z a-z 0-9 . _ - :")
        }
        return values
    }

    private static func checkCount(_ count: Int, path: String, limit: Int) throws(RolloutInvalid) {
        guard count > 0 else { throw RolloutInvalid(path, "is empty, so it would match no device; leave the condition out to match every device") }
        guard count <= limit else { throw RolloutInvalid(path, "has \(count) values; at most \(limit) are allowed") }
    }

    /// Whether the device meets every condition (a condition on an attribute the device did not send fails).
    func match(_ device: PreparedDevice) -> Bool {
        if let appVersion { guard let version = device.appVersion, appVersion.contains(version) else { return false } }
        if let osVersion { guard let version = device.osVersion, osVersion.contains(version) else { return false } }
        if let platform { guard let value = device.platform, platform.contains(value) else { return false } }
        if let region { guard let value = device.region, region.contains(value) else { return false } }
        if let deviceClass { guard let value = device.deviceClass, deviceClass.contains(value) else { return false } }
        if let locale {
            guard let value = device.locale,
                  locale.contains(where: { value == $0 || (value.hasPrefix($0) && value.dropFirst($0.count).first == "-") })
            else { return false }
        }
        if let installationId { guard installationId.contains(device.attributes.installationId) else { return false } }
        for (key, values) in custom {
            guard let value = device.attributes.custom[key], values.contains(value) else { return false }
        }
        return true
    }
}
#endif
