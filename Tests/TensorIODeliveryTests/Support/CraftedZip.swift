import Foundation
import ZIPFoundation

/// Zip archives written byte by byte, so that tests can give the reader what no honest writer makes:
/// lying sizes, local headers that disagree with the central directory, odd end records.
struct CraftedZip {
    /// One entry, with every header field open to tampering.
    struct Entry {
        var name: String
        var method: UInt16
        /// The bytes as stored (compressed for method 8).
        var data: Data
        var crc32: UInt32
        var compressedSize: UInt32
        var uncompressedSize: UInt32
        var flags: UInt16 = 0x0800  // UTF-8 names
        var versionMadeBy: UInt16 = 0x031E  // Unix, 3.0
        var externalAttributes: UInt32 = 0o100644 << 16
        /// What the local header says instead of the central directory's values, when set.
        var localName: String?
        var localMethod: UInt16?
        var localUncompressedSize: UInt32?
        var localCRC32: UInt32?
        /// Where the central directory says the local header is, instead of where it was written.
        var localHeaderOffset: UInt32?

        /// A file deflated by zlib (through ZIPFoundation), its headers telling the truth.
        static func deflated(_ name: String, _ contents: Data) throws -> Entry {
            let packed = try CraftedZip.deflate(contents)
            return Entry(
                name: name, method: 8, data: packed, crc32: CraftedZip.crc32(contents),
                compressedSize: UInt32(packed.count), uncompressedSize: UInt32(contents.count))
        }

        /// A file stored uncompressed.
        static func stored(_ name: String, _ contents: Data) -> Entry {
            Entry(
                name: name, method: 0, data: contents, crc32: CraftedZip.crc32(contents),
                compressedSize: UInt32(contents.count), uncompressedSize: UInt32(contents.count))
        }

        /// A folder (the name ends with `/`).
        static func directory(_ name: String) -> Entry {
            Entry(
                name: name, method: 0, data: Data(), crc32: 0, compressedSize: 0, uncompressedSize: 0,
                externalAttributes: 0o040755 << 16)
        }
    }

    var entries: [Entry]
    var comment = Data()
    /// Replacements for the end record's fields, when set.
    var directoryOffset: UInt32?
    var directorySize: UInt32?
    var entryCount: UInt16?

    /// The archive's bytes.
    var bytes: Data {
        var out = Data()
        var offsets: [UInt32] = []
        for entry in entries {
            offsets.append(UInt32(out.count))
            let name = Data((entry.localName ?? entry.name).utf8)
            out.append(u32: 0x0403_4B50)
            out.append(u16: 20)
            out.append(u16: entry.flags)
            out.append(u16: entry.localMethod ?? entry.method)
            out.append(u16: 0)  // time
            out.append(u16: 0x21)  // date: 1980-01-01
            out.append(u32: entry.localCRC32 ?? entry.crc32)
            out.append(u32: entry.compressedSize)
            out.append(u32: entry.localUncompressedSize ?? entry.uncompressedSize)
            out.append(u16: UInt16(name.count))
            out.append(u16: 0)
            out.append(name)
            out.append(entry.data)
        }
        let directoryStart = UInt32(out.count)
        for (entry, offset) in zip(entries, offsets) {
            let name = Data(entry.name.utf8)
            out.append(u32: 0x0201_4B50)
            out.append(u16: entry.versionMadeBy)
            out.append(u16: 20)
            out.append(u16: entry.flags)
            out.append(u16: entry.method)
            out.append(u16: 0)
            out.append(u16: 0x21)
            out.append(u32: entry.crc32)
            out.append(u32: entry.compressedSize)
            out.append(u32: entry.uncompressedSize)
            out.append(u16: UInt16(name.count))
            out.append(u16: 0)  // extra
            out.append(u16: 0)  // comment
            out.append(u16: 0)  // disk
            out.append(u16: 0)  // internal attributes
            out.append(u32: entry.externalAttributes)
            out.append(u32: entry.localHeaderOffset ?? offset)
            out.append(name)
        }
        let directoryLength = UInt32(out.count) - directoryStart
        out.append(u32: 0x0605_4B50)
        out.append(u16: 0)
        out.append(u16: 0)
        out.append(u16: entryCount ?? UInt16(entries.count))
        out.append(u16: entryCount ?? UInt16(entries.count))
        out.append(u32: directorySize ?? directoryLength)
        out.append(u32: directoryOffset ?? directoryStart)
        out.append(u16: UInt16(comment.count))
        out.append(comment)
        return out
    }

    /// The fixture bundle `1_in_1_out_number_test.tiobundle` as a crafted archive: a folder entry and its
    /// two files, deflated.
    static func fixture() throws -> CraftedZip {
        let source = Fixtures.bundles.appendingPathComponent(Fixtures.modelName)
        return CraftedZip(entries: [
            .directory("\(Fixtures.modelName)/"),
            try .deflated("\(Fixtures.modelName)/model.json", Data(contentsOf: source.appendingPathComponent("model.json"))),
            try .deflated("\(Fixtures.modelName)/model.tflite", Data(contentsOf: source.appendingPathComponent("model.tflite"))),
        ])
    }

    /// Raw deflate of `contents`, taken from a one-entry zip that ZIPFoundation (zlib) writes in memory.
    static func deflate(_ contents: Data) throws -> Data {
        let archive = try Archive(accessMode: .create)
        try archive.addEntry(
            with: "x", type: .file, uncompressedSize: Int64(contents.count), compressionMethod: .deflate
        ) { (position: Int64, size: Int) in
            contents.subdata(in: Int(position)..<Int(position) + size)
        }
        let zip = try require(archive.data)
        let bytes = [UInt8](zip)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let end = bytes.count - 22  // ZIPFoundation writes no comment
        let directory = u32(end + 16)
        let packedSize = u32(directory + 20)
        let dataStart = 30 + u16(26) + u16(28)
        return Data(bytes[dataStart..<(dataStart + packedSize)])
    }

    /// CRC-32 as zip computes it, written out here so that the tests do not check the reader against
    /// itself.
    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { bytes in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return ~crc
        }
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        return crc
    }
}

private struct MissingData: Error {}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingData() }
    return value
}

extension Data {
    mutating func append(u16 value: UInt16) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
    mutating func append(u32 value: UInt32) { Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) } }
}

/// A seeded generator (SplitMix64), so that a failing bit flip can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
