#if Delivery  // built with the Delivery trait only (Package.swift)
/// `POST /v1/models/{id}/assignment`'s body: the device's attributes, and the version it has installed.
///
/// On the wire the attributes and `installedVersion` are the members of one object:
/// `{"installationId": "…", "appVersion": "2.4.1", "platform": "ios", "installedVersion": "2"}`.
public struct AssignmentRequest: Codable, Sendable, Hashable {
    /// The device.
    public var attributes: DeviceAttributes
    /// The version the device has installed, if any: it decides the `upgradeTo` fallback and what a
    /// paused rollout keeps.
    public var installedVersion: String?

    /// Creates a request.
    public init(attributes: DeviceAttributes, installedVersion: String? = nil) {
        self.attributes = attributes
        self.installedVersion = installedVersion
    }

    enum CodingKeys: String, CodingKey {
        case installedVersion
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(DeviceAttributes.CodingKeys.allCases.map(\.rawValue) + [CodingKeys.installedVersion.rawValue])
        attributes = try DeviceAttributes(from: decoder, knownKeysChecked: true)
        installedVersion = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .installedVersion)
    }

    public func encode(to encoder: any Encoder) throws {
        try attributes.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(installedVersion, forKey: .installedVersion)
    }
}

/// `POST /v1/models/{id}/assignment`'s answer: the version for this device, and what decided it.
public struct Assignment: Codable, Sendable, Hashable {
    /// What decided an assignment (the values of ``Assignment/decidedBy``).
    public enum Reason {
        /// A rule matched the device and had it inside its percentage.
        public static let rule = "rule"
        /// The rollout is paused and the device already has the version a rule gives it: it keeps it.
        public static let held = "held"
        /// The rollout is paused and a rule would give the device a version it does not have: it gets the
        /// fallback instead (``Assignment/rule`` names the rule).
        public static let paused = "paused"
        /// No rule took the device; its installed version's `upgradeTo` is the fallback.
        public static let upgradeTo = "upgradeTo"
        /// No rule took the device; the canonical version is the fallback.
        public static let canonical = "canonical"
    }

    /// The model's identifier.
    public var modelId: String
    /// The version this device should run.
    public var version: VersionDetails
    /// What decided it: one of the ``Reason`` values.
    public var decidedBy: String
    /// The rule that matched, if one did.
    public var rule: String?
    /// The index of the split's arm that was drawn, when the rule is an A/B split.
    public var arm: Int?
    /// The device's bucket in the rule, 0 to 9,999: it is inside the rule's percentage `p` when
    /// `bucket < p × 100`.
    public var bucket: Int?
    /// The rollout's revision the decision was made with (0: the model has no rollout).
    public var revision: Int64
    /// Whether the answer is to be followed even when the version is older than the installed one: true
    /// for every model that has a rollout (a rollback, a ramp down or a pause moves devices back), false
    /// for a model that never had one (the client then applies its "only if newer" condition as it does
    /// without attributes).
    public var authoritative: Bool

    /// Creates an assignment.
    public init(
        modelId: String, version: VersionDetails, decidedBy: String, rule: String? = nil, arm: Int? = nil,
        bucket: Int? = nil, revision: Int64, authoritative: Bool
    ) {
        self.modelId = modelId
        self.version = version
        self.decidedBy = decidedBy
        self.rule = rule
        self.arm = arm
        self.bucket = bucket
        self.revision = revision
        self.authoritative = authoritative
    }
}
#endif
