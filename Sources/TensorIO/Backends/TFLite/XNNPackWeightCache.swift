import Foundation
import Logging
internal import TensorIOSupport

/// LiteRT's CPU weight cache for one model: the weights XNNPACK repacks for its kernels on every load,
/// kept in a file of ``ModelConfiguration/weightCacheDirectory`` so that later processes map them
/// instead (EfficientNet-Lite0 float32: compiling goes from about 19 ms to about 8 ms).
///
/// - **Keyed per model and runtime.** The file name is a hash of the model file's identity (device,
///   inode, size, modification and change times — the change time moves on every write and cannot be
///   set back), 64 KiB sampled from its bytes, and the LiteRT library's identity. A changed model or
///   another LiteRT gets another file; XNNPACK aborts the process on a cache that lacks a weight it
///   needs, so a cache is never shared between two models.
/// - **Safe for concurrent processes.** A new cache is written under a name of its own
///   (`KEY.PID.RANDOM.partial`) and renamed into place once complete, so a reader never sees half a
///   file; two processes building at once each rename a complete file.
/// - **Checked before use.** ``XNNPackCacheFileCheck`` checks the whole file first; a file that fails is
///   deleted and built again. The folder must belong to the user and not be writable by others,
///   since LiteRT maps what it finds there.
/// - **Bounded.** At most ``maximumFiles`` caches stay in the folder (the oldest go first), and
///   `.partial` files left by processes that died are removed after an hour.
///
/// Anything that stops the cache from being used is logged at `warning` and the model loads without it.
struct XNNPackWeightCache {
    /// The path LiteRT is given.
    let path: String
    /// Where a new cache goes once LiteRT has written it; `nil` when an existing one is used.
    private let finalPath: String?
    private let logger: Logger

    static let fileExtension = "xnnpack"
    /// Caches kept in one folder.
    static let maximumFiles = 32
    /// How old a `.partial` file must be to count as left behind.
    static let stalePartialSeconds: TimeInterval = 3600
    /// Bytes of the model hashed into the key, in blocks spread over the file.
    static let sampleBlockCount = 16
    static let sampleBlockBytes = 4096

    /// The line of LiteRT's XNNPACK options that points it at the cache.
    var optionLine: String { "weight_cache_file_path = \"\(path)\"\n" }

    /// Finds or prepares the cache of `model` in `directory`.
    ///
    /// - Returns: `nil` when the cache cannot be used (the reason is logged).
    static func prepare(
        directory: URL, model: MappedModelFile, runtimeLibraryPath: String, logger: Logger
    ) -> XNNPackWeightCache? {
        let folder = directory.standardizedFileURL.path
        if let problem = usableFolderProblem(folder) {
            logger.warning("not using the weight cache folder \(folder): \(problem)")
            return nil
        }
        // LiteRT reads the path from a TOML string: keep to paths that need no escaping.
        guard !folder.contains(where: { $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true }) else {
            logger.warning("not using the weight cache folder \(folder): its path has quotes, backslashes or control characters")
            return nil
        }
        let key = cacheKey(model: model, runtimeLibraryPath: runtimeLibraryPath)
        let finalPath = folder + "/" + key + "." + fileExtension
        if let problem = existingFileProblem(finalPath) {
            if problem != missing {
                logger.warning("the weight cache \(finalPath) is unusable (\(problem)); building it again")
                unlink(finalPath)
            }
        } else {
            logger.debug("using the weight cache \(finalPath) for \(model.fileName)")
            return XNNPackWeightCache(path: finalPath, finalPath: nil, logger: logger)
        }
        removeLeftovers(in: folder)
        let temporary = folder + "/" + key + ".\(getpid()).\(UInt64.random(in: 0...UInt64.max)).partial"
        logger.debug("building the weight cache \(finalPath) for \(model.fileName)")
        return XNNPackWeightCache(path: temporary, finalPath: finalPath, logger: logger)
    }

    /// Whether LiteRT writes a new cache (rather than reading one).
    var isBuilding: Bool { finalPath != nil }

