public import Foundation
import Testing

// Fixture bundles copied to temporary folders and changed there: the fixtures themselves are never
// written to (tests run in parallel, and `git status` stays clean).

/// Copies the fixture bundle `name` from `directory` into `folder` as `newName` (the same name by
/// default) and lets `edit` change its `model.json`; returns the copy's folder.
@discardableResult
public func copyFixture(
    _ name: String, from directory: URL = Fixtures.bundlesDirectory, into folder: URL, as newName: String? = nil,
    edit: ((inout JSONObject) throws -> Void)? = nil
) throws -> URL {
    let copy = folder.appendingPathComponent(newName ?? name, isDirectory: true)
    try FileManager.default.copyItem(at: directory.appendingPathComponent(name), to: copy)
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

/// Copies the fixture bundle `name` (from `directory`) into a fresh temporary folder, lets `edit` rewrite
/// its `model.json`, and runs `body` on the copy's folder; everything is deleted afterwards.
public func withFixtureCopy<Result>(
    _ name: String, from directory: URL = Fixtures.bundlesDirectory, as newName: String? = nil,
    edit: ((inout JSONObject) throws -> Void)? = nil, _ body: (URL) throws -> Result
) throws -> Result {
    try withTemporaryDirectory { folder in
        try body(try copyFixture(name, from: directory, into: folder, as: newName, edit: edit))
    }
}

/// Writes a bundle folder called `name` holding `model.json` with the given text, the number model's
/// `model.tflite` (unless `includeModelFile` is false) and any extra files (paths relative to the
/// bundle), runs `body` on it, and deletes it.
public func withBundle<Result>(
    json: String, named name: String = "test.tiobundle", includeModelFile: Bool = true,
    files: [String: Data] = [:], _ body: (URL) throws -> Result
) throws -> Result {
    try withTemporaryDirectory { folder in
        let bundle = folder.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: bundle.appendingPathComponent("model.json"))
        if includeModelFile {
            try FileManager.default.copyItem(
                at: Fixtures.url(Fixtures.numberBundleName).appendingPathComponent("model.tflite"),
                to: bundle.appendingPathComponent("model.tflite")
            )
        }
        for (path, contents) in files {
            let url = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url)
        }
        return try body(bundle)
    }
}

/// Writes a JSON tree to a file, pretty-printed with sorted keys.
public func writeJSON(_ json: Any, to url: URL) throws {
    let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: url)
}

extension Fixtures {
    /// A complete, valid `model.json` for the number model (the file ``withBundle(json:named:includeModelFile:files:_:)``
    /// puts beside it), for tests that change one field.
    public static func numberModelDocument() -> JSONObject {
        [
            "name": "Parsing test",
            "details": "A model.json written by the tests",
            "id": "parsing_test",
            "version": "1",
            "author": "doc.ai",
            "license": "Apache 2",
            "model": [
                "file": "model.tflite",
                "backend": "tflite",
                "quantized": false,
                "modes": ["predict"],
            ] as JSONObject,
            "inputs": [["name": "input", "type": "array", "shape": [1]] as JSONObject],
            "outputs": [["name": "output", "type": "array", "shape": [1]] as JSONObject],
        ]
    }

    /// A copy of the fixture bundle `name` (the number bundle by default) in a folder of its own inside
    /// `folder`, with model.json's `version` (and `id`) changed, and optionally `paddingBytes` random
    /// bytes in `assets/padding.bin` to make its archive bigger: a new version to push.
    public static func bundle(
        version: String, id: String? = nil, in folder: URL, name: String = numberBundleName, paddingBytes: Int = 0
    ) throws -> URL {
        let parent = folder.appendingPathComponent("src-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let destination = try copyFixture(name, into: parent) { json in
            json["version"] = version
            if let id { json["id"] = id }
        }
        if paddingBytes > 0 {
            let assets = destination.appendingPathComponent("assets")
            try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<paddingBytes / 8).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
            try Data(bytes).write(to: assets.appendingPathComponent("padding.bin"))
        }
        return destination
    }
}
