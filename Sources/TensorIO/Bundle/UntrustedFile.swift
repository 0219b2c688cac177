public import Foundation
internal import TensorIOSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files that came from elsewhere — `model.json`, labels, images — without trusting what they are.
///
/// `Data(contentsOf:)` blocks forever on a FIFO, never ends on `/dev/zero`, and reads a file of any size
/// into memory. Here a file is opened without blocking, must be a regular file, and is read only up to a
/// limit checked against its size before anything is allocated.
@_spi(Internal) public enum UntrustedFile {
    /// What a path names, as far as these checks are concerned.
    @_spi(Internal) public enum Kind: Equatable, Sendable {
        case regularFile(size: Int)
        case directory
        /// A FIFO, device, socket or anything else: never read.
        case other(String)
        case missing

        /// A FIFO (a named pipe, or `/dev/fd/N` from a shell's process substitution).
        @_spi(Internal) public static let fifo = Kind.other("a FIFO")
    }

    /// What `url` names, following symbolic links; never blocks.
    @_spi(Internal) public static func kind(of url: URL) -> Kind {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return .missing }
        return kind(info)
    }

    /// Reads the whole regular file at `url`.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - limit: The most bytes it may hold.
    ///   - name: How messages call the file (such as `model.json` or `assets/labels.txt`).
    ///   - limitName: The ``ModelLimits`` property that sets `limit`, for the message.
    /// - Returns: The file's bytes.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/io`` when it is missing or unreadable, or not a
    ///   regular file; ``TensorIOError/Code/limitExceeded`` when it is larger than `limit`.
    @_spi(Internal) public static func read(_ url: URL, limit: Int, name: String, limitName: String) throws -> Data {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            let message = code == ENOENT ? "\(name) does not exist"
                : "\(name) cannot be opened: \(SystemErrorText.reason(errno: code))"
            throw TensorIOError(.io, message, location: name)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw TensorIOError(.io, "\(name) cannot be read: \(SystemErrorText.reason(errno: errno))", location: name)
        }
        guard case .regularFile(let size) = kind(info) else {
            throw TensorIOError(.io, "\(name) is \(describe(kind(info))), not a regular file", location: name)
        }
        guard size <= limit else {
            throw TensorIOError(
                .limitExceeded, "\(name) has \(size) bytes, more than the limit of \(limit) (ModelLimits.\(limitName))",
                location: name
            )
        }
        // Read what fstat announced; a file that grows meanwhile is cut there, one that shrinks ends early.
        var bytes = Data(count: size)
        var filled = 0
        try bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < size {
                let count = pread(descriptor, base + filled, size - filled, off_t(filled))
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else {
                    throw TensorIOError(.io, "\(name) cannot be read: \(SystemErrorText.reason(errno: errno))", location: name)
                }
                if count == 0 { break }
                filled += count
            }
        }
        return filled == size ? bytes : bytes.prefix(filled)
    }

    /// A phrase for messages: "a FIFO", "a directory".
    @_spi(Internal) public static func describe(_ kind: Kind) -> String {
        switch kind {
        case .regularFile: return "a regular file"
        case .directory: return "a directory"
        case .other(let what): return what
        case .missing: return "missing"
        }
    }

    private static func kind(_ info: stat) -> Kind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile(size: Int(info.st_size))
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFCHR: return .other("a character device")
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a file")
        }
    }
}