    /// Puts a newly written cache in place: called once the model has run, when XNNPACK has finished
    /// writing it.
    func publish() {
        guard let finalPath else { return }
        if let problem = Self.existingFileProblem(path) {
            // No XNNPACK kernel took weights (nothing written), or the write failed.
            if problem != Self.missing { logger.warning("not keeping the weight cache \(finalPath): \(problem)") }
            unlink(path)
            return
        }
        guard rename(path, finalPath) == 0 else {
            logger.warning("cannot put the weight cache in place at \(finalPath): \(SystemErrorText.reason(errno: errno))")
            unlink(path)
            return
        }
        logger.debug("wrote the weight cache \(finalPath)")
        Self.removeOldest(in: (finalPath as NSString).deletingLastPathComponent)
    }

    /// Removes a cache being written that will not be finished (compiling failed, or the model never ran).
    func abandon() {
        if finalPath != nil { unlink(path) }
    }

    // MARK: - Key

    private static func cacheKey(model: MappedModelFile, runtimeLibraryPath: String) -> String {
        var hash = StableHash()
        hash.combine("TensorIO XNNPACK weight cache 1")
        for field in model.identity.fields { hash.combine(field) }
        var status = stat()
        if stat(runtimeLibraryPath, &status) == 0 {
            for field in FileIdentity(status).fields { hash.combine(field) }
        }
        hash.combine(runtimeLibraryPath)
        let bytes = model.bytes
        let block = min(sampleBlockBytes, bytes.count)
        let stride = sampleBlockCount > 1 ? (bytes.count - block) / (sampleBlockCount - 1) : 0
        for index in 0..<sampleBlockCount {
            let start = index * stride
            hash.combine(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + block)]))
        }
        return hash.hexDigest
    }

    // MARK: - Files

    private static let missing = "missing"

    /// Why the folder cannot hold caches (made if missing, owner-only), or `nil`.
    private static func usableFolderProblem(_ folder: String) -> String? {
        var status = stat()
        if lstat(folder, &status) != 0 {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
                )
            } catch {
                return "cannot create it: \(error.localizedDescription)"
            }
            guard lstat(folder, &status) == 0 else { return "cannot read its attributes" }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "it is not a folder" }
        guard status.st_uid == geteuid() else { return "it belongs to another user" }
        guard status.st_mode & 0o022 == 0 else { return "others may write to it (chmod go-w)" }
        return nil
    }

    /// Why the cache file at `path` cannot be used, ``missing`` when there is none, or `nil`.
    private static func existingFileProblem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? missing : SystemErrorText.reason(errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return SystemErrorText.reason(errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        guard status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else { return "another user may have written it" }
        let size = Int(status.st_size)
        guard size > 0 else { return "empty" }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return "cannot map it: \(SystemErrorText.reason(errno: errno))" }
        defer { munmap(base, size) }
        return XNNPackCacheFileCheck.problem(in: UnsafeRawBufferPointer(start: base, count: size))
    }

    /// Removes `.partial` files older than ``stalePartialSeconds``: their writers died.
    private static func removeLeftovers(in folder: String) {
        let now = Date()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".partial") {
            let path = folder + "/" + name
            if let modified = modificationDate(path), now.timeIntervalSince(modified) > stalePartialSeconds {
                unlink(path)
            }
        }
    }

    /// Keeps the ``maximumFiles`` most recently written caches.
    private static func removeOldest(in folder: String) {
        let caches = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix("." + fileExtension) }
            .map { folder + "/" + $0 }
        guard caches.count > maximumFiles else { return }
        let byAge = caches.map { ($0, modificationDate($0) ?? .distantPast) }.sorted { $0.1 < $1.1 }
        for (path, _) in byAge.prefix(caches.count - maximumFiles) { unlink(path) }
    }

    private static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}

/// FNV-1a, 64 bits: a hash that is the same in every process (Swift's `Hasher` is seeded per process),
/// for naming cache files. Not cryptographic: the key only has to tell versions of a file apart.
struct StableHash {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
    }

    mutating func combine(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { combine($0) }
    }

    mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
        combine(Int64(0))  // a separator, so "ab" + "c" and "a" + "bc" differ
    }

    var hexDigest: String {
        let hex = String(state, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
