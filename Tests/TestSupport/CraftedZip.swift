import CSystemZlib
public import Foundation

/// Zip archives written byte by byte, so that tests can give a reader what no honest writer makes:
/// lying sizes, local headers that disagree with the central directory, odd end records, and zips
/// appended to a model file the way Python's `zipfile` appends them (offsets counted from the zip's start).
public struct CraftedZip: Sendable {
    /// One entry, with every header field open to tampering.
    public struct Entry: Sendable {
        public var name: String
        public var method: UInt16
        /// The bytes as stored (compressed for method 8).
        public var data: Data
        public var crc32: UInt32
        public var compressedSize: UInt32
        public var uncompressedSize: UInt32
        public var flags: UInt16 = 0x0800  // UTF-8 names
        public var versionMadeBy: UInt16 = 0x031E  // Unix, 3.0
        public var externalAttributes: UInt32 = 0o100644 << 16
        /// What the local header says instead of the central directory's values, when set.
        public var localName: String?
        public var localMethod: UInt16?
        public var localUncompressedSize: UInt32?
        public var localCRC32: UInt32?
        /// Where the central directory says the local header is, instead of where it was written.
        public var localHeaderOffset: UInt32?

        /// A file deflated by zlib, its headers telling the truth.
        public static func deflated(_ name: String, _ contents: Data) -> Entry {
            let packed = CraftedZip.deflate(contents)
            return Entry(
                name: name, method: 8, data: packed, crc32: CRC32.checksum(contents),
                compressedSize: UInt32(packed.count), uncompressedSize: UInt32(contents.count))
        }

        /// A file stored uncompressed.
        public static func stored(_ name: String, _ contents: Data) -> Entry {
            Entry(
                name: name, method: 0, data: contents, crc32: CRC32.checksum(contents),
                compressedSize: UInt32(contents.count), uncompressedSize: UInt32(contents.count))
        }

        /// A folder (the name ends with `/`).
        public static func directory(_ name: String) -> Entry {
            Entry(
                name: name, method: 0, data: Data(), crc32: 0, compressedSize: 0, uncompressedSize: 0,
                externalAttributes: 0o040755 << 16)
        }
    }

    public var entries: [Entry]
    public var comment: Data
    /// Replacements for the end record's fields, when set.
    public var directoryOffset: UInt32?
    public var directorySize: UInt32?
    public var entryCount: UInt16?

    public init(entries: [Entry], comment: Data = Data()) {
        self.entries = entries
        self.comment = comment
    }

    /// The archive's bytes.
    public var bytes: Data { bytes(offsetBy: 0) }

    /// The archive's bytes, its offsets counted from `base` bytes before its start: 0 as Python's
    /// `zipfile` writes them when it appends to a file, the appended-to file's size as most other tools do.
    public func bytes(offsetBy base: Int) -> Data {
        var out = Data()
        var offsets: [UInt32] = []
        for entry in entries {
            offsets.append(UInt32(base + out.count))
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
        let directoryStart = UInt32(base + out.count)
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
        let directoryLength = UInt32(base + out.count) - directoryStart
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

    /// The number bundle as a crafted archive: a folder entry and its two files, deflated.
    public static func fixture() throws -> CraftedZip {
        let name = Fixtures.numberBundleName
        let source = Fixtures.url(name)
        return CraftedZip(entries: [
            .directory("\(name)/"),
            .deflated("\(name)/model.json", try Data(contentsOf: source.appendingPathComponent("model.json"))),
            .deflated("\(name)/model.tflite", try Data(contentsOf: source.appendingPathComponent("model.tflite"))),
        ])
    }

    /// Raw deflate (zip's method 8) of `contents`, by zlib at its best compression.
    public static func deflate(_ contents: Data) -> Data {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = [UInt8](contents)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        let produced = input.withUnsafeMutableBytes { inBytes in
            output.withUnsafeMutableBytes { outBytes in
                stream.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(inBytes.count)
                stream.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(outBytes.count)
                _ = CSystemZlib.deflate(&stream, Z_FINISH)
                return outBytes.count - Int(stream.avail_out)
            }
        }
        return Data(output.prefix(produced))
    }
}
