import Foundation
import Testing
import TensorIOTestSupport

/// The unsafe fence stays where docs/architecture.md says it is (issue 38, point 3): every call that
/// reinterprets memory is in an `Unsafe/` folder of its module, and every file there states the contract
/// its callers keep. The sources are found from this file's path (``Fixtures/repositoryRoot``, from
/// `#filePath`), so the check runs wherever the repository is cloned.
@Suite("The unsafe fence")
struct UnsafeFenceTests {
    /// The calls that view memory as another type than the one it holds, or turn an address into an object.
    static let reinterpretingCalls = ["assumingMemoryBound", "bindMemory", "withMemoryRebound", "Unmanaged", "unsafeBitCast", "unsafeDowncast"]

    /// Each Swift file under `Sources/`, by its path from the repository root.
    static func sourceFiles() throws -> [String: String] {
        let root = Fixtures.repositoryURL("Sources")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        var contents: [String: String] = [:]
        for file in files {
            contents["Sources/" + file] = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        }
        return contents
    }

    static func isFenced(_ path: String) -> Bool {
        path.split(separator: "/").contains("Unsafe")
    }

    /// `path:line: call` for each line of `contents` that names a reinterpreting call.
    static func reinterpretingLines(in contents: String, path: String) -> [String] {
        contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, line in
            reinterpretingCalls.filter { line.contains($0) }.map { "\(path):\(index + 1): \($0)" }
        }
    }

    @Test("no call that reinterprets memory outside an Unsafe/ folder")
    func noReinterpretingCallOutside() throws {
        let files = try Self.sourceFiles()
        let outside = files.filter { !Self.isFenced($0.key) }
        let offending = outside.sorted { $0.key < $1.key }.flatMap { Self.reinterpretingLines(in: $0.value, path: $0.key) }
        #expect(offending.isEmpty, "move these behind a fenced type in the module's Unsafe/ folder (docs/architecture.md, \"The unsafe fence\"):\n\(offending.joined(separator: "\n"))")
        // The scan sees the sources and finds the calls where they are: inside the fence.
        #expect(outside.count > 300, "only \(outside.count) source files found under \(Fixtures.repositoryURL("Sources").path)")
        let inside = files.filter { Self.isFenced($0.key) }.flatMap { Self.reinterpretingLines(in: $0.value, path: $0.key) }
        #expect(inside.contains { $0.hasPrefix("Sources/TensorIO/Unsafe/TensorMemory.swift:") && $0.hasSuffix(": bindMemory") }, "\(inside)")
    }

    @Test("every file of an Unsafe/ folder states the contract its callers keep")
    func contractsStated() throws {
        let fenced = try Self.sourceFiles().filter { Self.isFenced($0.key) }
        #expect(fenced.count >= 10, "\(fenced.keys.sorted())")
        let silent = fenced.filter { !$0.value.contains("contract") }.keys.sorted()
        #expect(silent.isEmpty, "no \"contract\" in the doc comments of \(silent)")
    }
}
