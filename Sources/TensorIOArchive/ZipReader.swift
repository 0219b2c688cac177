public import Foundation
import TensorIOSupport

/// A zip reader for untrusted archives: it parses the end record, the central directory and every local
/// header with each offset and length checked to lie inside the file, and refuses what it does not need to
/// understand (ZIP64 archives and entries, encryption, several disks, methods other than stored and
/// deflate). The one ZIP64 feature read is the one Python's zipfile writes for small entries: ZIP64 sizes in
/// a local header, checked against the central directory's 32-bit ones.
///
/// Creating a reader reads only headers; ``unpack(_:alreadyWritten:consume:)`` streams one entry's
/// data, bounded by its declared size and the limits, and checks its size and CRC-32.
///
/// Bundle archives (TensorIODelivery) are read as ``Layout/wholeFile``; ``Layout/appended`` is for zip
/// data written after other data, such as the associated files of a `.tflite` model.
public final class ZipReader {
    /// Where the zip data lies in the bytes read.
    public enum Layout: Sendable, Hashable {
        /// The whole file is the archive: its central directory ends where its end record starts.
        case wholeFile
        /// The archive may follow other data, as Python's `zipfile` writes it when appending to a file
        /// that is not a zip (a `.tflite` model's associated files): offsets count from the start of the
        /// zip, which lies `end record position − central directory size − central directory offset`
        /// bytes into the file. A prefix of 0 (offsets counted from the start of the file) is accepted too.
        case appended
    }

    /// Bounds on what reading costs, with the name messages give their type so that a refusal says
    /// which setting to change.
    public struct Limits: Sendable, Hashable {
        /// The most entries, checked before the central directory is read.
        public var maximumEntries: Int
        /// The most bytes one entry may unpack to.
        public var maximumEntryBytes: UInt64
        /// The most bytes all entries unpacked so far may add up to.
        public var maximumUnpackedBytes: UInt64
        /// The type holding these settings as messages name it, such as `BundleArchive.Limits`.
        public var settingsName: String

        /// Creates limits.
        public init(maximumEntries: Int, maximumEntryBytes: UInt64, maximumUnpackedBytes: UInt64, settingsName: String) {
            self.maximumEntries = maximumEntries
            self.maximumEntryBytes = maximumEntryBytes
            self.maximumUnpackedBytes = maximumUnpackedBytes
            self.settingsName = settingsName
        }
    }

    /// How messages call the archive.
    public let name: String
    /// The entries in central-directory order, each checked against its local header.
    public let entries: [ZipEntry]
    /// The archive's length in bytes, from its start (after any prefix) to the end of the file.
    public var size: UInt64 { source.size }
    /// How many bytes of other data precede the archive (0 unless read as ``Layout/appended``).
    public let prefixLength: UInt64
    /// The bounds the reader was created with.
    public let limits: Limits

    private let source: any ZipByteSource
    private let deadline: ArchiveDeadline
    private var inflater: BoundedInflater?
    private var storedBuffer: [UInt8] = []

    /// The longest entry path accepted, in bytes (`PATH_MAX` on Linux).
    static let maximumPathBytes = 4096

    private static let endRecordLength = 22
    private static let centralHeaderLength = 46
    private static let localHeaderLength = 30
    /// The end record plus the longest comment it can announce.
    private static let endRecordSearchLength = 22 + 65_535

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50

    /// Flag bits: 0 traditional encryption, 6 strong encryption, 13 encrypted central directory.
    private static let encryptionFlags: UInt16 = 0x0001 | 0x0040 | 0x2000
    /// Flag bit 3: the CRC-32 and sizes follow the data; the local header may hold zeros instead.
    private static let dataDescriptorFlag: UInt16 = 0x0008

    /// Reads and checks the headers of the archive at `url`.
    ///
    /// - Throws: ``ArchiveError``: ``ArchiveErrorKind/io`` (cannot be opened),
    ///   ``ArchiveErrorKind/invalidArchive`` (malformed or unsupported) or
    ///   ``ArchiveErrorKind/limitExceeded`` (too many entries, too slow).
    public convenience init(
        url: URL, name: String, limits: Limits, deadline: ArchiveDeadline, layout: Layout = .wholeFile
    ) throws {
        try self.init(source: ZipFileSource(url: url), name: name, limits: limits, deadline: deadline, layout: layout)
    }

