import Foundation
public import Testing

// What the tool promises of every run, checked the same way by every CLI suite.

/// The run succeeded (exit 0, no signal) and printed exactly `stdout` (plus a final newline).
public func expectSuccess(
    _ result: ProcessResult, stdout expected: String, quietStderr: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.exited, "\(result)", sourceLocation: sourceLocation)
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout == expected + "\n", "\(result)", sourceLocation: sourceLocation)
    if quietStderr {
        #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
    }
}

/// The run failed as the tool promises: exit status 1 (no signal), nothing on stdout, and exactly one line
/// on stderr, which starts with "error: " and contains each of `fragments`.
public func expectOneLineError(
    _ result: ProcessResult, containing fragments: [String] = [], status: Int32 = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.exited, "died on a signal: \(result)", sourceLocation: sourceLocation)
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasSuffix("\n"), "\(result)", sourceLocation: sourceLocation)
    let lines = result.stderrLines
    #expect(lines.count == 1, "expected exactly one stderr line: \(result)", sourceLocation: sourceLocation)
    guard let line = lines.first else { return }
    #expect(line.hasPrefix("error: "), "\(result)", sourceLocation: sourceLocation)
    #expect(line.count > "error: ".count + 5, "the message says nothing: \(result)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(line.contains(fragment), "missing \"\(fragment)\": \(result)", sourceLocation: sourceLocation)
    }
}

/// A usage error (a command line that cannot work as given): like ``expectOneLineError(_:containing:status:sourceLocation:)``
/// with exit status 64, as argument-parser reports its own.
public func expectUsageError(
    _ result: ProcessResult, containing fragments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
) {
    expectOneLineError(result, containing: fragments, status: 64, sourceLocation: sourceLocation)
}

/// Parses the run's stdout as one JSON object.
public func jsonObject(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    return try #require(parsed as? [String: Any], "stdout is not a JSON object: \(result)", sourceLocation: sourceLocation)
}

/// The numbers of a JSON array (as parsed by JSONSerialization).
public func numbers(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Double] {
    let array = try #require(value as? [Any], "not an array: \(String(describing: value))", sourceLocation: sourceLocation)
    return try array.map {
        try #require(($0 as? NSNumber)?.doubleValue, "not a number: \($0)", sourceLocation: sourceLocation)
    }
}

/// The keys of the top-level JSON object in `text`, in the order written. JSONSerialization forgets the
/// order, and the tool promises model.json order.
public func topLevelKeys(_ text: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    var expectingKey = false
    for character in text {
        if inString {
            if escaped {
                escaped = false
                current.append(character)
            } else if character == "\\" {
                escaped = true
                current.append(character)
            } else if character == "\"" {
                inString = false
                if expectingKey {
                    keys.append(current)
                    expectingKey = false
                }
            } else {
                current.append(character)
            }
            continue
        }
        switch character {
        case "\"":
            inString = true
            current = ""
        case "{", "[":
            depth += 1
            if character == "{", depth == 1 { expectingKey = true }
        case "}", "]":
            depth -= 1
        case ",":
            if depth == 1 { expectingKey = true }
        default:
            break
        }
    }
    return keys
}

