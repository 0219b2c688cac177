import Foundation
import Testing
@testable import TensorIO
import TensorIOArchive
import TensorIOMetadata

/// The zip appended to a model: read with offsets relative to the zip, bounded, plain names only.
@Suite("Model attachments")
struct ModelAttachmentsTests {
    static let model = TFLiteTestModel().serialized()

    /// Reads the attachments; a refusal is the TensorIOError TensorIO reports for it.
    private func read(_ bytes: [UInt8], limits: ModelAttachments.Limits = ModelAttachments.Limits()) throws -> ModelAttachments {
        try TensorIOError.reporting {
            try bytes.withUnsafeBytes { try ModelAttachments.read(fromModel: $0, fileName: "model.tflite", limits: limits) }
        }
    }

    private func expectError(
        _ code: TensorIOError.Code, _ words: String..., sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
        } catch let error as TensorIOError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location == "model.file", sourceLocation: sourceLocation)
            for word in words {
                #expect(error.message.contains(word), "\"\(word)\" not in: \(error.message)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("expected TensorIOError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("stored and deflated files appended as zipfile does (relative offsets) and with absolute offsets")
    func appended() throws {
        let labels = Array("cat\ndog\n".utf8)
        let vocabulary = Array(String(repeating: "token\n", count: 500).utf8)
        let zip = TestZip(entries: [.init(name: "labels.txt", data: labels), .init(name: "vocab.txt", data: vocabulary, deflate: true)])
        for base in [0, Self.model.count] {
            let attachments = try read(Self.model + zip.bytes(base: base))
            #expect(attachments.names == ["labels.txt", "vocab.txt"])
            #expect(attachments["labels.txt"] == Data(labels))
            #expect(attachments["vocab.txt"] == Data(vocabulary))
        }
        let metadata = TFLiteMetadata(associatedFileNames: ["labels.txt", "missing.txt"])
        #expect(try read(Self.model + zip.bytes()).missingFiles(namedIn: metadata) == ["missing.txt"])
    }

    @Test("no zip: no attachments; the whole-file layout bundle archives use refuses a prefixed zip")
    func absentAndLayouts() throws {
        #expect(try read(Self.model).isEmpty)
        #expect(try read([]).isEmpty)
        let prefixed = Self.model + TestZip(entries: [.init(name: "a.txt", data: [1])]).bytes()
        let limits = ZipReader.Limits(maximumEntries: 10, maximumEntryBytes: 100, maximumUnpackedBytes: 100, settingsName: "Test")
        #expect(throws: ArchiveError.self) {
            _ = try ZipReader(bytes: prefixed, name: "p", limits: limits, deadline: ArchiveDeadline(seconds: 10, settingName: "t"))
        }
        let reader = try ZipReader(bytes: prefixed, name: "p", limits: limits, deadline: ArchiveDeadline(seconds: 10, settingName: "t"), layout: .appended)
        #expect(reader.prefixLength == UInt64(Self.model.count))
    }

    @Test("a lying size, a zip bomb, too many files, escaping names, a corrupt stream")
    func hostile() throws {
        let big = [UInt8](repeating: 0, count: 4 << 20)
        var lying = TestZip.Entry(name: "labels.txt", data: big, deflate: true)
        lying.declaredSize = 1000
        expectError(.invalidModelFile, "labels.txt") { _ = try read(Self.model + TestZip(entries: [lying]).bytes()) }

        let bomb = TestZip(entries: [.init(name: "bomb.bin", data: [UInt8](repeating: 0, count: 20 << 20), deflate: true)])
        expectError(.limitExceeded, "ModelAttachments.Limits.maximumFileBytes") { _ = try read(Self.model + bomb.bytes()) }
        // A bomb whose header understates its size is stopped by the bytes actually produced.
        var understated = TestZip.Entry(name: "bomb.bin", data: [UInt8](repeating: 0, count: 20 << 20), deflate: true)
        understated.declaredSize = 1 << 20
        expectError(.invalidModelFile, "bomb.bin") { _ = try read(Self.model + TestZip(entries: [understated]).bytes()) }

        let many = TestZip(entries: (0..<5).map { .init(name: "f\($0)", data: [1]) })
        expectError(.limitExceeded, "ModelAttachments.Limits.maximumEntries") {
            _ = try read(Self.model + many.bytes(), limits: ModelAttachments.Limits(maximumFiles: 4))
        }
        let total = TestZip(entries: (0..<3).map { .init(name: "f\($0)", data: [UInt8](repeating: 1, count: 600)) })
        expectError(.limitExceeded, "ModelAttachments.Limits.maximumTotalBytes") {
            _ = try read(Self.model + total.bytes(), limits: ModelAttachments.Limits(maximumTotalBytes: 1000))
        }
        for name in ["../labels.txt", "a/b.txt", "..", "a\0b", "dir/"] {
            expectError(.invalidModelFile, "not") { _ = try read(Self.model + TestZip(entries: [.init(name: name, data: [1])]).bytes()) }
        }
        expectError(.invalidModelFile, "twice") {
            _ = try read(Self.model + TestZip(entries: [.init(name: "a", data: [1]), .init(name: "a", data: [2])]).bytes())
        }
        var corrupt = Self.model + TestZip(entries: [.init(name: "v.txt", data: Array(repeating: 7, count: 5000), deflate: true)]).bytes()
        corrupt[Self.model.count + 30 + 5 + 2] ^= 0xFF
        expectError(.invalidModelFile, "v.txt") { _ = try read(corrupt) }
    }

    @Test("every truncation of an appended zip: an error or nothing, never a crash")
    func truncations() throws {
        let whole = Self.model + TestZip(entries: [.init(name: "a.txt", data: Array("hello".utf8), deflate: true), .init(name: "b", data: [1, 2])]).bytes()
        for length in Self.model.count...whole.count {
            _ = try? read(Array(whole.prefix(length)))
        }
    }
}