    /// Reads and checks the headers of an archive held in memory.
    public convenience init(
        bytes: [UInt8], name: String, limits: Limits, deadline: ArchiveDeadline, layout: Layout = .wholeFile
    ) throws {
        try self.init(source: ZipMemorySource(bytes), name: name, limits: limits, deadline: deadline, layout: layout)
    }

    /// Reads and checks the headers of an archive in bytes the caller owns, without copying them (a
    /// mapped model file); the reader must not be used after `buffer` is released.
    public convenience init(
        borrowing buffer: UnsafeRawBufferPointer, name: String, limits: Limits, deadline: ArchiveDeadline,
        layout: Layout
    ) throws {
        try self.init(source: ZipBorrowedSource(buffer), name: name, limits: limits, deadline: deadline, layout: layout)
    }

    private init(source file: any ZipByteSource, name: String, limits: Limits, deadline: ArchiveDeadline, layout: Layout) throws {
        self.name = name
        self.deadline = deadline
        self.limits = limits
        do {
            let (directory, prefix) = try Self.readEndRecord(file, limits: limits, layout: layout, name: name)
            // From here on every offset counts from the start of the zip, as its records do.
            let source = prefix == 0 ? file : ZipSuffixSource(file, start: prefix)
            var (entries, names) = try Self.readCentralDirectory(source, directory, deadline: deadline, name: name)
            try Self.checkLocalHeaders(source, &entries, names: names, directoryOffset: directory.offset, deadline: deadline, name: name)
            self.entries = entries
            self.source = source
            self.prefixLength = prefix
        } catch let error as ZipFormatError {
            throw ArchiveError(.invalidArchive, "\(name) is not a readable zip archive: \(error.message)")
        }
    }

    /// Whether `bytes` end with a zip end-of-central-directory record (one whose comment reaches exactly
    /// to the end): how a caller tells "no archive here" from "a damaged archive" before reading one.
    public static func hasEndRecord(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let tailLength = min(bytes.count, endRecordSearchLength)
        let tail = LittleEndianFields(Array(bytes[(bytes.count - tailLength)...]))
        return !endRecordCandidates(in: tail).isEmpty
    }

    // MARK: Headers

    private struct CentralDirectory {
        var offset: UInt64
        var size: UInt64
        var count: Int
    }

    /// The positions in `tail` of end records whose comment reaches exactly to its end, last first.
    private static func endRecordCandidates(in tail: LittleEndianFields) -> [Int] {
        var candidates: [Int] = []
        var position = tail.bytes.count - endRecordLength
        while position >= 0 {
            if tail.u32(position) == endSignature,
               Int(tail.u16(position + 20)) == tail.bytes.count - position - endRecordLength {
                candidates.append(position)
            }
            position -= 1
        }
        return candidates
    }

