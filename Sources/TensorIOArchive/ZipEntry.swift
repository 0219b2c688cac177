/// One entry of a zip archive as its central directory describes it, checked against its local header.
public struct ZipEntry: Sendable, Hashable {
    /// What the entry unpacks to.
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case file
        /// A folder (its path ends with `/`, or its Unix mode says so).
        case directory
        /// A symbolic link (Unix mode `S_IFLNK`); never unpacked.
        case symbolicLink
        /// A device, FIFO or socket (another Unix file type); never unpacked.
        case special
    }

    /// How the entry's data is stored.
    public enum Method: UInt16, Sendable {
        /// Stored as is (method 0).
        case stored = 0
        /// Raw deflate (method 8).
        case deflated = 8
    }

    /// The path as written in the archive (a folder's ends with `/`).
    public internal(set) var path: String
    /// What the entry unpacks to.
    public internal(set) var kind: Kind
    /// How the entry's data is stored.
    public internal(set) var method: Method
    /// The CRC-32 of the uncompressed data.
    public internal(set) var crc32: UInt32
    /// The length of the stored (possibly compressed) data, as the central directory declares it.
    public internal(set) var compressedSize: UInt64
    /// The length of the unpacked data, as the central directory declares it; unpacking enforces it.
    public internal(set) var uncompressedSize: UInt64
    /// Where the entry's local header starts.
    public internal(set) var localHeaderOffset: UInt64
    /// Where the entry's data starts, just after its local header; set once the local header is checked.
    public internal(set) var dataOffset: UInt64 = 0
}

/// Little-endian fields of a zip record held in a byte array.
struct LittleEndianFields {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The 16-bit field at `offset`; callers read only inside records whose length they checked.
    func u16(_ offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The 32-bit field at `offset`.
    func u32(_ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    /// The 64-bit field at `offset`.
    func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }
}

/// The fields a local header and a central-directory entry both hold, in the same order: from the
/// general-purpose flags to the extra field's length (APPNOTE 4.3.7 and 4.3.12). The central entry has
/// them 2 bytes further on, after its "version made by".
struct ZipHeaderFields {
    /// The record, whose length the caller checked.
    let header: LittleEndianFields
    /// Where the flags are: 6 in a local header, 8 in a central-directory entry.
    let flagsOffset: Int

    /// The general-purpose bit flags.
    var flags: UInt16 { header.u16(flagsOffset) }
    /// The compression method's number.
    var method: UInt16 { header.u16(flagsOffset + 2) }
    // flagsOffset + 4 and + 6: the modification time and date, which nothing here reads.
    /// The CRC-32 of the unpacked data.
    var crc32: UInt32 { header.u32(flagsOffset + 8) }
    /// The length of the stored data (`0xFFFF_FFFF`: given in a ZIP64 extra field).
    var compressedSize: UInt32 { header.u32(flagsOffset + 12) }
    /// The length of the unpacked data (`0xFFFF_FFFF`: given in a ZIP64 extra field).
    var uncompressedSize: UInt32 { header.u32(flagsOffset + 16) }
    /// The length of the name that follows the fixed fields.
    var nameLength: Int { Int(header.u16(flagsOffset + 20)) }
    /// The length of the extra field that follows the name.
    var extraLength: UInt64 { UInt64(header.u16(flagsOffset + 22)) }
}
