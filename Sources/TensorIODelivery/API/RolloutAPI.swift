#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation

// The rollout documents of the repository API (`/v1/models/{id}/rollout…` and `/v1/models/{id}/assignment`),
// shared by the server and the client. See docs/repository-api.md, "Rollouts and targeting".

/// A model's rollout: its targeting rules, whether it is paused, and its revision.
/// `GET /v1/models/{id}/rollout`, and the answer to every rollout change.
///
/// For each device that asks for its assignment, the rules are tried in order and the first one that
/// matches the device *and* has the device inside its percentage decides the version; a device that no
/// rule takes gets the fallback: the installed version's `upgradeTo`, else the canonical version.
public struct Rollout: Codable, Sendable, Hashable {
    /// The model's identifier.
    public var modelId: String
    /// Incremented by every change; 0 for a model that never had a rollout.
    public var revision: Int64
    /// Whether the rollout is paused: a device gets a rule's version only when it already has that version
    /// installed; every other device gets the fallback.
    public var paused: Bool
    /// The rules, tried in order.
    public var rules: [RolloutRule]
    /// When the rollout last changed; `nil` before its first change.
    public var updatedAt: Date?

    /// Creates a rollout document.
    public init(modelId: String, revision: Int64 = 0, paused: Bool = false, rules: [RolloutRule] = [], updatedAt: Date? = nil) {
        self.modelId = modelId
        self.revision = revision
        self.paused = paused
        self.rules = rules
        self.updatedAt = updatedAt
    }

    /// Every version the rules name (targets and split arms).
    public var namedVersions: Set<String> {
        Set(rules.flatMap { rule in (rule.version.map { [$0] } ?? []) + (rule.split ?? []).map(\.version) })
    }
}

/// One targeting rule: conditions on the device, a share of the matching devices, and the version they get.
public struct RolloutRule: Codable, Sendable, Hashable {
    /// The rule's name: unique within the rollout, named in assignments and by `ramp`. An identifier
    /// (1 to 128 characters from `A-Z a-z 0-9 . _ -`).
    public var name: String
    /// The conditions a device must meet, all of them; `nil` matches every device.
    public var when: RolloutConditions?
    /// The share of matching devices that get the target, 0 to 100 in steps of 0.01; `nil` means 100.
    /// Which devices are in is decided by the device's bucket, so raising it only adds devices.
    public var percent: Double?
    /// The version the devices get. Exactly one of ``version`` and ``split`` is given.
    public var version: String?
    /// An A/B split: the devices are divided between these versions by weight.
    public var split: [RolloutArm]?
    /// What the device's bucket is computed from, beside the model id and the installation id; the rule's
    /// name when `nil`. Keep it when renaming a rule to keep its devices; change it to draw a new sample.
    public var salt: String?

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - name: The rule's unique name.
    ///   - when: The conditions; `nil` for every device.
    ///   - percent: The share of matching devices, 0 to 100; `nil` for all.
    ///   - version: The version to give (or `nil` with `split`).
    ///   - split: The arms of an A/B split (or `nil` with `version`).
    ///   - salt: The bucketing salt; `nil` for the name.
    public init(
        name: String, when: RolloutConditions? = nil, percent: Double? = nil, version: String? = nil,
        split: [RolloutArm]? = nil, salt: String? = nil
    ) {
        self.name = name
        self.when = when
        self.percent = percent
        self.version = version
        self.split = split
        self.salt = salt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, when, percent, version, split, salt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        when = try container.decodeIfPresent(RolloutConditions.self, forKey: .when)
        percent = try container.decodeIfPresent(Double.self, forKey: .percent)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        split = try container.decodeIfPresent([RolloutArm].self, forKey: .split)
        salt = try container.decodeIfPresent(String.self, forKey: .salt)
    }
}

/// The conditions of a rule on the attributes a device sends (``DeviceAttributes``). Every condition given
/// must hold; a device that does not send an attribute a condition needs does not match.
public struct RolloutConditions: Codable, Sendable, Hashable {
    /// A range of app versions, such as `">=2.4.0 <3"`: comparators (`>=`, `>`, `<=`, `<`, `=`) separated
    /// by spaces, all of which must hold.
    public var appVersion: String?
    /// A range of OS versions, in the same form as ``appVersion``.
    public var osVersion: String?
    /// Platforms, such as `["ios", "android"]` (compared ignoring case).
    public var platform: [String]?
    /// Locales, such as `["en-US", "fr"]`: a language alone matches every region of it (`fr` matches
    /// `fr-CA`); `_` and `-` are the same, case is ignored.
    public var locale: [String]?
    /// Regions, such as `["US", "CA"]` (compared ignoring case).
    public var region: [String]?
    /// Device classes, such as `["phone", "tablet"]` (compared ignoring case).
    public var deviceClass: [String]?
    /// Installation ids: the devices named (test devices, say).
    public var installationId: [String]?
    /// Custom attributes: each key must be sent with one of the listed values (compared exactly).
    public var custom: [String: [String]]?