    /// The central directory (offsets counted from the start of the zip) and the length of the data
    /// before the zip.
    private static func readEndRecord(
        _ source: any ZipByteSource, limits: Limits, layout: Layout, name: String
    ) throws -> (CentralDirectory, prefix: UInt64) {
        let maximumEntries = limits.maximumEntries
        let size = source.size
        guard size >= UInt64(endRecordLength) else {
            throw ZipFormatError("it has \(size) bytes, fewer than an empty zip")
        }
        let tailLength = min(size, UInt64(endRecordSearchLength))
        let tailStart = size - tailLength
        let tail = LittleEndianFields(try source.bytes(at: tailStart, count: Int(tailLength)))
        // The end record's comment must reach exactly to the end of the file; a second record that also
        // does (one hidden in the comment) makes the archive ambiguous, since readers could disagree on
        // which one counts.
        let candidates = endRecordCandidates(in: tail)
        guard let record = candidates.first else {
            throw ZipFormatError("no end-of-central-directory record at its end")
        }
        guard candidates.count == 1 else {
            throw ZipFormatError("it has \(candidates.count) end-of-central-directory records (one hidden in the comment)")
        }
        let recordOffset = tailStart + UInt64(record)
        let disk = tail.u16(record + 4)
        let directoryDisk = tail.u16(record + 6)
        let entriesOnDisk = tail.u16(record + 8)
        let entries = tail.u16(record + 10)
        let directorySize = tail.u32(record + 12)
        let directoryOffset = tail.u32(record + 16)
        if entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF || disk == 0xFFFF {
            throw ZipFormatError("it is a ZIP64 archive, which is not supported")
        }
        if recordOffset >= 20 {
            let locator = LittleEndianFields(try source.bytes(at: recordOffset - 20, count: 4))
            if locator.u32(0) == zip64LocatorSignature {
                throw ZipFormatError("it is a ZIP64 archive, which is not supported")
            }
        }
        guard disk == 0, directoryDisk == 0, entriesOnDisk == entries else {
            throw ZipFormatError("it spans several disks, which is not supported")
        }
        // Bounded before anything is iterated: the count is what the central directory is read against.
        guard Int(entries) <= maximumEntries else {
            throw ArchiveError(
                .limitExceeded,
                "\(name) has \(entries) entries, more than the limit of \(maximumEntries) (\(limits.settingsName).maximumEntries)")
        }
        let directoryEnd = UInt64(directoryOffset) + UInt64(directorySize)
        let prefix: UInt64
        switch layout {
        case .wholeFile:
            guard directoryEnd == recordOffset else {
                throw ZipFormatError(
                    "its central directory (\(directorySize) bytes at offset \(directoryOffset)) does not end where the end record starts (offset \(recordOffset))")
            }
            prefix = 0
        case .appended:
            // The zip's own offsets end at the end record; what lies before its start is the prefix.
            guard directoryEnd <= recordOffset else {
                throw ZipFormatError(
                    "its central directory (\(directorySize) bytes at offset \(directoryOffset)) would end after the end record starts (offset \(recordOffset))")
            }
            prefix = recordOffset - directoryEnd
        }
        guard UInt64(directorySize) >= UInt64(entries) * UInt64(centralHeaderLength) else {
            throw ZipFormatError("its central directory (\(directorySize) bytes) is too small for \(entries) entries")
        }
        return (CentralDirectory(offset: UInt64(directoryOffset), size: UInt64(directorySize), count: Int(entries)), prefix)
    }

