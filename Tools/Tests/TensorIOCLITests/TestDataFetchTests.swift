import Foundation
import Testing
import TensorIOTestSupport

/// `make test-data` (`scripts/testdata.py fetch`) against a server on 127.0.0.1 and a mirror folder: what
/// matches its pin lands in the cache, everything else is refused, removed and named in one line.
@Suite("make test-data: fetching pinned files")
struct TestDataFetchTests {
    static let script = Fixtures.repositoryURL("scripts/testdata.py")

    /// Bytes that differ from file to file: `seed` picks them.
    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// Runs the script with the cache in `folder/cache`, the mirror `mirror` (none by default), and neither
    /// the caller's mirror nor its requirement (CI sets both).
    static func run(_ arguments: [String], in folder: URL, mirror: URL? = nil, required: Bool = false) throws -> ProcessResult {
        try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path] + arguments,
            environment: [
                "TENSORIO_TEST_DATA_CACHE": folder.appendingPathComponent("cache").path,
                "TENSORIO_TEST_DATA_MIRROR": mirror?.path, "TENSORIO_TEST_DATA_REQUIRED": required ? "1" : nil,
            ],
            timeLimit: .seconds(60)
        )
    }

    /// Pins each of `files` (name → the bytes the pin holds) with its origin on `server`, into folder/manifest.json.
    static func writeManifest(_ files: [String: Data], server: HostileHTTPServer, in folder: URL) throws -> URL {
        var entries: [String] = []
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let file = folder.appendingPathComponent("pins").appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: file)
            let pin = try run(["pin", file.path, name, server.url.absoluteString + "/" + name, "Apache-2.0"], in: folder)
            try #require(pin.status == 0, "\(pin)")
            entries.append(pin.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data("{\"files\": [\(entries.joined(separator: ",\n"))]}".utf8).write(to: manifest)
        return manifest
    }

    static func cached(_ name: String, in folder: URL) -> Data? {
        try? Data(contentsOf: folder.appendingPathComponent("cache").appendingPathComponent(name))
    }

    /// Every file under the cache, relative names (a `.partial` left behind would show here).
    static func cacheListing(in folder: URL) -> [String] {
        let cache = folder.appendingPathComponent("cache")
        let all = FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []
        return all.filter { !(try! cache.appendingPathComponent($0).resourceValues(forKeys: [.isDirectoryKey]).isDirectory ?? false) }.sorted()
    }

    @Test("a good file is cached; a wrong checksum, a truncated answer and a 404 are refused, named in one line, and leave nothing; a cached copy that no longer matches is fetched again")
    func download() throws {
        try withTemporaryDirectory { folder in
            let good = Self.bytes(20_000, seed: 1), pinnedWrong = Self.bytes(5_000, seed: 2)
            let truncated = Self.bytes(30_000, seed: 3), missing = Self.bytes(100, seed: 4)
            let server = try HostileHTTPServer(.files([
                "/models/good.bin": .ok(good),
                "/models/wrong.bin": .ok(Self.bytes(5_000, seed: 9)),  // the pinned size, other bytes
                "/truncated.bin": .truncated(truncated),
            ]))
            defer { server.stop() }
            let manifest = try Self.writeManifest(
                ["models/good.bin": good, "models/wrong.bin": pinnedWrong, "truncated.bin": truncated, "missing.bin": missing],
                server: server, in: folder
            )

            let first = try Self.run(["fetch", "--manifest", manifest.path], in: folder)
            #expect(first.exited && first.status == 0, "offline files do not stop the tests: \(first)")
            #expect(Self.cached("models/good.bin", in: folder) == good)
            #expect(Self.cacheListing(in: folder) == ["models/good.bin"], "nothing else, no .partial: \(first)")
            #expect(first.stdout.contains("1 of 4 pinned files"), "\(first)")
            let lines = first.stderrLines
            #expect(lines.count == 1, "one line: \(first)")
            let line = lines.first ?? ""
            #expect(line.contains("could not fetch 3 file(s)") && line.contains("make test-data"), "\(line)")
            for name in ["models/wrong.bin", "truncated.bin", "missing.bin"] {
                #expect(line.contains(name), "\(name) is named: \(line)")
            }

            // Where every file is required (CI with its mirror), the same is a failure; the good file stays.
            let required = try Self.run(["fetch", "--manifest", manifest.path], in: folder, required: true)
            #expect(required.exited && required.status == 1, "\(required)")
            #expect(required.stdout.contains("1 already cached"), "\(required)")

            // A cached copy edited since is removed and fetched again.
            try Data("tampered".utf8).write(to: folder.appendingPathComponent("cache/models/good.bin"))
            let again = try Self.run(["fetch", "--manifest", manifest.path], in: folder)
            #expect(again.stderr.contains("models/good.bin: the cached copy does not match its pin; removed"), "\(again)")
            #expect(Self.cached("models/good.bin", in: folder) == good)
        }
    }

    @Test("a mirror's good copy is used; its wrong copy is refused, removed from the cache's way, and the origin used instead")
    func mirror() throws {
        try withTemporaryDirectory { folder in
            let first = Self.bytes(7_000, seed: 5), second = Self.bytes(8_000, seed: 6)
            let server = try HostileHTTPServer(.files(["/b.bin": .ok(second)]))
            defer { server.stop() }
            let manifest = try Self.writeManifest(["a.bin": first, "b.bin": second], server: server, in: folder)
            let mirror = folder.appendingPathComponent("mirror")
            try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
            try first.write(to: mirror.appendingPathComponent("a.bin"))  // good; the server has no a.bin
            try Self.bytes(8_000, seed: 7).write(to: mirror.appendingPathComponent("b.bin"))  // wrong bytes

            let result = try Self.run(["fetch", "--manifest", manifest.path], in: folder, mirror: mirror, required: true)
            #expect(result.exited && result.status == 0, "\(result)")
            #expect(Self.cached("a.bin", in: folder) == first && Self.cached("b.bin", in: folder) == second)
            #expect(result.stdout.contains("1 from the mirror, 1 from the origin"), "\(result)")
            #expect(result.stderr.contains("b.bin: refused the mirror's copy"), "\(result)")
            #expect(Self.cacheListing(in: folder) == ["a.bin", "b.bin"])
        }
    }

    @Test("a manifest entry that names a path outside the cache, or no sha-256, is refused with its place")
    func hostileManifest() throws {
        try withTemporaryDirectory { folder in
            for (entry, fragment) in [
                (#"{"path": "../escape.bin", "origin": "http://127.0.0.1:9/x", "size": 1, "sha256": "\#(String(repeating: "0", count: 64))", "license": "MIT"}"#, "files[0].path"),
                (#"{"path": "x.bin", "origin": "file:///etc/passwd", "size": 1, "sha256": "\#(String(repeating: "0", count: 64))", "license": "MIT"}"#, "files[0].origin"),
                (#"{"path": "x.bin", "origin": "http://127.0.0.1:9/x", "size": 1, "license": "MIT"}"#, "files[0].sha256"),
            ] {
                let manifest = folder.appendingPathComponent("manifest.json")
                try Data("{\"files\": [\(entry)]}".utf8).write(to: manifest)
                let result = try Self.run(["fetch", "--manifest", manifest.path], in: folder)
                #expect(result.exited && result.status == 1 && result.stderrLines.count == 1, "\(result)")
                #expect(result.stderr.contains(fragment), "\(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape.bin").path))
        }
    }
}