    /// Creates conditions; `nil` for any condition leaves it out.
    public init(
        appVersion: String? = nil, osVersion: String? = nil, platform: [String]? = nil, locale: [String]? = nil,
        region: [String]? = nil, deviceClass: [String]? = nil, installationId: [String]? = nil,
        custom: [String: [String]]? = nil
    ) {
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.platform = platform
        self.locale = locale
        self.region = region
        self.deviceClass = deviceClass
        self.installationId = installationId
        self.custom = custom
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case appVersion, osVersion, platform, locale, region, deviceClass, installationId, custom
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        osVersion = try container.decodeIfPresent(String.self, forKey: .osVersion)
        platform = try container.decodeIfPresent([String].self, forKey: .platform)
        locale = try container.decodeIfPresent([String].self, forKey: .locale)
        region = try container.decodeIfPresent([String].self, forKey: .region)
        deviceClass = try container.decodeIfPresent([String].self, forKey: .deviceClass)
        installationId = try container.decodeIfPresent([String].self, forKey: .installationId)
        custom = try container.decodeIfPresent([String: [String]].self, forKey: .custom)
    }
}

/// One arm of an A/B split: a version and its relative weight.
public struct RolloutArm: Codable, Sendable, Hashable {
    /// The version devices in this arm get.
    public var version: String
    /// The arm's weight, a whole number from 1 to 10,000; an arm gets `weight / sum of weights` of the
    /// devices.
    public var weight: Int

    /// Creates an arm.
    public init(version: String, weight: Int) {
        self.version = version
        self.weight = weight
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, weight
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        weight = try container.decodeWholeNumber(forKey: .weight)
    }
}

/// `PUT /v1/models/{id}/rollout`'s body: the new rules (replacing all of them) and the paused flag.
///
/// A ``Rollout`` as `GET` answers it is a valid body (its `modelId` must be the model's, its `updatedAt`
/// is ignored), so a rollout can be fetched, edited and put back; its `revision` then makes the change
/// fail with 409 when someone else changed the rollout in between.
public struct RolloutUpdate: Codable, Sendable, Hashable {
    /// The rules, tried in order.
    public var rules: [RolloutRule]
    /// Whether the rollout is paused; `nil` means not paused.
    public var paused: Bool?
    /// The revision the change is based on: when given and the rollout's revision differs, the change is
    /// refused with 409 `conflict`.
    public var revision: Int64?
    /// The model's id, if given: must be the one in the path.
    public var modelId: String?
    /// Ignored (accepted so that a fetched ``Rollout`` can be put back).
    public var updatedAt: Date?

    /// Creates a body.
    ///
    /// - Parameters:
    ///   - rules: The rules, tried in order.
    ///   - paused: Whether the rollout is paused.
    ///   - revision: The revision the change is based on, to refuse it when the rollout changed meanwhile.
    public init(rules: [RolloutRule], paused: Bool? = nil, revision: Int64? = nil) {
        self.rules = rules
        self.paused = paused
        self.revision = revision
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case rules, paused, revision, modelId, updatedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        rules = try container.decode([RolloutRule].self, forKey: .rules)
        paused = try container.decodeIfPresent(Bool.self, forKey: .paused)
        revision = try container.decodeWholeNumberIfPresent(forKey: .revision).map(Int64.init)
        modelId = try container.decodeIfPresent(String.self, forKey: .modelId)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
    }
}

/// The body of the rollout verbs: `POST /v1/models/{id}/rollout/ramp`, `…/pause`, `…/resume` and
/// `…/rollback`. Each verb reads the fields it needs and refuses the others.
public struct RolloutAction: Codable, Sendable, Hashable {
    /// `ramp`: the new percentage of the rule, 0 to 100 in steps of 0.01.
    public var percent: Double?
    /// `ramp`: the rule to ramp; may be left out when the rollout has exactly one rule.
    public var rule: String?
    /// `rollback`: the version to make canonical while the rules are removed; `nil` keeps the canonical
    /// version.
    public var version: String?
    /// Any verb: the revision the change is based on (409 `conflict` when the rollout's differs).
    public var revision: Int64?

    /// Creates a body.
    public init(percent: Double? = nil, rule: String? = nil, version: String? = nil, revision: Int64? = nil) {
        self.percent = percent
        self.rule = rule
        self.version = version
        self.revision = revision
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case percent, rule, version, revision
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        percent = try container.decodeIfPresent(Double.self, forKey: .percent)
        rule = try container.decodeIfPresent(String.self, forKey: .rule)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        revision = try container.decodeWholeNumberIfPresent(forKey: .revision).map(Int64.init)
    }
}
#endif
