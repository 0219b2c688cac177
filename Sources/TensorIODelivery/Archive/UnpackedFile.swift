#if Delivery  // built with the Delivery trait only (Package.swift)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TensorIO
import TensorIOSupport

/// A new file an entry is unpacked into, written chunk by chunk as the entry inflates.
///
/// It is created with `O_EXCL | O_NOFOLLOW`: unpacking never replaces or follows anything already there
/// (two entries whose names collide, on a case-insensitive disk for instance, fail instead of overwriting).
final class UnpackedFile {
    private var descriptor: Int32
    private let path: String

    /// Creates the file at `url`, which must not exist.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``).
    init(creating url: URL) throws {
        path = url.path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TensorIOError(.io, "cannot create \(path): \(SystemErrorText.reason(errno: errno))")
        }
    }

    deinit { if descriptor >= 0 { _ = closeDescriptor(descriptor) } }

    /// Appends `bytes`.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let result = writeDescriptor(descriptor, base + done, bytes.count - done)
            if result >= 0 {
                done += result
            } else if errno != EINTR {
                throw TensorIOError(.io, "cannot write \(path): \(SystemErrorText.reason(errno: errno))")
            }
        }
    }

    /// Closes the file, reporting a failure to flush it.
    ///
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``).
    func close() throws {
        let result = closeDescriptor(descriptor)
        descriptor = -1
        guard result == 0 else {
            throw TensorIOError(.io, "cannot write \(path): \(SystemErrorText.reason(errno: errno))")
        }
    }
}

/// `write(2)`, out of reach of the method of the same name.
private func writeDescriptor(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `close(2)`, out of reach of the method of the same name.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
#endif
