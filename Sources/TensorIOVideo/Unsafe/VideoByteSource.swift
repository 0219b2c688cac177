import Foundation
import TensorIO
import TensorIOSupport

#if canImport(Glibc)
import Glibc
/// `read(2)`, which the source's own `read(into:count:)` would hide.
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// The bytes libavformat reads, through the read and seek callbacks of our own `AVIOContext`
/// (``FFmpegInput``): a regular file read piece by piece with `pread`, bytes already in memory, or a stream
/// read as it comes (standard input, a pipe: no size, no seeking). Either way libavformat sees only what
/// these functions give it, so a file and the same bytes in memory take the same path (the fuzz target's).
///
/// Unsafe because the callbacks are C function pointers that capture nothing: they get this object back
/// through the `opaque` pointer FFmpeg keeps without a reference. The contract, kept by ``FFmpegInput``:
/// the source outlives the `AVIOContext` (both are that input's, the context freed first); one thread at a
/// time uses it (an input belongs to one decoder).
final class VideoByteSource {
    private enum Storage {
        case file(descriptor: Int32)
        case memory(Data)
        /// Read with `read(2)`, not closed here (standard input is the process's).
        case stream(descriptor: Int32)
    }

    private let storage: Storage
    /// The file's size, in bytes.
    let size: Int64
    /// Where the next read starts.
    private(set) var position: Int64 = 0
    /// Bytes handed to libavformat so far, and how many it may have: a container whose index points at the
    /// same bytes again and again must not make it read without end.
    private var bytesRead: Int64 = 0
    private let readBudget: Int64
    /// Whether a read was refused for the budget (the decoder reports it as a limit, not as damage).
    private(set) var budgetExhausted = false
    /// The first `errno` a read of the file failed with.
    private(set) var readError: Int32?
    /// Whether a read asked for bytes past the end of the file (a file cut short often shows so).
    private(set) var readPastEnd = false

    /// Whether a blocking read of a stream should give up; asked every 100 ms while it waits for bytes.
    private let interrupted: @Sendable () -> Bool
    /// Whether a read gave up because ``interrupted`` said so.
    private(set) var wasInterrupted = false

    /// Whether the bytes come as a stream, without a size or seeking.
    var isStream: Bool {
        if case .stream = storage { return true }
        return false
    }

    /// A stream read as it comes, from a descriptor the caller keeps open (and closes) — standard input or
    /// a pipe. Its bytes are counted against no size: a live stream has none; the decoder's limits on
    /// frames, their size and their duration bound it.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor, open for reading.
    ///   - interrupted: Asked every 100 ms while a read waits: `true` gives the read up.
    init(streamDescriptor descriptor: Int32, interrupted: @escaping @Sendable () -> Bool) {
        storage = .stream(descriptor: descriptor)
        size = .max
        readBudget = .max
        self.interrupted = interrupted
    }

    /// The bytes in memory.
    init(data: Data) {
        interrupted = { false }
        storage = .memory(data)
        size = Int64(data.count)
        readBudget = Self.budget(for: size)
    }

    /// Opens the regular file at `url` for reading, without blocking (a FIFO is refused, not waited on).
    ///
    /// - Throws: `TensorIOError`: `io` when it is missing, unreadable or not a regular file,
    ///   `limitExceeded` when it is larger than `limit`.
    init(contentsOf url: URL, limit: Int) throws {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw TensorIOError(.io, code == ENOENT ? "the video file does not exist"
                : "the video file cannot be opened: \(SystemErrorText.reason(errno: code))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw TensorIOError(.io, "the video file cannot be read: \(SystemErrorText.reason(errno: code))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "a folder" : info.st_mode & S_IFMT == S_IFIFO ? "a FIFO" : "not a regular file"
            throw TensorIOError(.io, "the video file is \(kind)")
        }
        guard Int64(info.st_size) <= Int64(limit) else {
            close(descriptor)
            throw TensorIOError(.limitExceeded, "the video file has \(info.st_size) bytes, more than the limit of \(limit) (VideoLimits.maximumFileBytes)")
        }
        storage = .file(descriptor: descriptor)
        interrupted = { false }
        size = Int64(info.st_size)
        readBudget = Self.budget(for: size)
    }

    deinit {
        if case .file(let descriptor) = storage { close(descriptor) }
    }

    /// 16 times the file and 1 MiB: far more than any demuxer's probing, index reading and seeking take.
    private static func budget(for size: Int64) -> Int64 {
        let (times, overflow) = size.multipliedReportingOverflow(by: 16)
        return overflow ? .max : times.addingReportingOverflow(1 << 20).overflow ? .max : times + (1 << 20)
    }

    /// Copies up to `count` bytes from ``position`` into `buffer`.
    ///
    /// - Returns: The bytes copied; 0 at the end of the file; -1 when the file cannot be read or the read
    ///   budget is spent; -2 when a stream's read was interrupted.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        if case .stream(let descriptor) = storage { return readStream(descriptor, into: buffer, count: count) }
        guard count > 0 else { return 0 }
        guard position < size else {
            readPastEnd = true
            return 0
        }
        guard bytesRead < readBudget else {
            budgetExhausted = true
            return -1
        }
        let wanted = Int(min(Int64(count), size - position, readBudget - bytesRead))
        var copied = 0
        switch storage {
        case .memory(let data):
            data.withUnsafeBytes { bytes in
                let start = bytes.baseAddress! + Int(position)
                buffer.update(from: start.assumingMemoryBound(to: UInt8.self), count: wanted)
            }
            copied = wanted
        case .stream:
            return -1  // read by readStream
        case .file(let descriptor):
            while copied < wanted {
                let result = pread(descriptor, buffer + copied, wanted - copied, off_t(position) + off_t(copied))
                if result < 0, errno == EINTR { continue }
                guard result >= 0 else {
                    readError = readError ?? errno
                    return copied > 0 ? copied : -1
                }
                if result == 0 { break }  // the file shrank since it was opened
                copied += result
            }
        }
        position += Int64(copied)
        bytesRead += Int64(copied)
        return copied
    }

    /// Up to `count` bytes of a stream, as soon as some are there: waits for them in slices of 100 ms,
    /// asking ``interrupted`` between slices.
    private func readStream(_ descriptor: Int32, into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard count > 0 else { return 0 }
        while true {
            if interrupted() {
                wasInterrupted = true
                return -2
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 100)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else {
                readError = readError ?? errno
                return -1
            }
            if ready == 0 { continue }
            let result = systemRead(descriptor, buffer, count)
            if result < 0, errno == EINTR || errno == EAGAIN { continue }
            guard result >= 0 else {
                readError = readError ?? errno
                return -1
            }
            if result == 0 { readPastEnd = true }
            position += Int64(result)
            return result
        }
    }

    /// Moves ``position``, as `lseek` does (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`).
    ///
    /// - Returns: The new position, or -1 when it would be before the start or past the end (or the bytes
    ///   are a stream).
    func seek(to offset: Int64, whence: Int32) -> Int64 {
        guard !isStream else { return -1 }
        let base: Int64 = switch whence {
        case SEEK_CUR: position
        case SEEK_END: size
        default: 0
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, (0...size).contains(target) else { return -1 }
        position = target
        return target
    }
}
