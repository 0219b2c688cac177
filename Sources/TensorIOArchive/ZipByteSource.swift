#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TensorIOSupport

/// Where a ``ZipReader`` reads an archive's bytes from: positioned reads of an exact length, so the reader
/// never loads a whole archive and never depends on a shared file position.
protocol ZipByteSource: AnyObject {
    /// The archive's length in bytes.
    var size: UInt64 { get }

    /// Fills `buffer` with the bytes at `offset`.
    ///
    /// - Throws: ``ArchiveError`` when fewer than `buffer.count` bytes exist there or the read fails.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws
}

extension ZipByteSource {
    /// The `count` bytes at `offset`, for small records (headers, names).
    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        return bytes
    }
}

/// An archive file read with `pread(2)`; the descriptor closes with the object.
final class ZipFileSource: ZipByteSource {
    let size: UInt64
    private let descriptor: Int32
    private let path: String

    /// Opens the file at `url` for reading.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveErrorKind/io``) when it cannot be opened or is not a
    ///   regular file.
    init(url: URL) throws {
        path = url.path
        // O_NONBLOCK: opening a FIFO put where the archive should be returns at once (and is then refused
        // as not a regular file) instead of waiting for a writer; regular files ignore the flag.
        descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError(.io, "cannot open \(path): \(SystemErrorText.reason(errno: errno))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 0 else {
            close(descriptor)
            throw ArchiveError(.io, "\(path) is not a regular file")
        }
        size = UInt64(status.st_size)
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(buffer.count))
        guard !overflow, end <= size, offset <= UInt64(Int64.max) else {
            throw ZipFormatError("a record reaches past the end of the file")
        }
        var done = 0
        while done < buffer.count {
            let result = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result == 0 {
                // The file shrank after we measured it: the archive changed under us.
                throw ZipFormatError("the file ended early (it changed while being read)")
            } else if errno != EINTR {
                throw ArchiveError(.io, "cannot read \(path): \(SystemErrorText.reason(errno: errno))")
            }
        }
    }
}

/// An archive held in memory (the fuzzing entry point, small archives).
final class ZipMemorySource: ZipByteSource {
    private let storage: [UInt8]

    var size: UInt64 { UInt64(storage.count) }

    init(_ bytes: [UInt8]) { storage = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        guard buffer.count > 0 else { return }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(buffer.count))
        guard !overflow, end <= size else {
            throw ZipFormatError("a record reaches past the end of the file")
        }
        storage.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[Int(offset)..<Int(end)]))
        }
    }
}

/// Bytes the caller owns and keeps alive while the reader is used (a mapped model file), read in place.
final class ZipBorrowedSource: ZipByteSource {
    private let storage: UnsafeRawBufferPointer

    var size: UInt64 { UInt64(storage.count) }

    init(_ bytes: UnsafeRawBufferPointer) { storage = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        guard buffer.count > 0 else { return }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(buffer.count))
        guard !overflow, end <= size else {
            throw ZipFormatError("a record reaches past the end of the file")
        }
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[Int(offset)..<Int(end)]))
    }
}

/// The bytes of another source from `start` on: a zip appended to other data, whose offsets count from
/// its own start.
final class ZipSuffixSource: ZipByteSource {
    private let base: any ZipByteSource
    private let start: UInt64

    let size: UInt64

    /// `start` must not exceed `base.size`.
    init(_ base: any ZipByteSource, start: UInt64) {
        self.base = base
        self.start = min(start, base.size)
        size = base.size - self.start
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        guard buffer.count > 0 else { return }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(buffer.count))
        guard !overflow, end <= size else {
            throw ZipFormatError("a record reaches past the end of the file")
        }
        try base.read(into: buffer, at: start + offset)
    }
}

/// A structural problem found while reading an archive; ``ZipReader`` turns it into an
/// ``ArchiveError`` (``ArchiveErrorKind/invalidArchive``) that names the archive.
struct ZipFormatError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
