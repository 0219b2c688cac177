import Foundation
import Testing
@_spi(Tools) @testable import TensorIO
import TensorIOTestSupport

/// The zip appended to a model: read with offsets relative to the zip, bounded, plain names only.
@Suite("Model attachments")
struct ModelAttachmentsTests {
    static let model = TFLiteTestModel().serialized()

    private func read(_ bytes: [UInt8], limits: ModelAttachments.Limits = ModelAttachments.Limits()) throws -> ModelAttachments {
        try bytes.withUnsafeBytes { try ModelAttachments.read(fromModel: $0, fileName: "model.tflite", limits: limits) }
    }

    @Test("stored and deflated files appended as zipfile does (relative offsets) and with absolute offsets")
    func appended() throws {
        let labels = Array("cat\ndog\n".utf8)
        let vocabulary = Array(String(repeating: "token\n", count: 500).utf8)
        let zip = CraftedZip(entries: [.stored("labels.txt", Data(labels)), .deflated("vocab.txt", Data(vocabulary))])
        for base in [0, Self.model.count] {
            let attachments = try read(Self.model + zip.bytes(offsetBy: base))
            #expect(attachments.names == ["labels.txt", "vocab.txt"])
            #expect(attachments["labels.txt"] == Data(labels))
            #expect(attachments["vocab.txt"] == Data(vocabulary))
        }
        let metadata = TFLiteMetadata(associatedFileNames: ["labels.txt", "missing.txt"])
        #expect(try read(Self.model + zip.bytes).missingFiles(namedIn: metadata) == ["missing.txt"])
    }

    @Test("no zip: no attachments; the whole-file layout bundle archives use refuses a prefixed zip")
    func absentAndLayouts() throws {
        #expect(try read(Self.model).isEmpty)
        #expect(try read([]).isEmpty)
        let prefixed = Self.model + CraftedZip(entries: [.stored("a.txt", Data([1]))]).bytes
        let limits = ZipReader.Limits(maximumEntries: 10, maximumEntryBytes: 100, maximumUnpackedBytes: 100, settingsName: "Test")
        #expect(throws: TensorIOError.self) {
            _ = try ZipReader(bytes: prefixed, name: "p", limits: limits, deadline: ArchiveDeadline(seconds: 10, settingName: "t"))
        }
        let reader = try ZipReader(bytes: prefixed, name: "p", limits: limits, deadline: ArchiveDeadline(seconds: 10, settingName: "t"), layout: .appended)
        #expect(reader.prefixLength == UInt64(Self.model.count))
    }

    @Test("a lying size, a zip bomb, too many files, escaping names, a corrupt stream")
    func hostile() throws {
        let big = [UInt8](repeating: 0, count: 4 << 20)
        var lying = CraftedZip.Entry.deflated("labels.txt", Data(big))
        lying.uncompressedSize = 1000
        expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["labels.txt"]) { _ = try read(Self.model + CraftedZip(entries: [lying]).bytes) }

        let bomb = CraftedZip(entries: [.deflated("bomb.bin", Data(count: 20 << 20))])
        expectTensorIOError(.limitExceeded, location: "model.file", containing: ["ModelAttachments.Limits.maximumFileBytes"]) { _ = try read(Self.model + bomb.bytes) }
        // A bomb whose header understates its size is stopped by the bytes actually produced.
        var understated = CraftedZip.Entry.deflated("bomb.bin", Data(count: 20 << 20))
        understated.uncompressedSize = 1 << 20
        expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["bomb.bin"]) { _ = try read(Self.model + CraftedZip(entries: [understated]).bytes) }

        let many = CraftedZip(entries: (0..<5).map { .stored("f\($0)", Data([1])) })
        expectTensorIOError(.limitExceeded, location: "model.file", containing: ["ModelAttachments.Limits.maximumEntries"]) {
            _ = try read(Self.model + many.bytes, limits: ModelAttachments.Limits(maximumFiles: 4))
        }
        let total = CraftedZip(entries: (0..<3).map { .stored("f\($0)", Data(repeating: 1, count: 600)) })
        expectTensorIOError(.limitExceeded, location: "model.file", containing: ["ModelAttachments.Limits.maximumTotalBytes"]) {
            _ = try read(Self.model + total.bytes, limits: ModelAttachments.Limits(maximumTotalBytes: 1000))
        }
        for name in ["../labels.txt", "a/b.txt", "..", "a\0b", "dir/"] {
            expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["not"]) { _ = try read(Self.model + CraftedZip(entries: [.stored(name, Data([1]))]).bytes) }
        }
        expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["twice"]) {
            _ = try read(Self.model + CraftedZip(entries: [.stored("a", Data([1])), .stored("a", Data([2]))]).bytes)
        }
        var corrupt = Self.model + CraftedZip(entries: [.deflated("v.txt", Data(repeating: 7, count: 5000))]).bytes
        corrupt[Self.model.count + 30 + 5 + 2] ^= 0xFF
        expectTensorIOError(.invalidModelFile, location: "model.file", containing: ["v.txt"]) { _ = try read(corrupt) }
    }

    @Test("every truncation of an appended zip: an error or nothing, never a crash")
    func truncations() throws {
        let whole = Self.model + CraftedZip(entries: [.deflated("a.txt", Data("hello".utf8)), .stored("b", Data([1, 2]))]).bytes
        for length in Self.model.count...whole.count {
            _ = try? read(Array(whole.prefix(length)))
        }
    }
}