    private static func readCentralDirectory(
        _ source: any ZipByteSource, _ directory: CentralDirectory, deadline: ArchiveDeadline, name: String
    ) throws -> ([ZipEntry], [[UInt8]]) {
        let end = directory.offset + directory.size
        var offset = directory.offset
        var entries: [ZipEntry] = []
        var names: [[UInt8]] = []
        entries.reserveCapacity(directory.count)
        names.reserveCapacity(directory.count)
        for index in 0..<directory.count {
            if index % 256 == 0 { try deadline.check(name) }
            guard end - offset >= UInt64(centralHeaderLength) else {
                throw ZipFormatError("central directory entry \(index + 1) reaches past the directory's end")
            }
            let header = LittleEndianFields(try source.bytes(at: offset, count: centralHeaderLength))
            guard header.u32(0) == centralSignature else {
                throw ZipFormatError("central directory entry \(index + 1) has no valid signature (offset \(offset))")
            }
            let versionMadeBy = header.u16(4)
            let fields = ZipHeaderFields(header: header, flagsOffset: 8)
            let nameLength = fields.nameLength
            let commentLength = UInt64(header.u16(32))
            let startDisk = header.u16(34)
            let externalAttributes = header.u32(38)
            let localOffset = header.u32(42)
            let recordLength = UInt64(centralHeaderLength) + UInt64(nameLength) + fields.extraLength + commentLength
            guard end - offset >= recordLength else {
                throw ZipFormatError("central directory entry \(index + 1) reaches past the directory's end")
            }
            guard nameLength > 0 else { throw ZipFormatError("central directory entry \(index + 1) has an empty name") }
            guard nameLength <= maximumPathBytes else {
                throw ZipFormatError("central directory entry \(index + 1) has a name of \(nameLength) bytes, more than \(maximumPathBytes)")
            }
            let nameBytes = try source.bytes(at: offset + UInt64(centralHeaderLength), count: nameLength)
            // Names are read as UTF-8 whatever flag bit 11 says: bundle paths are ASCII in practice, and a
            // name that is not valid UTF-8 is refused rather than guessed at.
            guard let path = String(bytes: nameBytes, encoding: .utf8) else {
                throw ZipFormatError("central directory entry \(index + 1) has a name that is not UTF-8")
            }
            let label = "entry \"\(path)\""
            guard fields.flags & encryptionFlags == 0 else { throw ZipFormatError("\(label) is encrypted, which is not supported") }
            guard let method = ZipEntry.Method(rawValue: fields.method) else {
                throw ZipFormatError("\(label) uses compression method \(fields.method); only stored (0) and deflate (8) are supported")
            }
            if fields.compressedSize == 0xFFFF_FFFF || fields.uncompressedSize == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF || startDisk == 0xFFFF {
                throw ZipFormatError("\(label) uses ZIP64 fields, which are not supported")
            }
            guard startDisk == 0 else { throw ZipFormatError("\(label) is on another disk, which is not supported") }
            let kind = try kind(of: path, versionMadeBy: versionMadeBy, externalAttributes: externalAttributes, label: label)
            if kind == .directory, fields.uncompressedSize != 0 || fields.compressedSize > 2 {
                throw ZipFormatError("\(label) is a folder but holds \(fields.uncompressedSize) bytes")
            }
            if method == .stored, fields.compressedSize != fields.uncompressedSize {
                throw ZipFormatError("\(label) is stored uncompressed but declares \(fields.compressedSize) packed and \(fields.uncompressedSize) unpacked bytes")
            }
            entries.append(ZipEntry(
                path: path, kind: kind, method: method, crc32: fields.crc32, compressedSize: UInt64(fields.compressedSize),
                uncompressedSize: UInt64(fields.uncompressedSize), localHeaderOffset: UInt64(localOffset)))
            names.append(nameBytes)
            offset += recordLength
        }
        guard offset == end else {
            throw ZipFormatError("its central directory has \(end - offset) bytes after its \(directory.count) entries")
        }
        return (entries, names)
    }

    /// What an entry is: Unix archivers record the file type in the high half of the external attributes;
    /// others mark folders only by the trailing `/`.
    private static func kind(of path: String, versionMadeBy: UInt16, externalAttributes: UInt32, label: String) throws -> ZipEntry.Kind {
        let unixHost: UInt16 = 3
        let trailingSlash = path.hasSuffix("/")
        if versionMadeBy >> 8 == unixHost {
            let type = (externalAttributes >> 16) & 0o170000
            switch type {
            case 0o120000: return .symbolicLink
            case 0o040000: return .directory
            case 0o100000, 0: return trailingSlash ? .directory : .file
            default: return .special
            }
        }
        return trailingSlash ? .directory : .file
    }

