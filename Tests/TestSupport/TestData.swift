public import Foundation
public import Testing

/// Third-party test data — the TFLite Task Library's models, photos and recordings, MediaPipe Model Maker's
/// gesture photos — which the repository does not hold: `Tests/TestData/manifest.json` pins each file by
/// name (public origin, size, sha-256, licence) and `make test-data` (`scripts/testdata.py fetch`) fetches
/// them into a cache, checked against their pins.
///
/// Tests reach those files only here, by their manifest names (`task-models/tflite-support/vision/burger.jpg`),
/// and take ``required(_:)`` as a trait: a test whose files are not in the cache is skipped with a comment
/// that starts with ``skipMarker``, which `make test` counts (`scripts/testdata-skips.sh`).
public enum TestData {
    /// What every skip for missing test data says first.
    public static let skipMarker = "missing test data"

    /// The cache: `$TENSORIO_TEST_DATA_CACHE`, else `$XDG_CACHE_HOME/tensorio/test-data`, else
    /// `~/.cache/tensorio/test-data` — the rule `scripts/testdata.py` follows.
    public static let cacheDirectory: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["TENSORIO_TEST_DATA_CACHE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        return base.appendingPathComponent("tensorio/test-data", isDirectory: true)
    }()

    /// One file of the manifest (the fields the tests need).
    struct Entry: Decodable {
        let path: String
        let size: Int
    }

    /// The manifest's files by name.
    static let entries: [String: Entry] = {
        struct Manifest: Decodable { let files: [Entry] }
        let url = Fixtures.repositoryURL("Tests/TestData/manifest.json")
        do {
            let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
            return Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            fatalError("Tests/TestData/manifest.json cannot be read: \(error)")
        }
    }()

    /// Whether `name` is a manifest name (rather than a path in the repository).
    public static func isPinned(_ name: String) -> Bool {
        entries[name] != nil
    }

    /// Where the pinned file `name` is cached, whether or not it is there.
    ///
    /// A name the manifest does not pin is a mistake in the test, and stops it.
    public static func url(_ name: String) -> URL {
        precondition(isPinned(name), "\(name) is not pinned in Tests/TestData/manifest.json")
        return cacheDirectory.appendingPathComponent(name)
    }

    /// ``url(_:)``'s path.
    public static func path(_ name: String) -> String {
        url(name).path
    }

    /// The names of `names` that are not in the cache with their pinned size (`make test-data` has checked
    /// the sha-256 of what it put there).
    public static func missing(_ names: [String]) -> [String] {
        names.filter { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path(name))
            return (attributes?[.size] as? NSNumber)?.intValue != entries[name]?.size
        }
    }

    /// A trait that runs the test only when every one of `names` is in the cache, and otherwise skips it
    /// with ``skipMarker``, the first missing name, and the command that fetches it.
    public static func required(_ names: [String]) -> ConditionTrait {
        let missing = missing(names)
        let comment = "\(skipMarker): \(missing.first ?? "") \(missing.count > 1 ? "and \(missing.count - 1) more " : "")(make test-data fetches it)"
        return .enabled(if: missing.isEmpty, Comment(rawValue: comment))
    }

    /// ``required(_:)`` with the names as a variadic list.
    public static func required(_ names: String...) -> ConditionTrait {
        required(names)
    }

    /// ``required(_:)`` for files given by their ``path(_:)``, as the tool's tests hold them.
    public static func required(paths: String...) -> ConditionTrait {
        let prefix = cacheDirectory.path + "/"
        return required(paths.map { path in
            precondition(path.hasPrefix(prefix), "\(path) is not in the test-data cache")
            return String(path.dropFirst(prefix.count))
        })
    }

    /// Every pinned name under `folder` (`task-models/tflite-support/vision`), sorted.
    public static func names(under folder: String) -> [String] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return entries.keys.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// A file named in a committed reference: a pinned name is read from the cache, anything else is a path
    /// relative to the repository root.
    public static func referencedURL(_ name: String) -> URL {
        isPinned(name) ? url(name) : Fixtures.repositoryURL(name)
    }
}
