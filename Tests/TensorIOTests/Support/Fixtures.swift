import Foundation
import Testing
@testable import TensorIO

/// The test bundles in `Tests/Fixtures/Bundles`, found from this file's own path so the tests run from
/// any working directory.
enum Fixtures {
    /// `Tests/Fixtures/Bundles`.
    static let bundlesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TensorIOTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("Bundles")

    /// The folder of the fixture bundle called `name` (with its extension).
    static func url(_ name: String) -> URL {
        bundlesDirectory.appendingPathComponent(name)
    }

    /// Opens a fixture bundle.
    static func bundle(_ name: String) throws -> ModelBundle {
        try ModelBundle(at: url(name))
    }

    /// Opens a fixture bundle and builds its model (not loaded yet).
    static func model(_ name: String, configuration: ModelConfiguration = ModelConfiguration()) throws -> any Model {
        try bundle(name).makeModel(configuration: configuration)
    }

    /// Every fixture bundle that opens and validates.
    static let validBundles = [
        "scalar_test.tiobundle",
        "1_in_1_out_number_test.tiobundle",
        "1_in_1_out_number_int32_test.tiobundle",
        "1_in_1_out_number_int64_test.tiobundle",
        "1_in_1_out_number_test_no_backend.tiobundle",
        "1_in_1_out_number_test_no_modes.tiobundle",
        "1_in_1_out_string_test.tiobundle",
        "1_in_1_out_tensors_test.tiobundle",
        "1_in_1_out_vectors_test.tiobundle",
        "2_in_2_out_matrices_test.tiobundle",
        "2_in_2_out_vectors_test.tiobundle",
        "deprecated.tfbundle",
        "labeled_vectors_test.tiobundle",
        "output_types_test.tiobundle",
        "placeholder.tiobundle",
        "quantized_uint8_raw_test.tiobundle",
        "quantized_uint8_test.tiobundle",
        "reordered_inputs_test.tiobundle",
        "unnamed_inputs_test.tiobundle",
        "pixelbuffer_identity_test.tiobundle",
        "pixelbuffer_normalization_test.tiobundle",
        "image_bgr_bias_test.tiobundle",
        "image_gray_test.tiobundle",
        "image_uint8_test.tiobundle",
        "two_images_test.tiobundle",
        "image_asymmetric_test.tiobundle",
    ]

    /// The fixture bundles with a `.tiobundle`/`.tfbundle` extension that must fail to open.
    static let invalidBundles = [
        "invalid-model-bad-json.tiobundle",
        "invalid-model-incorrect-labels-file.tiobundle",
        "invalid-model-incorrect-model-file.tiobundle",
        "invalid-model-no-json.tiobundle",
    ]
}

// MARK: - Temporary copies

/// A `model.json` document being edited: a tree of `[String: Any]`, `[Any]`, strings, numbers, bools and
/// `NSNull`, as `JSONSerialization` makes it.
typealias JSONObject = [String: Any]

/// A fresh temporary folder, removed when the body returns or throws.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("TensorIOTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Copies the fixture bundle `name` into `directory` as `newName` (the same name by default) and lets
/// `edit` change its `model.json`; returns the copy's folder.
@discardableResult
func copyFixture(
    _ name: String, into directory: URL, as newName: String? = nil, edit: ((inout JSONObject) throws -> Void)? = nil
) throws -> URL {
    let copy = directory.appendingPathComponent(newName ?? name, isDirectory: true)
    try FileManager.default.copyItem(at: Fixtures.url(name), to: copy)
    if let edit {
        let jsonURL = copy.appendingPathComponent("model.json")
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: jsonURL)) as? JSONObject,
            "\(name)/model.json is not a JSON object"
        )
        try edit(&json)
        try writeJSON(json, to: jsonURL)
    }
    return copy
}

/// Copies the fixture bundle `name` into a fresh temporary folder, lets `edit` rewrite its `model.json`,
/// and runs `body` on the copy's folder; everything is deleted afterwards.
func withFixtureCopy<Result>(
    _ name: String, as newName: String? = nil, edit: ((inout JSONObject) throws -> Void)? = nil,
    _ body: (URL) throws -> Result
) throws -> Result {
    try withTemporaryDirectory { directory in
        try body(try copyFixture(name, into: directory, as: newName, edit: edit))
    }
}

