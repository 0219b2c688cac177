#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation

/// What a device tells the repository server about itself when it asks which version of a model to run,
/// so that the server's rollout rules can target it (``Rollout``).
///
/// Only ``installationId`` is required. The server refuses values past its limits with a 400 naming the
/// field: ids and tokens of 1 to 128 characters from `A-Z a-z 0-9 . _ - :`, versions such as `2.4.1` or
/// `17.0-beta.2` (one to four numbers, an optional pre-release), at most 32 custom keys of 1 to 64
/// characters from `A-Z a-z 0-9 . _ -` with values of at most 256 bytes.
///
/// ```swift
/// var attributes = DeviceAttributes.system(installationId: try store.installationId())
/// attributes.deviceClass = "phone"
/// attributes.custom["cohort"] = "beta"
/// client.deviceAttributes = attributes
/// ```
public struct DeviceAttributes: Codable, Sendable, Hashable {
    /// A random identifier of this installation, created once and kept (see
    /// ``ModelStore/installationId()``); it decides which percentage and A/B bucket the device is in, so
    /// it must stay the same across launches. Not a hardware identifier.
    public var installationId: String
    /// The app's version, such as `2.4.1`.
    public var appVersion: String?
    /// The platform, such as `ios`, `macos`, `android`, `linux`.
    public var platform: String?
    /// The operating system's version, such as `17.4.1`.
    public var osVersion: String?
    /// The user's locale, such as `en-US`.
    public var locale: String?
    /// The user's region, such as `US`.
    public var region: String?
    /// A device class of your choosing, such as `phone`, `tablet`, `desktop`.
    public var deviceClass: String?
    /// Anything else the rules may target, such as `["cohort": "beta"]`.
    public var custom: [String: String]

    /// Creates attributes.
    ///
    /// - Parameters:
    ///   - installationId: The installation's stable random identifier.
    ///   - appVersion: The app's version.
    ///   - platform: The platform.
    ///   - osVersion: The operating system's version.
    ///   - locale: The locale.
    ///   - region: The region.
    ///   - deviceClass: The device class.
    ///   - custom: Custom key-value attributes.
    public init(
        installationId: String, appVersion: String? = nil, platform: String? = nil, osVersion: String? = nil,
        locale: String? = nil, region: String? = nil, deviceClass: String? = nil, custom: [String: String] = [:]
    ) {
        self.installationId = installationId
        self.appVersion = appVersion
        self.platform = platform
        self.osVersion = osVersion
        self.locale = locale
        self.region = region
        self.deviceClass = deviceClass
        self.custom = custom
    }

    /// Attributes filled from the running system: the platform, the OS version, the current locale and
    /// region, the app's version (`CFBundleShortVersionString` of the main bundle, when it has one that
    /// is a valid version) and, on platforms with one kind of device, the device class (`watch`, `tv`,
    /// `vision`, `desktop` on macOS). Set ``deviceClass`` yourself elsewhere (on iOS, from
    /// `UIDevice.userInterfaceIdiom`).
    ///
    /// - Parameter installationId: The installation's stable random identifier, such as
    ///   ``ModelStore/installationId()``.
    /// - Returns: The attributes.
    public static func system(installationId: String) -> DeviceAttributes {
        let os = ProcessInfo.processInfo.operatingSystemVersion
        var attributes = DeviceAttributes(
            installationId: installationId, platform: currentPlatform,
            osVersion: "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)")
        attributes.deviceClass = currentDeviceClass
        let locale = Locale.current
        // "en_US@calendar=…" → "en-US": the part before any keywords, with the API's separator.
        let identifier = locale.identifier.split(separator: "@").first.map(String.init)?
            .replacingOccurrences(of: "_", with: "-") ?? ""
        if isToken(identifier), identifier.lowercased() != "posix", identifier.lowercased() != "en-us-posix" {
            attributes.locale = identifier
        }
        if let region = locale.region?.identifier, isToken(region) { attributes.region = region }
        if let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String,
           isVersion(version) {
            attributes.appVersion = version
        }
        return attributes
    }

    static var currentPlatform: String {
        #if os(iOS)
        "ios"
        #elseif os(macOS)
        "macos"
        #elseif os(tvOS)
        "tvos"
        #elseif os(watchOS)
        "watchos"
        #elseif os(visionOS)
        "visionos"
        #elseif os(Android)
        "android"
        #elseif os(Linux)
        "linux"
        #elseif os(Windows)
        "windows"
        #else
        "unknown"
        #endif
    }

    static var currentDeviceClass: String? {
        #if os(macOS)
        "desktop"
        #elseif os(tvOS)
        "tv"
        #elseif os(watchOS)
        "watch"
        #elseif os(visionOS)
        "vision"
        #else
        nil
        #endif
    }

    /// A plausible token (what the server accepts for ids, platforms, regions, locales).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-:".unicodeScalars.contains($0)) }
    }

    /// A version of digits and dots (what an app's short version string should be).
    private static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...4).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case installationId, appVersion, platform, osVersion, locale, region, deviceClass, custom
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, knownKeysChecked: false)
    }

    /// Decodes, refusing unknown keys unless the caller checked them (``AssignmentRequest`` has one more).
    init(from decoder: any Decoder, knownKeysChecked: Bool) throws {
        if !knownKeysChecked { try decoder.refuseUnknownKeys(CodingKeys.allCases.map(\.rawValue)) }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        installationId = try container.decode(String.self, forKey: .installationId)
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        platform = try container.decodeIfPresent(String.self, forKey: .platform)
        osVersion = try container.decodeIfPresent(String.self, forKey: .osVersion)
        locale = try container.decodeIfPresent(String.self, forKey: .locale)
        region = try container.decodeIfPresent(String.self, forKey: .region)
        deviceClass = try container.decodeIfPresent(String.self, forKey: .deviceClass)
        custom = try container.decodeIfPresent([String: String].self, forKey: .custom) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(installationId, forKey: .installationId)
        try container.encodeIfPresent(appVersion, forKey: .appVersion)
        try container.encodeIfPresent(platform, forKey: .platform)
        try container.encodeIfPresent(osVersion, forKey: .osVersion)
        try container.encodeIfPresent(locale, forKey: .locale)
        try container.encodeIfPresent(region, forKey: .region)
        try container.encodeIfPresent(deviceClass, forKey: .deviceClass)
        if !custom.isEmpty { try container.encode(custom, forKey: .custom) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
#endif
