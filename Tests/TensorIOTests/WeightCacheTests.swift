#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import TensorIO
import TensorIOTestSupport

/// ``ModelConfiguration/weightCacheDirectory``: LiteRT's XNNPACK weights kept between loads, on the
/// digits example (a small model whose fully connected layers XNNPACK repacks).
@Suite("Weight cache")
struct WeightCacheTests {
    static let examples = Fixtures.examplesDirectory
    static let digits = examples.appendingPathComponent("digits/digits-float32.tiobundle")
    static let image = examples.appendingPathComponent("digits/test-images/0/101.png")

    /// The top label and its score after one run with `folder` as the cache.
    static func classify(_ bundle: URL = digits, cache folder: URL?) throws -> LabeledScores {
        let model = try ModelBundle.open(bundle, registry: .everyTask).makeModel(configuration: ModelConfiguration(weightCacheDirectory: folder))
        let outputs = try model.run(try PixelBuffer(contentsOf: image))
        return try outputs[0].labeled
    }

    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The file's identity (inode, times): a file written again has another modification time.
    static func identity(_ path: String) throws -> FileIdentity {
        guard let identity = FileIdentity(path: path) else { throw TensorIOError(.io, "no \(path)") }
        return identity
    }

    @Test("the first load writes one cache once the model has run; the next load reads it, with the same outputs")
    func writesThenReads() throws {
        try withTemporaryDirectory { folder in
            let cache = folder.appendingPathComponent("weights")
            let plain = try Self.classify(cache: nil)
            let first = try Self.classify(cache: cache)
            let written = try Self.files(in: cache)
            #expect(written.count == 1 && written[0].hasSuffix(".xnnpack"))
            let path = cache.appendingPathComponent(written[0]).path
            let before = try Self.identity(path)
            let second = try Self.classify(cache: cache)
            #expect(try Self.files(in: cache) == written)
            #expect(try Self.identity(path) == before)  // read, not written again
            #expect(first == plain && second == plain)
            // Made for the user alone.
            let attributes = try FileManager.default.attributesOfItem(atPath: cache.path)
            #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
        }
    }

    @Test("a cache file cut short is deleted and written again, never handed to LiteRT",
          arguments: [0, 16, 1000])
    func truncatedCache(keptBytes: Int) throws {
        try withTemporaryDirectory { folder in
            let expected = try Self.classify(cache: folder)
            let name = try #require(try Self.files(in: folder).first)
            let path = folder.appendingPathComponent(name).path
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(truncate(path, off_t(keptBytes)) == 0)
            #expect(try Self.classify(cache: folder) == expected)
            #expect(try Self.files(in: folder) == [name])
            // Written whole again (under a new name, renamed into place).
            let rebuilt = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(rebuilt.count == whole.count)
            #expect(rebuilt.withUnsafeBytes { XNNPackCacheFileCheck.problem(in: $0) } == nil)
        }
    }

    @Test("a folder others may write to is not used, and the model still loads")
    func sharedFolderRefused() throws {
        try withTemporaryDirectory { folder in
            let cache = folder.appendingPathComponent("open")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
            #expect(chmod(cache.path, 0o777) == 0)
            #expect(try Self.classify(cache: cache) == Self.classify(cache: nil))
            #expect(try Self.files(in: cache).isEmpty)
        }
    }

    @Test("a changed model file gets a cache of its own")
    func changedModel() throws {
        try withTemporaryDirectory { folder in
            let bundle = folder.appendingPathComponent("digits.tiobundle")
            try FileManager.default.copyItem(at: Self.digits, to: bundle)
            let cache = folder.appendingPathComponent("weights")
            _ = try Self.classify(bundle, cache: cache)
            let model = bundle.appendingPathComponent("model.tflite")
            let bytes = try Data(contentsOf: model)
            try FileManager.default.removeItem(at: model)
            try bytes.write(to: model)  // the same bytes in a new file: another identity
            _ = try Self.classify(bundle, cache: cache)
            #expect(try Self.files(in: cache).count == 2)
        }
    }

    @Test("the folder keeps the 32 most recent caches, and partial files left for over an hour go")
    func bounded() throws {
        try withTemporaryDirectory { folder in
            let old = Date(timeIntervalSinceNow: -86_400)
            func file(_ name: String, modified: Date) throws {
                let path = folder.appendingPathComponent(name).path
                #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
                try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
            }
            for index in 0..<40 { try file(String(format: "%016x.xnnpack", index), modified: old + Double(index)) }
            try file("0000000000000000.1.2.partial", modified: Date(timeIntervalSinceNow: -7_200))
            try file("0000000000000001.3.4.partial", modified: Date())
            _ = try Self.classify(cache: folder)
            let names = try Self.files(in: folder)
            let caches = names.filter { $0.hasSuffix(".xnnpack") }
            #expect(caches.count == XNNPackWeightCache.maximumFiles)
            // The new cache and the most recent old ones stay; the oldest go first.
            #expect(caches.contains { Int($0.prefix(16), radix: 16).map { $0 >= 40 } ?? true })
            #expect(!caches.contains(String(format: "%016x.xnnpack", 0)))
            #expect(caches.contains(String(format: "%016x.xnnpack", 39)))
            #expect(!names.contains("0000000000000000.1.2.partial"))
            #expect(names.contains("0000000000000001.3.4.partial"))
        }
    }

    @Test("a model that never ran leaves no file behind")
    func neverRun() throws {
        try withTemporaryDirectory { folder in
            let model = try ModelBundle.open(Self.digits, registry: .everyTask).makeModel(configuration: ModelConfiguration(weightCacheDirectory: folder))
            try model.load()
            model.unload()
            #expect(try Self.files(in: folder).isEmpty)
        }
    }

    @Test("the header check refuses files that were not finished")
    func headerCheck() {
        func problem(_ words: [UInt64], totalBytes: Int) -> String? {
            var bytes = [UInt8](repeating: 0, count: totalBytes)
            for (index, word) in words.enumerated() {
                withUnsafeBytes(of: word.littleEndian) { for (offset, byte) in $0.enumerated() { bytes[index * 8 + offset] = byte } }
            }
            return bytes.withUnsafeBytes { XNNPackCacheFileCheck.problem(in: $0) }
        }
        #expect(problem([4, 100, 28], totalBytes: 128) == nil)
        #expect(problem([0, 100, 28], totalBytes: 128) != nil)  // no header yet
        #expect(problem([4, 100, 28], totalBytes: 127) != nil)  // cut short
        #expect(problem([4, 8, 120], totalBytes: 128) != nil)  // list inside the header
        #expect(problem([4, UInt64.max, 2], totalBytes: 128) != nil)  // overflow
        #expect(problem([4], totalBytes: 10) != nil)
    }
}
