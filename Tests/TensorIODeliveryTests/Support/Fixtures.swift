import Foundation
import TensorIO
import TensorIODelivery
import Testing
import ZIPFoundation

/// Bundles, archives and scratch folders for the delivery tests.
enum Fixtures {
    /// `Tests/Fixtures/Bundles`.
    static let bundles = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TensorIODeliveryTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/Bundles")

    static let modelName = "1_in_1_out_number_test.tiobundle"
    static let modelId = "1_in_1_out_number_test"

    /// A copy of a fixture bundle in `folder` with model.json's `version` (and `id`) changed, and
    /// optionally `paddingBytes` random bytes in `assets/padding.bin` to make the archive bigger.
    static func bundle(
        version: String, id: String? = nil, in folder: URL, name: String = modelName, paddingBytes: Int = 0
    ) throws -> URL {
        let destination = folder.appendingPathComponent("src-\(UUID().uuidString)").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: bundles.appendingPathComponent(name), to: destination)
        let jsonURL = destination.appendingPathComponent("model.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: jsonURL)) as! [String: Any]
        json["version"] = version
        if let id { json["id"] = id }
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]).write(to: jsonURL)
        if paddingBytes > 0 {
            let assets = destination.appendingPathComponent("assets")
            try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<paddingBytes / 8).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
            try Data(bytes).write(to: assets.appendingPathComponent("padding.bin"))
        }
        return destination
    }

    /// The zip of `bundle`, in `folder`.
    static func archive(of bundle: URL, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("\(UUID().uuidString).zip")
        try BundleArchive.create(fromBundleAt: bundle, to: url)
        return url
    }

    /// A bundle version zipped and uploaded.
    @discardableResult
    static func push(
        version: String, to client: RepositoryClient, in folder: URL, canonical: Bool = true, notes: String? = nil,
        paddingBytes: Int = 0, modelId: String = modelId
    ) async throws -> VersionDetails {
        let bundle = try bundle(version: version, in: folder, paddingBytes: paddingBytes)
        let archive = try archive(of: bundle, in: folder)
        return try await client.upload(
            archiveAt: archive, modelId: modelId, version: version, canonical: canonical, notes: notes)
    }

    /// One hand-written zip entry.
    enum Entry: Sendable, CustomStringConvertible {
        var description: String {
            switch self {
            case .file(let path, _): "file \(path)"
            case .directory(let path): "directory \(path)"
            case .symlink(let path, let target): "symlink \(path) -> \(target)"
            }
        }

        case file(String, Data)
        case directory(String)
        case symlink(String, target: String)
    }

    /// A zip written entry by entry, so that tests can build archives no honest tool would make
    /// (`../` paths, absolute paths, symbolic links).
    static func handmadeZip(_ entries: [Entry], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for entry in entries {
            switch entry {
            case .file(let path, let data):
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count)) { (position: Int64, size: Int) in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            case .directory(let path):
                try archive.addEntry(with: path, type: .directory, uncompressedSize: Int64(0)) { (_: Int64, _: Int) in Data() }
            case .symlink(let path, let target):
                let data = Data(target.utf8)
                try archive.addEntry(with: path, type: .symlink, uncompressedSize: Int64(data.count)) { (position: Int64, size: Int) in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }
        return url
    }

    /// The entries of a valid bundle archive, to which tests add a bad one.
    static func validEntries() throws -> [Entry] {
        let source = bundles.appendingPathComponent(modelName)
        return [
            .directory("\(modelName)/"),
            .file("\(modelName)/model.json", try Data(contentsOf: source.appendingPathComponent("model.json"))),
            .file("\(modelName)/model.tflite", try Data(contentsOf: source.appendingPathComponent("model.tflite"))),
        ]
    }
}

/// A temporary folder removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tensorio-delivery-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A temporary folder with a running server on `folder/server`, stopped after `body`.
func withServer<T>(
    writeToken: String? = TestServer.writeToken, readToken: String? = nil, maximumUploadBytes: Int64 = 64 << 20,
    downloadBytesPerSecond: Int? = nil, loadCheck: LoadCheck = .isolated, _ body: (TestServer, URL) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { folder in
        let server = try await TestServer.start(
            root: folder.appendingPathComponent("server"), writeToken: writeToken, readToken: readToken,
            maximumUploadBytes: maximumUploadBytes, downloadBytesPerSecond: downloadBytesPerSecond, loadCheck: loadCheck)
        do {
            let result = try await body(server, folder)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// Expects `body` to throw a ``TensorIOError`` with `code`; returns it.
@discardableResult
func expectError<T>(
    _ code: TensorIOError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T
) async -> TensorIOError? {
    do {
        let value = try await body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as TensorIOError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected TensorIOError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
