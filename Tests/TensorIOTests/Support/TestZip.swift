internal import CSystemZlib
import Foundation

/// Writes small zip archives byte by byte, for tests that need exactly the headers they name (sizes
/// that lie, names that escape), the way Python's `zipfile` appends them to a model: offsets count
/// from the start of the zip unless `absoluteOffsets` is set.
struct TestZip {
    struct Entry {
        var name: String
        var data: [UInt8]
        var deflate = false
        /// Overrides the declared unpacked size (a lying header).
        var declaredSize: UInt32?
    }

    var entries: [Entry] = []

    /// The archive, its offsets counted from its own start plus `base`.
    func bytes(base: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let packed = entry.deflate ? Self.rawDeflate(entry.data) : entry.data
            let crc = UInt32(truncatingIfNeeded: entry.data.withUnsafeBytes { crc32(0, $0.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt($0.count)) })
            let size = entry.declaredSize ?? UInt32(entry.data.count)
            let method: UInt16 = entry.deflate ? 8 : 0
            let offset = UInt32(base + out.count)
            let name = Array(entry.name.utf8)
            out += Self.u32(0x0403_4B50) + Self.u16(20) + Self.u16(0) + Self.u16(method) + Self.u16(0) + Self.u16(0)
                + Self.u32(crc) + Self.u32(UInt32(packed.count)) + Self.u32(size) + Self.u16(UInt16(name.count)) + Self.u16(0)
            out += name + packed
            central += Self.u32(0x0201_4B50) + Self.u16(20) + Self.u16(20) + Self.u16(0) + Self.u16(method) + Self.u16(0) + Self.u16(0)
                + Self.u32(crc) + Self.u32(UInt32(packed.count)) + Self.u32(size) + Self.u16(UInt16(name.count))
                + Self.u16(0) + Self.u16(0) + Self.u16(0) + Self.u16(0) + Self.u32(0) + Self.u32(offset)
            central += name
        }
        let directoryOffset = UInt32(base + out.count)
        out += central
        out += Self.u32(0x0605_4B50) + Self.u16(0) + Self.u16(0) + Self.u16(UInt16(entries.count)) + Self.u16(UInt16(entries.count))
            + Self.u32(UInt32(central.count)) + Self.u32(directoryOffset) + Self.u16(0)
        return out
    }

    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// Raw deflate (zip's method 8) of `data`.
    static func rawDeflate(_ data: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
        let produced = input.withUnsafeMutableBytes { inBytes in
            output.withUnsafeMutableBytes { outBytes in
                stream.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(inBytes.count)
                stream.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(outBytes.count)
                _ = deflate(&stream, Z_FINISH)
                return outBytes.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
