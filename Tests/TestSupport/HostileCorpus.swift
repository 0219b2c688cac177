public import Foundation
public import Testing

/// The hostile regression corpus (`Tests/Fixtures/Hostile/`, written by its `make_hostile.py`): the cases
/// `cases.json` lists, each a file, the check it goes through and the error it must end with.
public enum HostileCorpus {
    /// One case of `cases.json`.
    public struct Case: Decodable, Sendable, CustomTestStringConvertible {
        /// The file, relative to ``Fixtures/hostileDirectory``.
        public var file: String
        /// Which check it goes through: `bundle`, `model-json`, `image`, `model-file` or `archive`.
        public var kind: String
        /// The ``TensorIO/TensorIOError/Code`` raw value it must end with.
        public var code: String
        /// Words the error's message must contain.
        public var message: String
        /// Why the case is there.
        public var why: String

        public var testDescription: String { "\(file) (\(kind))" }

        /// The case's file.
        public var url: URL { Fixtures.hostileDirectory.appendingPathComponent(file) }
    }

    /// Every case (none when `cases.json` cannot be read: the tests that count the cases then fail).
    public static let cases: [Case] = {
        guard let data = try? Data(contentsOf: Fixtures.hostileDirectory.appendingPathComponent("cases.json")),
              let cases = try? JSONDecoder().decode([Case].self, from: data)
        else { return [] }
        return cases
    }()

    /// The cases of the given kinds.
    public static func cases(of kinds: Set<String>) -> [Case] { cases.filter { kinds.contains($0.kind) } }
}
