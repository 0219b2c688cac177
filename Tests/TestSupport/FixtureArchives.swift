#if Server  // needs the delivery client and the server: the Server trait
public import Foundation
public import TensorIODelivery
import ZIPFoundation

// Bundle archives for the delivery tests: honest ones (zipped by the library and pushed to a server), and
// hand-made ones no honest tool would write.

extension Fixtures {
    /// The zip of `bundle`, written into `folder` by the library (``BundleArchive/create(fromBundleAt:to:)``).
    public static func archive(of bundle: URL, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("\(UUID().uuidString).zip")
        try BundleArchive.create(fromBundleAt: bundle, to: url)
        return url
    }

    /// A version of the number bundle (``bundle(version:id:in:name:paddingBytes:)``), zipped and uploaded.
    @discardableResult
    public static func push(
        version: String, to client: RepositoryClient, in folder: URL, canonical: Bool = true, notes: String? = nil,
        paddingBytes: Int = 0, modelId: String = numberModelId
    ) async throws -> VersionDetails {
        let bundle = try bundle(version: version, in: folder, paddingBytes: paddingBytes)
        let archive = try archive(of: bundle, in: folder)
        return try await client.upload(
            archiveAt: archive, modelId: modelId, version: version, canonical: canonical, notes: notes)
    }

    /// One entry of ``handmadeZip(_:in:)``.
    public enum Entry: Sendable, CustomStringConvertible {
        case file(String, Data)
        case directory(String)
        case symlink(String, target: String)

        public var description: String {
            switch self {
            case .file(let path, _): "file \(path)"
            case .directory(let path): "directory \(path)"
            case .symlink(let path, let target): "symlink \(path) -> \(target)"
            }
        }
    }

    /// A zip written entry by entry with ZIPFoundation, so that tests can build archives no honest tool
    /// would make (`../` paths, absolute paths, symbolic links).
    public static func handmadeZip(_ entries: [Entry], in folder: URL) throws -> URL {
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

    /// The entries of a valid archive of the number bundle, to which tests add a bad one.
    public static func validEntries() throws -> [Entry] {
        let source = url(numberBundleName)
        return [
            .directory("\(numberBundleName)/"),
            .file("\(numberBundleName)/model.json", try Data(contentsOf: source.appendingPathComponent("model.json"))),
            .file("\(numberBundleName)/model.tflite", try Data(contentsOf: source.appendingPathComponent("model.tflite"))),
        ]
    }
}
#endif
