#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation

/// A model version installed in a ``ModelStore``.
public struct InstalledModel: Sendable, Hashable, Codable {
    /// The model's identifier.
    public var modelId: String
    /// The installed version.
    public var version: String
    /// The SHA-256 of the archive it was installed from.
    public var sha256: String
    /// When the server says the version was uploaded, if it came from a server.
    public var createdAt: Date?
    /// The server's upload order of the version (``VersionDetails/sequence``), if it came from a server.
    public var sequence: Int64?
    /// When it was installed.
    public var installedAt: Date
    /// The bundle folder.
    public var bundleURL: URL

    /// Creates the description of an installed version.
    public init(
        modelId: String, version: String, sha256: String, createdAt: Date?, sequence: Int64? = nil,
        installedAt: Date, bundleURL: URL
    ) {
        self.sequence = sequence
        self.modelId = modelId
        self.version = version
        self.sha256 = sha256
        self.createdAt = createdAt
        self.installedAt = installedAt
        self.bundleURL = bundleURL
    }
}

/// `<store>/<model>/versions/<version>/install.json`: what was installed, from what.
struct InstallRecord: Codable, Sendable {
    var modelId: String
    var version: String
    var sha256: String
    var createdAt: Date?
    var sequence: Int64?
    var installedAt: Date
    var bundleName: String
    /// ``installedAt`` in seconds since 1970 with its fraction: the API's dates have whole seconds, and
    /// installs within one second must still sort in order (the store keeps the newest ones). Absent in
    /// records written before it was added.
    var installedAtPrecise: TimeInterval?
}

/// `<store>/<model>/current.json`: the pointer, replaced whole with a rename.
struct CurrentPointer: Codable, Sendable {
    var current: String
    var previous: String?
}
#endif
