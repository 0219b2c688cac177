import CSndFile
import Foundation

/// A file held in memory, open in libsndfile through its virtual I/O: libsndfile reads exactly these
/// bytes, as ``AudioDecoder`` checked them (no second read of the file).
///
/// Unsafe because libsndfile's virtual I/O calls C function pointers, which capture nothing, with a
/// `void *` of ours: the bytes and their read position are a class whose address libsndfile keeps without
/// a reference and passes back to each function. The contract, kept by this type alone: the bytes live as
/// long as the handle (both are this object's, the handle closed in `deinit`, before the bytes are
/// released); the handle is used by one thread at a time (an object is made and used by one decode).
final class InMemorySoundFile {
    private let handle: OpaquePointer
    private let source: Source
    /// The channels per frame, from the file.
    let channels: Int

    /// Opens `data` for reading and fills `info` with what libsndfile found.
    ///
    /// - Throws: libsndfile's reason, as text, when it cannot open the file.
    init(_ data: Data, info: inout SF_INFO) throws(OpenFailure) {
        let source = Source(data: data)
        var io = SF_VIRTUAL_IO(
            get_filelen: { source in Source.from(source).length },
            seek: { offset, whence, source in Source.from(source).seek(offset, whence: whence) },
            read: { buffer, count, source in Source.from(source).read(into: buffer, count: count) },
            write: { _, _, _ in 0 },
            tell: { source in Source.from(source).position }
        )
        // libsndfile copies `io`; `source` is kept by this object for as long as `handle`. A failed open
        // leaves its reason in one process-wide variable that every open, on any thread, rewrites: the open
        // and the reading of that reason happen under one lock, or a decode on another thread turns
        // "malformed" into "No Error".
        let opened: Result<OpaquePointer, OpenFailure> = Self.openLock.withLock {
            if let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(source).toOpaque()) {
                return .success(handle)
            }
            return .failure(OpenFailure(reason: String(cString: sf_strerror(nil))))
        }
        self.handle = try opened.get()
        self.source = source
        channels = Int(info.channels)
    }

    deinit { sf_close(handle) }

    /// Decodes frames into `buffer`, as many as it holds (`buffer.count / channels`), and returns how many
    /// it decoded: 0 at the end of the stream or on an error (``error``).
    func readFrames(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        precondition(channels > 0 && buffer.count % channels == 0, "\(buffer.count) samples in frames of \(channels)")
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return Int(sf_readf_float(handle, base, sf_count_t(buffer.count / channels)))
    }

    /// libsndfile's error number for this file, 0 for none.
    var error: Int32 { sf_error(handle) }

    /// Held while a file is opened and, when it fails, while libsndfile's process-wide reason is read.
    private static let openLock = NSLock()

    /// Why libsndfile could not open a file, in its words.
    struct OpenFailure: Error {
        let reason: String
    }
}

extension InMemorySoundFile {
    /// The bytes libsndfile reads, with its read position: the `user_data` of its virtual I/O.
    private final class Source {
        let data: Data
        var position: sf_count_t = 0

        init(data: Data) { self.data = data }

        /// The source behind the `user_data` libsndfile passes back: what ``InMemorySoundFile`` gave
        /// `sf_open_virtual`, kept alive by it.
        static func from(_ pointer: UnsafeMutableRawPointer?) -> Source {
            Unmanaged<Source>.fromOpaque(pointer!).takeUnretainedValue()
        }

        var length: sf_count_t { sf_count_t(data.count) }

        func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
            let base: sf_count_t = switch whence {
            case SEEK_CUR: position
            case SEEK_END: length
            default: 0
            }
            let (target, overflow) = base.addingReportingOverflow(offset)
            guard !overflow, (0...length).contains(target) else { return -1 }
            position = target
            return position
        }

        func read(into buffer: UnsafeMutableRawPointer?, count: sf_count_t) -> sf_count_t {
            guard let buffer, count > 0, position < length else { return 0 }
            let available = min(count, length - position)
            data.withUnsafeBytes { bytes in
                buffer.copyMemory(from: bytes.baseAddress! + Int(position), byteCount: Int(available))
            }
            position += available
            return available
        }
    }
}
