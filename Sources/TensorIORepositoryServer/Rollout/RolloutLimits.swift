#if Server  // built with the Server trait only (Package.swift)
import TensorIODelivery

/// The bounds on rollout documents and device attributes. Everything in them comes from outside, so every
/// size and count is bounded; a value past a bound is refused with a 400 naming its JSON path.
public enum RolloutLimits {
    /// The largest `PUT …/rollout` body, in bytes.
    public static let maximumRulesBodyBytes = 256 * 1024
    /// The largest body of a rollout verb or an assignment request, in bytes.
    public static let maximumRequestBodyBytes = 16 * 1024
    /// The most rules in a rollout.
    public static let maximumRules = 64
    /// The most values in one list condition (`platform`, `locale`, `region`, `deviceClass`, each custom key).
    public static let maximumListValues = 64
    /// The most installation ids in one `installationId` condition.
    public static let maximumInstallationIds = 1000
    /// The most custom keys in a rule's conditions, and in a device's attributes.
    public static let maximumCustomKeys = 32
    /// The most arms in an A/B split.
    public static let maximumArms = 16
    /// The largest weight of an arm (weights are whole numbers from 1).
    public static let maximumWeight = 10_000
    /// The longest id, token (platform, region, locale, device class), salt or custom key, in characters.
    public static let maximumTokenLength = 128
    /// The longest custom value, in UTF-8 bytes.
    public static let maximumCustomValueBytes = 256

    /// Whether `text` is 1 to ``maximumTokenLength`` characters from `A-Z a-z 0-9 . _ - :`.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumTokenLength && text.utf8.allSatisfy(isTokenByte)
    }

    /// Whether `text` is 1 to 64 characters from `A-Z a-z 0-9 . _ -` (a custom key).
    static func isKey(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { isTokenByte($0) && $0 != 58 }
    }

    /// Whether `text` is a custom value: at most ``maximumCustomValueBytes`` bytes, no control characters.
    static func isCustomValue(_ text: String) -> Bool {
        text.utf8.count <= maximumCustomValueBytes && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 46 || byte == 95
            || byte == 45 || byte == 58
    }
}

/// A rollout document or device attributes that break the rules: the JSON path of the value and what is
/// wrong with it, such as `rules[2].when.appVersion: "2.x" is not a version`.
public struct RolloutInvalid: Error, Sendable, CustomStringConvertible {
    /// The JSON path, such as `rules[2].split[0].weight`; empty for the whole document.
    public var path: String
    /// What is wrong.
    public var message: String

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The path and message of a `DecodingError` (a wrong type, a missing or unknown key, invalid JSON).
    ///
    /// - Parameter error: What a decoder threw.
    /// - Returns: The error with the JSON path of the value, such as `rules[0].when.region`.
    public static func from(_ error: DecodingError) -> RolloutInvalid {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return RolloutInvalid(path(context.codingPath), "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return RolloutInvalid(path(context.codingPath), "expected \(describe(type)), not null")
        case .keyNotFound(let key, let context):
            return RolloutInvalid(path(context.codingPath + [key]), "is required")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return RolloutInvalid("", "the body is not valid JSON: \(String(context.debugDescription.prefix(200)))")
            }
            return RolloutInvalid(path(context.codingPath), String(context.debugDescription.prefix(300)))
        @unknown default:
            return RolloutInvalid("", "the body is not the expected JSON")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is [String].Type: "an array of strings"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// Validation of device attributes against ``RolloutLimits``.
enum DeviceAttributesValidation {
    /// Throws ``RolloutInvalid`` naming the first attribute past the limits.
    static func validate(_ request: AssignmentRequest) throws(RolloutInvalid) {
        let attributes = request.attributes
        guard RolloutLimits.isToken(attributes.installationId) else {
            throw RolloutInvalid("installationId", "must be 1 to \(RolloutLimits.maximumTokenLength) characters from A-Z a-z 0-9 . _ - :")
        }
        for (name, value) in [("appVersion", attributes.appVersion), ("osVersion", attributes.osVersion)] {
            if let value, SemanticVersion(value) == nil {
                throw RolloutInvalid(name, "\"\(value.prefix(80))\" is not a version (one to four numbers such as 2.4.1, an optional -prerelease)")
            }
        }
        for (name, value) in [("platform", attributes.platform), ("locale", attributes.locale), ("region", attributes.region),
                              ("deviceClass", attributes.deviceClass)] {
            if let value, !RolloutLimits.isToken(value) {
                throw RolloutInvalid(name, "must be 1 to \(RolloutLimits.maximumTokenLength) characters from A-Z a-z 0-9 . _ - :")
            }
        }
        guard attributes.custom.count <= RolloutLimits.maximumCustomKeys else {
            throw RolloutInvalid("custom", "has more than \(RolloutLimits.maximumCustomKeys) keys")
        }
        for (key, value) in attributes.custom.sorted(by: { $0.key < $1.key }) {
            guard RolloutLimits.isKey(key) else {
                throw RolloutInvalid("custom", "key \"\(key.prefix(80))\" is not 1 to 64 characters from A-Z a-z 0-9 . _ -")
            }
            guard RolloutLimits.isCustomValue(value) else {
                throw RolloutInvalid("custom.\(key)", "is longer than \(RolloutLimits.maximumCustomValueBytes) bytes or has control characters")
            }
        }
        if let installed = request.installedVersion, !RepositoryIdentifier.isValid(installed) {
            throw RolloutInvalid("installedVersion", RepositoryIdentifier.describeInvalid(installed, kind: "version"))
        }
    }
}
#endif