    /// Checks each local header against its central-directory entry, and that the entries' data lie
    /// before the central directory without overlapping (overlapping entries are how a small archive
    /// unpacks the same compressed bytes many times over).
    private static func checkLocalHeaders(
        _ source: any ZipByteSource, _ entries: inout [ZipEntry], names: [[UInt8]], directoryOffset: UInt64,
        deadline: ArchiveDeadline, name: String
    ) throws {
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        var previousEnd: UInt64 = 0
        var previousLabel = ""
        for (step, index) in order.enumerated() {
            if step % 256 == 0 { try deadline.check(name) }
            let entry = entries[index]
            let label = "entry \"\(entry.path)\""
            let offset = entry.localHeaderOffset
            guard offset >= previousEnd else {
                throw ZipFormatError("\(label) overlaps \(previousLabel)")
            }
            guard offset < directoryOffset, directoryOffset - offset >= UInt64(localHeaderLength) else {
                throw ZipFormatError("\(label) has its local header outside the archive's data (offset \(offset))")
            }
            let header = LittleEndianFields(try source.bytes(at: offset, count: localHeaderLength))
            guard header.u32(0) == localSignature else {
                throw ZipFormatError("\(label) has no valid local header at offset \(offset)")
            }
            let fields = ZipHeaderFields(header: header, flagsOffset: 6)
            let nameLength = UInt64(fields.nameLength)
            let dataOffset = offset + UInt64(localHeaderLength) + nameLength + fields.extraLength
            guard dataOffset <= directoryOffset, directoryOffset - dataOffset >= entry.compressedSize else {
                throw ZipFormatError("\(label) has data reaching past the start of the central directory")
            }
            guard Int(nameLength) == names[index].count,
                  try source.bytes(at: offset + UInt64(localHeaderLength), count: Int(nameLength)) == names[index] else {
                throw ZipFormatError("\(label) has a different name in its local header")
            }
            guard fields.method == entry.method.rawValue else {
                throw ZipFormatError("\(label) has method \(fields.method) in its local header, \(entry.method.rawValue) in the central directory")
            }
            guard fields.flags & encryptionFlags == 0 else { throw ZipFormatError("\(label) is encrypted, which is not supported") }
            var localCompressedSize = UInt64(fields.compressedSize)
            var localUncompressedSize = UInt64(fields.uncompressedSize)
            if fields.compressedSize == 0xFFFF_FFFF || fields.uncompressedSize == 0xFFFF_FFFF {
                // Python's zipfile (and so numpy.savez) writes ZIP64 sizes into the local header of small
                // entries; the central directory holds the real 32-bit ones, which these must equal.
                let extra = try source.bytes(at: offset + UInt64(localHeaderLength) + nameLength, count: Int(fields.extraLength))
                guard let sizes = zip64Sizes(in: extra) else {
                    throw ZipFormatError("\(label) marks its sizes as ZIP64 in its local header without a valid ZIP64 field")
                }
                (localUncompressedSize, localCompressedSize) = sizes
            }
            // With a data descriptor the local header may leave the CRC and sizes at zero; whatever it
            // does give must agree with the central directory.
            let deferred = fields.flags & dataDescriptorFlag != 0
            for (field, local, central) in [
                ("CRC-32", UInt64(fields.crc32), UInt64(entry.crc32)),
                ("packed size", localCompressedSize, entry.compressedSize),
                ("unpacked size", localUncompressedSize, entry.uncompressedSize),
            ] where local != central && !(deferred && local == 0) {
                throw ZipFormatError("\(label) has \(field) \(local) in its local header, \(central) in the central directory")
            }
            entries[index].dataOffset = dataOffset
            previousEnd = dataOffset + entry.compressedSize
            previousLabel = label
        }
    }

    /// The uncompressed and compressed sizes of a local header's ZIP64 extra field (id 1, both sizes
    /// present), or `nil` when there is none or it is malformed. Each step of the walk moves past one
    /// field, so it ends within the extra data's length.
    private static func zip64Sizes(in extra: [UInt8]) -> (uncompressed: UInt64, compressed: UInt64)? {
        var position = 0
        while extra.count - position >= 4 {
            let id = UInt16(extra[position]) | UInt16(extra[position + 1]) << 8
            let size = Int(UInt16(extra[position + 2]) | UInt16(extra[position + 3]) << 8)
            let start = position + 4
            guard extra.count - start >= size else { return nil }
            if id == 0x0001 {
                guard size >= 16 else { return nil }
                let fields = LittleEndianFields(Array(extra[start..<(start + 16)]))
                return (fields.u64(0), fields.u64(8))
            }
            position = start + size
        }
        return nil
    }

    // MARK: Data