/// Writes a bundle folder called `name` holding `model.json` with the given text, the number model's
/// `model.tflite` (unless `includeModelFile` is false) and any extra files (paths relative to the
/// bundle), runs `body` on it, and deletes it.
func withBundle<Result>(
    json: String, named name: String = "test.tiobundle", includeModelFile: Bool = true,
    files: [String: Data] = [:], _ body: (URL) throws -> Result
) throws -> Result {
    try withTemporaryDirectory { directory in
        let bundle = directory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: bundle.appendingPathComponent("model.json"))
        if includeModelFile {
            try FileManager.default.copyItem(
                at: Fixtures.url("1_in_1_out_number_test.tiobundle").appendingPathComponent("model.tflite"),
                to: bundle.appendingPathComponent("model.tflite")
            )
        }
        for (path, contents) in files {
            let url = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true
            )
            try contents.write(to: url)
        }
        return try body(bundle)
    }
}

/// Writes a JSON tree to a file.
func writeJSON(_ json: Any, to url: URL) throws {
    let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: url)
}

extension Dictionary where Key == String, Value == Any {
    /// Reads or replaces a value deep inside the document, by a path such as `model.file` or
    /// `inputs[0].shape`. Setting `nil` removes an object key.
    subscript(path path: String) -> Any? {
        get { JSONPath(path).value(in: self) }
        set {
            var root: Any = self
            JSONPath(path).set(newValue, in: &root)
            self = root as! JSONObject
        }
    }
}

/// A parsed `a.b[2].c` path.
private struct JSONPath {
    enum Component {
        case key(String)
        case index(Int)
    }

    let components: [Component]

    init(_ text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                let key = rest[..<bracket]
                if !key.isEmpty { components.append(.key(String(key))) }
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    components.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close])!))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(String(rest)))
            }
        }
        self.components = components
    }

    func value(in root: Any) -> Any? {
        var current: Any? = root
        for component in components {
            switch component {
            case .key(let key): current = (current as? JSONObject)?[key]
            case .index(let index):
                guard let array = current as? [Any], array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        return current
    }

    func set(_ newValue: Any?, in root: inout Any) {
        Self.set(newValue, in: &root, components[...])
    }

    private static func set(_ newValue: Any?, in node: inout Any, _ path: ArraySlice<Component>) {
        guard let first = path.first else { return }
        let rest = path.dropFirst()
        switch first {
        case .key(let key):
            var object = node as! JSONObject
            if rest.isEmpty {
                object[key] = newValue
            } else {
                var child: Any = object[key] ?? JSONObject()
                set(newValue, in: &child, rest)
                object[key] = child
            }
            node = object
        case .index(let index):
            var array = node as! [Any]
            if rest.isEmpty {
                if let newValue { array[index] = newValue } else { array.remove(at: index) }
            } else {
                var child = array[index]
                set(newValue, in: &child, rest)
                array[index] = child
            }
            node = array
        }
    }
}

// MARK: - Values

extension Data {
    /// The little-endian bytes of some `Float`s, as a float32 tensor holds them.
    init(float32LittleEndian values: [Float]) {
        self.init()
        for value in values {
            Swift.withUnsafeBytes(of: value.bitPattern.littleEndian) { append(contentsOf: $0) }
        }
    }

    /// The `Float`s these little-endian bytes hold.
    var float32LittleEndian: [Float] {
        stride(from: 0, to: count - count % 4, by: 4).map { offset in
            let start = index(startIndex, offsetBy: offset)
            let bits = self[start..<index(start, offsetBy: 4)].enumerated().reduce(UInt32(0)) { bits, byte in
                bits | UInt32(byte.element) << (8 * UInt32(byte.offset))
            }
            return Float(bitPattern: bits)
        }
    }
}

/// Whether two lists of numbers are equal within `tolerance`.
func isClose(_ actual: [Double]?, _ expected: [Double], tolerance: Double = 1e-5) -> Bool {
    guard let actual, actual.count == expected.count else { return false }
    return zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
}

// MARK: - Shared state

/// A tiny lock-protected box for values set inside `@Sendable` closures.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Model {
    /// The backend that runs a model of the built-in runtimes (`nil` for custom model types).
    var backendEngine: (any BackendEngine)? { (self as? any CoreBackedModel)?.engine }
}
