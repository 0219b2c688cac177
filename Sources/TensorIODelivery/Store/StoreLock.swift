#if Delivery  // built with the Delivery trait only (Package.swift)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TensorIO
import TensorIOSupport

/// An exclusive advisory lock (`flock`) on a file, so that two processes — or two stores in one process —
/// never change the same store at once.
struct StoreLock {
    let url: URL

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TensorIOError(.io, "cannot open the lock file \(url.path): \(SystemErrorText.reason(errno: errno))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw TensorIOError(.io, "cannot lock \(url.path): \(SystemErrorText.reason(errno: errno))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

/// Durable file operations: data reaches the disk before a rename makes it visible.
enum DurableFile {
    /// Writes `data` to `url` through a temporary file in the same folder, synced, then renamed over.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            try sync(temporary)
            try rename(temporary, to: url)
            syncFolder(url.deletingLastPathComponent())
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// `fsync` of a file.
    static func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TensorIOError(.io, "cannot open \(url.path): \(SystemErrorText.reason(errno: errno))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw TensorIOError(.io, "cannot sync \(url.path): \(SystemErrorText.reason(errno: errno))")
        }
    }

    /// `fsync` of a folder, so that a rename in it is durable (best effort: some systems refuse).
    static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// `rename(2)`: atomic on one file system; replaces a file at `destination`, or an empty folder.
    static func rename(_ source: URL, to destination: URL) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(source.path, destination.path)
        #else
        let result = Darwin.rename(source.path, destination.path)
        #endif
        guard result == 0 else {
            throw TensorIOError(.io, "cannot rename \(source.path) to \(destination.path): \(SystemErrorText.reason(errno: errno))")
        }
    }

    /// Moves the file `source` to `destination` only if nothing is there (`link` then `unlink`): atomic, and
    /// never replaces. Returns `false` when `destination` exists.
    static func moveIfAbsent(_ source: URL, to destination: URL) throws -> Bool {
        if link(source.path, destination.path) != 0 {
            if errno == EEXIST { return false }
            throw TensorIOError(.io, "cannot link \(source.path) to \(destination.path): \(SystemErrorText.reason(errno: errno))")
        }
        unlink(source.path)
        return true
    }
}
#endif
