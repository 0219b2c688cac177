#if Delivery  // built with the Delivery trait only (Package.swift)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TensorIO
import TensorIOSupport

/// An exclusive `flock` on `.partial/<model>/<version>.lock`: whoever holds it owns that version's partial
/// file — to download into it, resume it, or remove it as stale. Two processes, or two tasks of one process
/// (`flock` locks belong to open file descriptions, so two opens of one file exclude each other), never
/// write the same partial file at once.
///
/// The lock file is removed when released, with the usual check that makes this safe: after locking, the
/// holder compares the descriptor's inode with the path's, and starts again if the file it locked was
/// removed or replaced meanwhile.
final class DownloadLock: @unchecked Sendable {
    let url: URL
    private let descriptor: Int32
    private let lock = NSLock()
    private var released = false

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock if nobody holds it.
    ///
    /// - Returns: The lock, or `nil` when another downloader holds it.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the lock file cannot be opened.
    static func acquireIfFree(_ url: URL) throws -> DownloadLock? {
        // Each pass either returns or saw the file replaced by another holder's release: a few passes end it.
        for _ in 0..<1000 {
            let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            if descriptor < 0, errno == ENOENT {
                // A store opening elsewhere removed the emptied folder: make it again.
                try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                continue
            }
            guard descriptor >= 0 else {
                throw TensorIOError(.io, "cannot open the lock file \(url.path): \(SystemErrorText.reason(errno: errno))")
            }
            var result = flock(descriptor, LOCK_EX | LOCK_NB)
            while result != 0, errno == EINTR { result = flock(descriptor, LOCK_EX | LOCK_NB) }
            if result != 0 {
                let reason = errno
                close(descriptor)
                if reason == EWOULDBLOCK { return nil }
                throw TensorIOError(.io, "cannot lock \(url.path): \(SystemErrorText.reason(errno: reason))")
            }
            var held = stat()
            var named = stat()
            if fstat(descriptor, &held) == 0, stat(url.path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return DownloadLock(url: url, descriptor: descriptor)
            }
            close(descriptor)  // the file was removed by the holder we waited for: lock its successor
        }
        throw TensorIOError(.io, "cannot lock \(url.path): it keeps being replaced")
    }

    /// Waits until the lock is free and takes it. Polls rather than blocking a thread, so that waiting
    /// costs no thread of Swift's small cooperative pool, and ends when the task is cancelled.
    ///
    /// - Throws: `CancellationError`, or `TensorIOError` (`TensorIOError.Code.io`).
    static func acquire(_ url: URL) async throws -> DownloadLock {
        while true {
            if let lock = try acquireIfFree(url) { return lock }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// Removes the lock file and releases the lock (once; later calls do nothing).
    func release() {
        let first = lock.withLock {
            defer { released = true }
            return !released
        }
        guard first else { return }
        unlink(url.path)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
#endif
