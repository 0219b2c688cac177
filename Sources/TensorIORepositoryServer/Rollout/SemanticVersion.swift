#if Server  // built with the Server trait only (Package.swift)
/// An app or OS version as rollout rules compare them: one to four numbers separated by dots, an optional
/// pre-release after `-` (dot-separated identifiers of `A-Z a-z 0-9 -`) and optional build metadata after
/// `+` (ignored), at most 64 characters: `2`, `2.4.1`, `17.0.1.3`, `3.0.0-beta.2`, `1.2+build.7`.
///
/// Missing numbers are zeros (`2.4` = `2.4.0`); a pre-release comes before its release and pre-releases
/// compare as in Semantic Versioning 2.0 (numeric identifiers numerically, others in ASCII order, a
/// shorter list first when it is a prefix).
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The longest text accepted.
    public static let maximumLength = 64

    /// The four numbers, missing ones zero.
    let numbers: [UInt32]
    /// The pre-release identifiers; empty for a release.
    let prerelease: [Substring]

    public let description: String

    /// Parses `text`; `nil` when it is not a version in the form above.
    ///
    /// - Parameter text: A version such as `2.4.1`.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength else { return nil }
        var rest = Substring(text)
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard Self.isIdentifierList(build) else { return nil }
            rest = rest[..<plus]
        }
        var prerelease: [Substring] = []
        if let dash = rest.firstIndex(of: "-") {
            let tail = rest[rest.index(after: dash)...]
            guard Self.isIdentifierList(tail) else { return nil }
            prerelease = tail.split(separator: ".", omittingEmptySubsequences: false)
            rest = rest[..<dash]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt32] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 9, part.utf8.allSatisfy({ (48...57).contains($0) }),
                  let number = UInt32(part)
            else { return nil }
            numbers.append(number)
        }
        while numbers.count < 4 { numbers.append(0) }
        self.numbers = numbers
        self.prerelease = prerelease
        self.description = text
    }

    private static func isIdentifierList(_ text: Substring) -> Bool {
        let identifiers = text.split(separator: ".", omittingEmptySubsequences: false)
        return identifiers.allSatisfy { identifier in
            !identifier.isEmpty && identifier.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
            }
        }
    }

    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.numbers == rhs.numbers && lhs.prerelease == rhs.prerelease
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(numbers)
        hasher.combine(prerelease)
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.numbers != rhs.numbers { return lhs.numbers.lexicographicallyPrecedes(rhs.numbers) }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true), (true, false): return false  // equal, or a release after its pre-release
        case (false, true): return true
        case (false, false): break
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            switch (UInt64(left), UInt64(right)) {
            case let (l?, r?): return l < r
            case (_?, nil): return true  // numeric identifiers come first
            case (nil, _?): return false
            case (nil, nil): return left.utf8.lexicographicallyPrecedes(right.utf8)
            }
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }
}

/// A range of versions in a rule: one to four comparators separated by spaces, all of which must hold,
/// such as `>=2.4.0 <3`, `=17.4`, `>1.0.0-beta`. Comparators are `>=`, `>`, `<=`, `<` and `=`, written
/// right before their version.
public struct VersionRange: Sendable, Hashable, CustomStringConvertible {
    /// The longest text accepted.
    public static let maximumLength = 128

    enum Operator: String, CaseIterable, Sendable {
        // Two-character operators first, so that ">=" is not read as ">" followed by "=…".
        case greaterOrEqual = ">=", lessOrEqual = "<=", greater = ">", less = "<", equal = "="
    }

    let comparators: [(Operator, SemanticVersion)]
    public let description: String

    /// Parses `text`.
    ///
    /// - Parameter text: A range such as `>=2.4.0 <3`.
    /// - Throws: A sentence saying what is wrong, as a `String` error for the caller to place.
    init(parsing text: String) throws(RangeError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw RangeError("is longer than \(Self.maximumLength) characters")
        }
        let words = text.split(separator: " ")
        guard !words.isEmpty else { throw RangeError("is empty: give comparators such as \">=2.4.0 <3\"") }
        guard words.count <= 4 else { throw RangeError("has more than 4 comparators") }
        var comparators: [(Operator, SemanticVersion)] = []
        for word in words {
            guard let op = Operator.allCases.first(where: { word.hasPrefix($0.rawValue) }) else {
                throw RangeError("\"\(word)\" does not start with >=, >, <=, < or =")
            }
            let versionText = String(word.dropFirst(op.rawValue.count))
            guard let version = SemanticVersion(versionText) else {
                throw RangeError("\"\(versionText)\" is not a version (one to four numbers such as 2.4.1, an optional -prerelease)")
            }
            comparators.append((op, version))
        }
        self.comparators = comparators
        self.description = text
    }

    /// Whether `version` is in the range.
    func contains(_ version: SemanticVersion) -> Bool {
        comparators.allSatisfy { op, bound in
            switch op {
            case .greaterOrEqual: version >= bound
            case .greater: version > bound
            case .lessOrEqual: version <= bound
            case .less: version < bound
            case .equal: version == bound
            }
        }
    }

    public static func == (lhs: VersionRange, rhs: VersionRange) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// Why a range could not be parsed.
    struct RangeError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
#endif
