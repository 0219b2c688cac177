#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation

extension RepositoryAPI {
    /// A decoder `userInfo` key: when its value is `true`, the rollout documents refuse keys they do not
    /// know (the server decodes requests this way, so a misspelt condition is an error rather than a rule
    /// that matches everyone). Clients decode answers without it, so that a newer server's additions do
    /// not break them.
    public static let rejectsUnknownKeys = CodingUserInfoKey(rawValue: "tensorio.rejectsUnknownKeys")!

    /// A decoder for requests: the API's JSON, refusing unknown keys in the rollout documents.
    public static func makeStrictDecoder() -> JSONDecoder {
        let decoder = makeDecoder()
        decoder.userInfo[rejectsUnknownKeys] = true
        return decoder
    }
}

/// A coding key of any name, to list the keys a JSON object has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension KeyedDecodingContainer {
    /// A whole number, with an error naming the key for `1.5` (JSONDecoder's own error for a fraction read
    /// as an integer has no path).
    func decodeWholeNumber(forKey key: Key) throws -> Int {
        let value = try decode(Double.self, forKey: key)
        guard let whole = Int(exactly: value), whole.magnitude <= 1 << 53 else {  // magnitude: abs(Int.min) traps
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(value) is not a whole number")
        }
        return whole
    }

    /// ``decodeWholeNumber(forKey:)`` for a key that may be missing or `null`.
    func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        try decodeIfPresent(Double.self, forKey: key) != nil ? decodeWholeNumber(forKey: key) : nil
    }
}

extension Decoder {
    /// Throws a `DecodingError` naming the first key of the object being decoded that is not in `known`,
    /// when the decoder's `userInfo` asks for it (``RepositoryAPI/rejectsUnknownKeys``).
    func refuseUnknownKeys(_ known: [String]) throws {
        guard userInfo[RepositoryAPI.rejectsUnknownKeys] as? Bool == true else { return }
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let allowed = Set(known)
        // Sorted, so the error names the same key every time whatever order the JSON parser keeps.
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw DecodingError.dataCorruptedError(
                forKey: AnyCodingKey(stringValue: unknown), in: container,
                debugDescription: "unknown key (known: \(known.joined(separator: ", ")))")
        }
    }

    /// The container of an object whose keys are all `Key`'s cases: any other key is refused first, when
    /// the decoder's `userInfo` asks for it (``refuseUnknownKeys(_:)``).
    func strictContainer<Key: CodingKey & CaseIterable>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try refuseUnknownKeys(Key.allCases.map(\.stringValue))
        return try container(keyedBy: type)
    }
}
#endif