    /// Streams the data of `entry` to `consume`, never producing more than its declared size, the
    /// per-entry limit or what remains of the total (``limits``), and checks its size and CRC-32 at the end.
    ///
    /// - Parameters:
    ///   - entry: One of ``entries``.
    ///   - alreadyWritten: What earlier entries produced, counted against the total.
    ///   - consume: Receives each chunk, in order; a chunk that would pass a bound is never handed out.
    /// - Returns: The number of bytes produced.
    /// - Throws: ``ArchiveError``: ``ArchiveErrorKind/invalidArchive`` (corrupt, truncated, more or
    ///   less data than declared, CRC mismatch) or ``ArchiveErrorKind/limitExceeded``; and what
    ///   `consume` throws.
    public func unpack(
        _ entry: ZipEntry, alreadyWritten: UInt64,
        consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        let label = "entry \"\(entry.path)\""
        let remainingTotal = limits.maximumUnpackedBytes > alreadyWritten ? limits.maximumUnpackedBytes - alreadyWritten : 0
        let cap = min(entry.uncompressedSize, limits.maximumEntryBytes, remainingTotal)
        let overLimit: ArchiveError
        if cap == entry.uncompressedSize {
            overLimit = ArchiveError(
                .invalidArchive,
                "\(name): \(label) holds more data than the \(entry.uncompressedSize) bytes its header declares")
        } else if cap == limits.maximumEntryBytes {
            overLimit = ArchiveError(
                .limitExceeded,
                "\(name): \(label) unpacks to more than the limit of \(limits.maximumEntryBytes) bytes per entry (\(limits.settingsName).maximumEntryBytes)")
        } else {
            overLimit = ArchiveError(
                .limitExceeded,
                "\(name) unpacks to more than the limit of \(limits.maximumUnpackedBytes) bytes (\(limits.settingsName).maximumUnpackedBytes), at \(label)")
        }
        var crc: UInt32 = 0
        var produced: UInt64 = 0
        let corrupt = { [name] (problem: String) in ArchiveError(.invalidArchive, "\(name): \(label) is corrupt: \(problem)") }

        if entry.compressedSize == 0, entry.uncompressedSize == 0 {
            // An empty file; some writers mark it deflated without writing the two-byte empty stream.
        } else {
            switch entry.method {
            case .stored:
                if storedBuffer.isEmpty { storedBuffer = [UInt8](repeating: 0, count: BoundedInflater.chunkSize) }
                var remaining = entry.compressedSize
                while remaining > 0 {
                    try deadline.check(name)
                    let count = Int(min(UInt64(storedBuffer.count), remaining))
                    guard UInt64(count) <= cap - produced else { throw overLimit }
                    try storedBuffer.withUnsafeMutableBytes { buffer in
                        let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
                        try read(into: chunk, at: entry.dataOffset + (entry.compressedSize - remaining))
                        crc = zipCRC32(crc, UnsafeRawBufferPointer(chunk))
                        try consume(UnsafeRawBufferPointer(chunk))
                    }
                    produced += UInt64(count)
                    remaining -= UInt64(count)
                }
            case .deflated:
                let inflater = try self.inflater ?? BoundedInflater()
                self.inflater = inflater
                var position = entry.dataOffset
                do {
                    produced = try inflater.decompress(
                        compressedSize: entry.compressedSize, maximumOutput: cap,
                        readInput: { buffer in
                            try read(into: buffer, at: position)
                            position += UInt64(buffer.count)
                        },
                        betweenChunks: { try deadline.check(name) },
                        consume: { chunk in
                            crc = zipCRC32(crc, chunk)
                            try consume(chunk)
                        })
                } catch let failure as BoundedInflater.Failure {
                    switch failure {
                    case .outputLimit: throw overLimit
                    case .truncated: throw corrupt("its compressed data ends before its deflate stream does")
                    case .trailingData: throw corrupt("its deflate stream ends before its \(entry.compressedSize) bytes of compressed data do")
                    case .corrupt(let message): throw corrupt(message)
                    case .failed(let message): throw corrupt(message)
                    }
                }
            }
        }
        guard produced == entry.uncompressedSize else {
            throw corrupt("it unpacks to \(produced) bytes, its header declares \(entry.uncompressedSize)")
        }
        guard crc == entry.crc32 else {
            throw corrupt("its CRC-32 is \(hex(crc)), its header declares \(hex(entry.crc32))")
        }
        return produced
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        do {
            try source.read(into: buffer, at: offset)
        } catch let error as ZipFormatError {
            throw ArchiveError(.invalidArchive, "\(name) is not a readable zip archive: \(error.message)")
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
