import Foundation
internal import TensorIOSupport

/// A bundle's model file, opened safely and mapped read-only into memory.
///
/// Opening checks, in order, that the file resolves (after symbolic links) to a path inside the
/// bundle folder, that it is a regular file (a FIFO would block a reader forever, a device could be
/// endless), and that it is no larger than ``ModelLimits/maximumModelFileBytes``. The file is opened
/// non-blocking and without following a final symbolic link, so a FIFO is detected rather than waited
/// on and a link swapped in after the path check is refused.
///
/// The mapping is private and read-only, and lives as long as this object: LiteRT's
/// `CreateModelFromBuffer` does not copy the bytes, so whoever hands them to LiteRT keeps this alive
/// until after `DestroyModel`. A mapping reflects later writes to the file (and truncation makes reads
/// fault), so bundles must not be modified while loaded; the model store replaces bundles atomically.
final class MappedModelFile {
    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    /// The name `model.json` gives the file, for messages.
    let fileName: String
    /// Which version of which file was mapped, without reading it (what a weight cache is keyed on).
    let identity: FileIdentity

    /// Opens, checks and maps `fileName` inside `bundleDirectory`.
    ///
    /// - Parameters:
    ///   - bundleDirectory: The bundle folder the file must stay inside.
    ///   - fileName: The path relative to the bundle folder (`model.file` in `model.json`).
    ///   - limits: ``ModelLimits/maximumModelFileBytes`` bounds the file's size.
    /// - Throws: ``TensorIOError`` with location `model.file`: ``TensorIOError/Code/invalidModelFile``
    ///   when the file is outside the bundle, not a regular file or empty;
    ///   ``TensorIOError/Code/limitExceeded`` when it is too large; ``TensorIOError/Code/io`` when it
    ///   cannot be opened or mapped.
    init(bundleDirectory: URL, fileName: String, limits: ModelLimits) throws {
        self.fileName = fileName
        let bundlePath = try Self.resolve(bundleDirectory.path, fileName: fileName, what: "the bundle folder")
        let filePath = try Self.resolve(bundleDirectory.appendingPathComponent(fileName).path, fileName: fileName, what: fileName)
        guard filePath.hasPrefix(bundlePath.hasSuffix("/") ? bundlePath : bundlePath + "/") else {
            throw TensorIOError(.invalidModelFile, "\(fileName) leads outside the bundle folder (to \(filePath)); the model file must be inside the bundle", location: "model.file")
        }

        let descriptor = open(filePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            throw TensorIOError(.io, "cannot open \(fileName): \(Self.systemError())", location: "model.file")
        }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw TensorIOError(.io, "cannot read the attributes of \(fileName): \(Self.systemError())", location: "model.file")
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw TensorIOError(.invalidModelFile, "\(fileName) is \(Self.describe(kind)), not a regular file", location: "model.file")
        }
        let size = Int(status.st_size)
        guard size <= limits.maximumModelFileBytes else {
            throw TensorIOError(.limitExceeded, "\(fileName) is \(size) bytes, more than maximumModelFileBytes (\(limits.maximumModelFileBytes))", location: "model.file")
        }
        guard size > 0 else {
            throw TensorIOError(.invalidModelFile, "\(fileName) is empty", location: "model.file")
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
        else {
            throw TensorIOError(.io, "cannot map \(fileName) into memory: \(Self.systemError())", location: "model.file")
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
        identity = FileIdentity(status)
    }

    deinit {
        if let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }

    /// The canonical absolute path (symbolic links, `.` and `..` resolved).
    private static func resolve(_ path: String, fileName: String, what: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw TensorIOError(.io, "cannot find \(what): \(systemError())", location: "model.file")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }

    private static func systemError() -> String {
        SystemErrorText.reason(errno: errno)
    }
}

/// What the file system says about one version of a file: the device and inode name the file, and the
/// change time (`ctime`) moves whenever its content or attributes change and cannot be set back by a
/// program, so a file replaced or rewritten gets another identity.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: (seconds: Int64, nanoseconds: Int64)
    let changed: (seconds: Int64, nanoseconds: Int64)

    /// The identity of the file at `path` now; `nil` when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modified = (Int64(status.st_mtimespec.tv_sec), Int64(status.st_mtimespec.tv_nsec))
        changed = (Int64(status.st_ctimespec.tv_sec), Int64(status.st_ctimespec.tv_nsec))
        #else
        modified = (Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec))
        changed = (Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec))
        #endif
    }

    /// The fields as integers, in a fixed order.
    var fields: [Int64] {
        [Int64(bitPattern: device), Int64(bitPattern: inode), size, modified.seconds, modified.nanoseconds,
         changed.seconds, changed.nanoseconds]
    }

    static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool { lhs.fields == rhs.fields }
    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}
