#if Delivery  // built with the Delivery trait only (Package.swift)
/// The publisher keys a client trusts: a version is installed only when one of them signed it.
///
/// Several keys make key rotation possible: clients trust the old and the new key, the publisher signs
/// new versions with the new key, and once every client has the new key the old one is dropped
/// (docs/security.md).
public struct TrustedKeys: Sendable, Hashable {
    /// The keys, by ``PublisherKey/id``.
    public let keys: [String: PublisherKey]

    /// Trusts `keys` (a key given twice counts once).
    ///
    /// - Parameter keys: The trusted publisher keys; at least one, or nothing can be installed.
    public init(_ keys: [PublisherKey]) {
        var byId: [String: PublisherKey] = [:]
        for key in keys { byId[key.id] = key }
        self.keys = byId
    }

    /// The trusted key with this id, or `nil`.
    ///
    /// - Parameter id: A ``PublisherKey/id``.
    /// - Returns: The key.
    public func key(id: String) -> PublisherKey? { keys[id] }

    /// The trusted keys' ids, sorted.
    public var ids: [String] { keys.keys.sorted() }
}
#endif
