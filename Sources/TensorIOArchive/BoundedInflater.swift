internal import CSystemZlib
import TensorIOSupport

/// Raw deflate (zip's method 8) over zlib, bounded on every side: the compressed input has an exact length,
/// the output a maximum checked before each chunk is handed out, and every turn of the loop either
/// consumes input or produces output, or stops with an error, so a corrupt or hostile stream always ends.
///
/// One inflater unpacks many entries in turn (it is reset for each); it is not shared between threads.
final class BoundedInflater {
    /// Why a stream was refused. ``ZipReader`` words it with the entry's name.
    enum Failure: Error, Equatable {
        /// The compressed data ran out before the deflate stream's end.
        case truncated
        /// The deflate stream ended before its compressed data did.
        case trailingData
        /// The stream would produce more than the allowed output.
        case outputLimit
        /// zlib found the stream invalid (its own message).
        case corrupt(String)
        /// zlib made no progress with input and room to spare, or failed for another reason.
        case failed(String)
    }

    /// The chunk size for input and output: large enough that the per-chunk checks cost nothing, small
    /// enough that the overshoot past a limit is never written (checks come before the write).
    static let chunkSize = 64 * 1024

    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<Bytef>
    private let output: UnsafeMutablePointer<Bytef>

    /// Creates an inflater for raw deflate (no zlib or gzip wrapper).
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveErrorKind/io``) when zlib cannot be initialized.
    init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits: raw deflate, as zip stores it; 15 accepts every window size.
        let status = inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ArchiveError(.io, "zlib cannot start inflating (status \(status))")
        }
        input = .allocate(capacity: Self.chunkSize)
        output = .allocate(capacity: Self.chunkSize)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
        output.deallocate()
    }

    /// Inflates one deflate stream of exactly `compressedSize` bytes.
    ///
    /// - Parameters:
    ///   - compressedSize: The stream's length; it must end exactly there.
    ///   - maximumOutput: The most bytes it may produce; the chunk that would pass it is never handed out.
    ///   - readInput: Fills its buffer with the next compressed bytes (the buffer's size is what remains,
    ///     up to ``chunkSize``).
    ///   - betweenChunks: Called before every turn of the loop (the deadline check).
    ///   - consume: Receives each chunk of output, in order.
    /// - Returns: The number of bytes produced.
    /// - Throws: ``Failure``, or what the closures throw.
    func decompress(
        compressedSize: UInt64, maximumOutput: UInt64,
        readInput: (UnsafeMutableRawBufferPointer) throws -> Void,
        betweenChunks: () throws -> Void,
        consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        guard inflateReset(stream) == Z_OK else { throw Failure.failed("zlib cannot reset") }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        var remaining = compressedSize
        var produced: UInt64 = 0
        while true {
            try betweenChunks()
            if stream.pointee.avail_in == 0, remaining > 0 {
                let count = Int(min(UInt64(Self.chunkSize), remaining))
                try readInput(UnsafeMutableRawBufferPointer(start: input, count: count))
                remaining -= UInt64(count)
                stream.pointee.next_in = input
                stream.pointee.avail_in = UInt32(count)
            }
            let availableBefore = stream.pointee.avail_in
            stream.pointee.next_out = output
            stream.pointee.avail_out = UInt32(Self.chunkSize)
            let status = inflate(stream, Z_NO_FLUSH)
            let consumed = availableBefore - stream.pointee.avail_in
            let made = Self.chunkSize - Int(stream.pointee.avail_out)
            if made > 0 {
                // `produced <= maximumOutput` holds throughout, so the subtraction cannot wrap.
                guard UInt64(made) <= maximumOutput - produced else { throw Failure.outputLimit }
                produced += UInt64(made)
                try consume(UnsafeRawBufferPointer(start: output, count: made))
            }
            switch status {
            case Z_STREAM_END:
                if stream.pointee.avail_in > 0 || remaining > 0 { throw Failure.trailingData }
                return produced
            case Z_OK, Z_BUF_ERROR:
                // zlib answers Z_BUF_ERROR when it could not move; with no input left that means the
                // stream was cut short. Any turn without progress ends the loop.
                if consumed == 0, made == 0 {
                    if stream.pointee.avail_in == 0, remaining == 0 { throw Failure.truncated }
                    throw Failure.failed("zlib made no progress (status \(status))")
                }
            case Z_DATA_ERROR:
                throw Failure.corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "invalid deflate data")
            case Z_NEED_DICT:
                throw Failure.corrupt("the stream asks for a preset dictionary")
            case Z_MEM_ERROR:
                throw Failure.failed("zlib ran out of memory")
            default:
                throw Failure.failed("zlib failed (status \(status))")
            }
        }
    }
}

/// The CRC-32 (as zip records it) of `bytes`, continuing from `crc`.
func zipCRC32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    CByteBuffer.with(bytes, as: Bytef.self) { base, total in
        guard let base, total > 0 else { return crc }
        var value = uLong(crc)
        var offset = 0
        // zlib takes a 32-bit length: feed buffers larger than that in pieces.
        while offset < total {
            let count = min(total - offset, Int(UInt32.max))
            value = CSystemZlib.crc32(value, base + offset, uInt(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: value)
    }
}
