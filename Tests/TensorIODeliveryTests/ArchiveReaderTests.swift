#if Server  // tests of delivery and the server: run with the Server trait (make test)
import Foundation
import TensorIO
import TensorIOArchive
@testable import TensorIODelivery
import TensorIORepositoryServer
import Testing
import TensorIOTestSupport

/// The bounded zip reader behind ``BundleArchive``: hostile archives crafted byte by byte from the fixture
/// bundle end with an error, quickly, writing nothing past a declared size or a limit.
@Suite("Archive reader")
struct ArchiveReaderTests {
    static let bundle = Fixtures.numberBundleName

    /// `body`'s error, which must be a ``TensorIOError`` with one of `codes`, its message holding `words`.
    @discardableResult
    func expectRefusal(
        _ codes: [TensorIOError.Code], _ words: String..., sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) -> TensorIOError? {
        do {
            try body()
            Issue.record("expected \(codes), got success", sourceLocation: sourceLocation)
            return nil
        } catch let error as TensorIOError {
            #expect(codes.contains(error.code), "\(error)", sourceLocation: sourceLocation)
            for word in words {
                #expect(error.description.contains(word), "\"\(word)\" not in: \(error)", sourceLocation: sourceLocation)
            }
            return error
        } catch {
            Issue.record("expected TensorIOError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Writes `zip` to a file in `folder`, unpacks it into a new folder and expects a refusal that leaves
    /// nothing behind.
    @discardableResult
    func expectExtractRefused(
        _ zip: Data, in folder: URL, _ codes: [TensorIOError.Code], _ words: String...,
        limits: BundleArchive.Limits = BundleArchive.Limits(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TensorIOError? {
        let url = folder.appendingPathComponent("\(UUID().uuidString).zip")
        try zip.write(to: url)
        let destination = folder.appendingPathComponent("out-\(UUID().uuidString)")
        var caught: TensorIOError?
        do {
            _ = try BundleArchive.extract(url, into: destination, limits: limits)
            Issue.record("expected \(codes), got success", sourceLocation: sourceLocation)
        } catch let error as TensorIOError {
            caught = error
            #expect(codes.contains(error.code), "\(error)", sourceLocation: sourceLocation)
            for word in words {
                #expect(error.description.contains(word), "\"\(word)\" not in: \(error)", sourceLocation: sourceLocation)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path), "left \(destination.path) behind", sourceLocation: sourceLocation)
        return caught
    }

    // MARK: Round trips

    @Test("create → extract, and the crafted fixture, unpack to the bundle's bytes")
    func roundTrip() async throws {
        try withTemporaryDirectory { folder in
            let source = Fixtures.bundlesDirectory.appendingPathComponent(Self.bundle)
            let archive = try Fixtures.archive(of: source, in: folder)
            #expect(try BundleArchive.validate(archive) == Self.bundle)
            // A low ratio threshold: a real model's ratio passes the rule even where it is checked.
            let limits = BundleArchive.Limits(compressionRatioThreshold: 64)
            let unpacked = try BundleArchive.extract(archive, into: folder.appendingPathComponent("out"), limits: limits)
            for file in ["model.json", "model.tflite"] {
                #expect(try Data(contentsOf: unpacked.appendingPathComponent(file)) == Data(contentsOf: source.appendingPathComponent(file)))
            }
            _ = try ModelBundle(at: unpacked)

            let crafted = try CraftedZip.fixture()
            let entries = try BundleArchive.unpack(crafted.bytes)
            #expect(entries.map(\.path) == ["\(Self.bundle)", "\(Self.bundle)/model.json", "\(Self.bundle)/model.tflite"])
            #expect(entries[0].isDirectory)
            #expect(entries[2].contents == (try Data(contentsOf: source.appendingPathComponent("model.tflite"))))

            // Stored entries, an archive comment and an empty file are fine.
            var stored = crafted
            stored.entries[2] = .stored("\(Self.bundle)/model.tflite", try Data(contentsOf: source.appendingPathComponent("model.tflite")))
            stored.entries.append(.stored("\(Self.bundle)/assets/empty.txt", Data()))
            stored.comment = Data("made by hand".utf8)
            let url = folder.appendingPathComponent("stored.zip")
            try stored.bytes.write(to: url)
            let bundle = try BundleArchive.extract(url, into: folder.appendingPathComponent("stored"))
            #expect(try Data(contentsOf: bundle.appendingPathComponent("assets/empty.txt")).isEmpty)
        }
    }

    // MARK: Corrupt data

    @Test("bits flipped inside the compressed data (seeded, many positions, one or two at a time) always end in an error, quickly")
    func flippedBits() async throws {
        let zip = try CraftedZip.fixture()
        let bytes = zip.bytes
        // Where the deflated data of the two files lie in the archive.
        var ranges: [Range<Int>] = []
        var offset = 0
        for entry in zip.entries {
            offset += 30 + (entry.localName ?? entry.name).utf8.count
            if entry.method == 8 { ranges.append(offset..<(offset + entry.data.count)) }
            offset += entry.data.count
        }
        var generator = SeededGenerator(seed: 0x7E45_0710)
        let limits = BundleArchive.Limits(maximumUnpackedBytes: 1 << 20, timeLimit: 5)
        let original = try BundleArchive.unpack(bytes)
        let start = ProcessInfo.processInfo.systemUptime
        var refused = 0
        for trial in 0..<600 {
            var mutated = bytes
            for _ in 0..<(trial % 2 + 1) {
                let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
                let position = Int.random(in: range, using: &generator)
                mutated[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            }
            let trialStart = ProcessInfo.processInfo.systemUptime
            do {
                // A flip in bits deflate ignores (the padding after the last block) changes nothing; any
                // other must be caught, by zlib, the sizes or the CRC-32.
                let entries = try BundleArchive.unpack(mutated, limits: limits)
                #expect(entries == original, "trial \(trial): a corrupt archive unpacked to different bytes")
            } catch let error as TensorIOError {
                #expect(error.code == .invalidArchive, "trial \(trial): \(error)")
                refused += 1
            }
            #expect(ProcessInfo.processInfo.systemUptime - trialStart < 1, "trial \(trial) was slow")
        }
        #expect(refused > 590)

        // Anywhere in the file, headers included: never a hang or a crash, whatever the outcome.
        for _ in 0..<600 {
            var mutated = bytes
            for _ in 0..<2 {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            }
            _ = try? BundleArchive.unpack(mutated, limits: limits)
        }
        // Random bytes as the compressed stream.
        for _ in 0..<200 {
            var random = zip
            let noise = Data((0..<Int.random(in: 1..<2048, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            random.entries[2].data = noise
            random.entries[2].compressedSize = UInt32(noise.count)
            #expect(throws: TensorIOError.self) { try BundleArchive.unpack(random.bytes, limits: limits) }
        }
        #expect(ProcessInfo.processInfo.systemUptime - start < 10)

        // The same on disk: nothing is left behind.
        try withTemporaryDirectory { folder in
            for _ in 0..<20 {
                var mutated = bytes
                let range = ranges[1]
                mutated[Int.random(in: range, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                try expectExtractRefused(mutated, in: folder, [.invalidArchive])
            }
        }
    }

    @Test("a truncated deflate stream, and data after its end, are refused")
    func truncatedStream() async throws {
        try withTemporaryDirectory { folder in
            var zip = try CraftedZip.fixture()
            let packed = zip.entries[2].data
            for cut in [1, 2, 5, packed.count / 2] {
                zip.entries[2].data = packed.prefix(packed.count - cut)
                zip.entries[2].compressedSize = UInt32(packed.count - cut)
                try expectExtractRefused(zip.bytes, in: folder, [.invalidArchive], "model.tflite")
            }
            zip.entries[2].data = packed.prefix(packed.count - 3)
            zip.entries[2].compressedSize = UInt32(packed.count - 3)
            expectRefusal([.invalidArchive], "ends before its deflate stream") { _ = try BundleArchive.unpack(zip.bytes) }

            zip.entries[2].data = packed + Data([0, 1, 2, 3])
            zip.entries[2].compressedSize = UInt32(packed.count + 4)
            try expectExtractRefused(zip.bytes, in: folder, [.invalidArchive], "deflate stream ends before")
        }
    }

    @Test("headers declaring 1,000 bytes for a multi-megabyte stream: refused, nothing past 1,000 bytes produced")
    func lyingSize() async throws {
        try withTemporaryDirectory { folder in
            let big = Data(count: 4 << 20)
            var lying = CraftedZip.Entry.deflated("\(Self.bundle)/assets/weights.bin", big)
            lying.uncompressedSize = 1000
            lying.crc32 = CRC32.checksum(big.prefix(1000))
            var zip = try CraftedZip.fixture()
            zip.entries.append(lying)
            let error = try expectExtractRefused(zip.bytes, in: folder, [.invalidArchive], "weights.bin", "1000 bytes")
            #expect(error?.message.contains("declares") == true)

            // What the reader hands out for that entry stops at the declared size.
            let limits = BundleArchive.Limits(maximumEntries: 10)
            let reader = try ZipReader(bytes: [UInt8](zip.bytes), name: "lying", limits: limits.readerLimits, deadline: limits.deadline())
            let entry = try #require(reader.entries.last)
            var produced = 0
            #expect(throws: ArchiveError.self) {
                _ = try reader.unpack(entry, alreadyWritten: 0) { produced += $0.count }
            }
            #expect(produced <= 1000)

            // The store (pull, update) refuses it and keeps nothing.
            let url = folder.appendingPathComponent("lying.zip")
            try zip.bytes.write(to: url)
            let store = try ModelStore(directory: folder.appendingPathComponent("store"))
            expectTensorIOError(.invalidArchive) { try store.install(archiveAt: url, modelId: "m", version: "1") }
            #expect(try store.current("m") == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.appendingPathComponent(".tmp").path).isEmpty)
        }
    }

    // MARK: Limits

    @Test("zip bombs: one entry past the ratio, many small entries adding up, per-entry and total limits")
    func bombs() async throws {
        try withTemporaryDirectory { folder in
            var zip = try CraftedZip.fixture()
            zip.entries.append(.deflated("\(Self.bundle)/assets/zeros.bin", Data(count: 20 << 20)))
            try expectExtractRefused(zip.bytes, in: folder, [.limitExceeded], "zeros.bin", "maximumCompressionRatio")

            // Entries under the threshold one by one, far past it together, against the archive's size.
            var many = try CraftedZip.fixture()
            let zeros = CraftedZip.Entry.deflated("\(Self.bundle)/assets/0.bin", Data(count: 8 << 20))
            for index in 0..<3 {
                var entry = zeros
                entry.name = "\(Self.bundle)/assets/\(index).bin"
                many.entries.append(entry)
            }
            try expectExtractRefused(many.bytes, in: folder, [.limitExceeded], "maximumCompressionRatio")

            let fixture = try CraftedZip.fixture().bytes
            try expectExtractRefused(
                fixture, in: folder, [.limitExceeded], "model.tflite", "maximumEntryBytes",
                limits: BundleArchive.Limits(maximumEntryBytes: 1000))
            try expectExtractRefused(
                fixture, in: folder, [.limitExceeded], "maximumUnpackedBytes",
                limits: BundleArchive.Limits(maximumUnpackedBytes: 1200))

            // Overlapping entries (the same compressed bytes unpacked many times over).
            var overlapping = try CraftedZip.fixture()
            var copy = overlapping.entries[2]
            copy.name = "\(Self.bundle)/copy.tflite"
            copy.localHeaderOffset = UInt32(30 * 2 + overlapping.entries[0].name.utf8.count + overlapping.entries[1].name.utf8.count + overlapping.entries[1].data.count)
            copy.localName = nil
            overlapping.entries.append(copy)
            try expectExtractRefused(overlapping.bytes, in: folder, [.invalidArchive], "copy.tflite", "overlaps")
        }
    }

    @Test("too many entries are refused before they are read; a declared count of 65,534 costs nothing")
    func tooManyEntries() async throws {
        try withTemporaryDirectory { folder in
            var zip = try CraftedZip.fixture()
            for index in 0..<10 { zip.entries.append(.stored("\(Self.bundle)/assets/\(index).txt", Data("x".utf8))) }
            try expectExtractRefused(
                zip.bytes, in: folder, [.limitExceeded], "13 entries", "maximumEntries",
                limits: BundleArchive.Limits(maximumEntries: 12))

            var claimed = try CraftedZip.fixture()
            claimed.entryCount = 65_534
            try expectExtractRefused(claimed.bytes, in: folder, [.limitExceeded], "65534 entries")
            claimed.entryCount = 4
            try expectExtractRefused(claimed.bytes, in: folder, [.invalidArchive])
        }
    }

    @Test("the time limit ends a read")
    func deadline() async throws {
        try withTemporaryDirectory { folder in
            let zip = try CraftedZip.fixture().bytes
            try expectExtractRefused(zip, in: folder, [.limitExceeded], "time limit", limits: BundleArchive.Limits(timeLimit: 0))
            expectRefusal([.limitExceeded], "timeLimit") { _ = try BundleArchive.unpack(zip, limits: BundleArchive.Limits(timeLimit: 0)) }
        }
    }

    // MARK: Structure

    @Test("end records: garbage, trailing bytes, a second record in the comment, lying comment lengths")
    func endRecordTricks() async throws {
        try withTemporaryDirectory { folder in
            let good = try CraftedZip.fixture()
            for garbage in [Data(), Data(count: 21), Data((0..<4096).map { UInt8($0 % 251) }), Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))] {
                try expectExtractRefused(garbage, in: folder, [.invalidArchive])
            }
            try expectExtractRefused(good.bytes + Data("trailing".utf8), in: folder, [.invalidArchive], "end-of-central-directory")

            // A comment holding a record of its own that also ends at the end of the file.
            var hidden = good
            var fake = Data()
            fake.append(u32: 0x0605_4B50)
            for _ in 0..<4 { fake.append(u16: 0) }
            fake.append(u32: 0)
            fake.append(u32: 0)
            fake.append(u16: 0)
            hidden.comment = fake
            try expectExtractRefused(hidden.bytes, in: folder, [.invalidArchive], "2 end-of-central-directory records")

            var lying = good.bytes
            lying[lying.count - 2] = 0x10  // comment length 16, but no comment follows
            try expectExtractRefused(lying, in: folder, [.invalidArchive])

            // A long comment is searched past, within the 65,557-byte window.
            var commented = good
            commented.comment = Data(repeating: 0x41, count: 65_535)
            #expect(try BundleArchive.unpack(commented.bytes).count == 3)
        }
    }

    @Test("central directories and local headers pointing outside the file, or at the wrong place")
    func offsetsOutside() async throws {
        try withTemporaryDirectory { folder in
            let good = try CraftedZip.fixture()
            let size = UInt32(good.bytes.count)
            for (offset, length) in [(size + 100, nil), (UInt32.max - 10, nil), (0, nil), (10, UInt32(50)), (0, UInt32.max - 1)] as [(UInt32, UInt32?)] {
                var zip = good
                zip.directoryOffset = offset
                zip.directorySize = length
                try expectExtractRefused(zip.bytes, in: folder, [.invalidArchive])
            }
            for local in [size + 1000, size - 30, UInt32.max - 1, 7] {
                var zip = good
                zip.entries[2].localHeaderOffset = local
                try expectExtractRefused(zip.bytes, in: folder, [.invalidArchive], "model.tflite")
            }
            var sizes = good
            sizes.entries[2].compressedSize = size * 4
            sizes.entries[2].localName = nil
            try expectExtractRefused(sizes.bytes, in: folder, [.invalidArchive])
        }
    }

    @Test("a local header disagreeing with the central directory is refused")
    func localCentralMismatch() async throws {
        try withTemporaryDirectory { folder in
            var name = try CraftedZip.fixture()
            name.entries[1].localName = "\(Self.bundle)/modex.json"
            try expectExtractRefused(name.bytes, in: folder, [.invalidArchive], "model.json", "different name")

            var method = try CraftedZip.fixture()
            method.entries[1].localMethod = 0
            try expectExtractRefused(method.bytes, in: folder, [.invalidArchive], "model.json", "method")

            var size = try CraftedZip.fixture()
            size.entries[2].localUncompressedSize = 5
            try expectExtractRefused(size.bytes, in: folder, [.invalidArchive], "model.tflite", "unpacked size")

            var crc = try CraftedZip.fixture()
            crc.entries[2].localCRC32 = 1
            try expectExtractRefused(crc.bytes, in: folder, [.invalidArchive], "model.tflite", "CRC-32")

            var twice = try CraftedZip.fixture()
            twice.entries.append(twice.entries[1])
            try expectExtractRefused(twice.bytes, in: folder, [.invalidArchive], "model.json")
        }
    }

    @Test("a CRC-32 differing from the data, and stored sizes that disagree, are refused")
    func crcMismatch() async throws {
        try withTemporaryDirectory { folder in
            var zip = try CraftedZip.fixture()
            zip.entries[2].crc32 ^= 0x0000_0100
            try expectExtractRefused(zip.bytes, in: folder, [.invalidArchive], "model.tflite", "CRC-32")

            var stored = try CraftedZip.fixture()
            stored.entries[1] = .stored("\(Self.bundle)/model.json", Data("{}".utf8))
            stored.entries[1].uncompressedSize = 1
            try expectExtractRefused(stored.bytes, in: folder, [.invalidArchive], "model.json")
        }
    }

    @Test("unsupported methods, encryption and ZIP64 are refused with a clear message")
    func unsupported() async throws {
        try withTemporaryDirectory { folder in
            var bzip2 = try CraftedZip.fixture()
            bzip2.entries[2].method = 12
            try expectExtractRefused(bzip2.bytes, in: folder, [.invalidArchive], "model.tflite", "compression method 12", "stored (0) and deflate (8)")

            var encrypted = try CraftedZip.fixture()
            encrypted.entries[2].flags |= 1
            try expectExtractRefused(encrypted.bytes, in: folder, [.invalidArchive], "model.tflite", "encrypted")

            var zip64 = try CraftedZip.fixture()
            zip64.entries[2].uncompressedSize = 0xFFFF_FFFF
            try expectExtractRefused(zip64.bytes, in: folder, [.invalidArchive], "ZIP64")

            var link = try CraftedZip.fixture()
            link.entries.append(.stored("\(Self.bundle)/link", Data("/etc/passwd".utf8)))
            link.entries[3].externalAttributes = 0o120777 << 16
            try expectExtractRefused(link.bytes, in: folder, [.unsafeArchive], "symbolic link")

            var fifo = try CraftedZip.fixture()
            fifo.entries.append(.stored("\(Self.bundle)/pipe", Data()))
            fifo.entries[3].externalAttributes = 0o010644 << 16
            try expectExtractRefused(fifo.bytes, in: folder, [.unsafeArchive], "pipe")
        }
    }

    // MARK: Through the server

    @Test("uploads whose unpacking fails are refused with 422 and leave nothing in incoming/")
    func uploads() async throws {
        try await withServer { server, folder in
            let client = server.client()
            let incoming = server.server.storage.root.appendingPathComponent("incoming")

            var lying = try CraftedZip.fixture()
            var entry = CraftedZip.Entry.deflated("\(Self.bundle)/assets/weights.bin", Data(count: 2 << 20))
            entry.uncompressedSize = 1000
            lying.entries.append(entry)
            let lyingURL = folder.appendingPathComponent("lying.zip")
            try lying.bytes.write(to: lyingURL)
            let error = await expectTensorIOError(.invalidArchive) { try await client.upload(archiveAt: lyingURL, modelId: "m", version: "1") }
            #expect(error?.message.contains("HTTP 422") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: incoming.path).isEmpty)

            var bomb = try CraftedZip.fixture()
            bomb.entries.append(.deflated("\(Self.bundle)/assets/zeros.bin", Data(count: 20 << 20)))
            let bombURL = folder.appendingPathComponent("bomb.zip")
            try bomb.bytes.write(to: bombURL)
            let bombError = await expectTensorIOError(.limitExceeded) { try await client.upload(archiveAt: bombURL, modelId: "m", version: "1") }
            #expect(bombError?.message.contains("HTTP 422") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: incoming.path).isEmpty)
            #expect(try await client.health().versions == 0)
        }
    }
}
#endif
