#if Delivery  // built with the Delivery trait only (Package.swift)
public import Foundation
import TensorIO
import TensorIOArchive
import TensorIOSupport
import ZIPFoundation

/// Zip archives of bundles: made for upload, checked and unpacked safely after download or upload.
///
/// An archive holds exactly one bundle folder at its top level (`name.tiobundle/model.json`, …). Archives
/// come from untrusted clients and servers, so they are read by our own bounded reader (over zlib), never
/// trusting a header: every offset and length is checked to lie inside the file, each entry must produce
/// exactly the bytes and CRC-32 its headers declare, and what is written, the number of entries and the
/// time spent are bounded by ``Limits``. Unpacking refuses, before writing anything, every entry that
/// could land outside the destination: absolute paths, `..` components, backslashes, symbolic links, and
/// anything that is neither a file nor a folder. ZIP64, encrypted and multi-disk archives, and compression
/// methods other than stored and deflate, are refused.
public enum BundleArchive {
    /// Zips the bundle folder at `bundleURL` into a new archive at `archiveURL`, the folder at the top.
    ///
    /// - Parameters:
    ///   - bundleURL: A bundle folder.
    ///   - archiveURL: Where to write the zip; must not exist.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the archive cannot be written, and
    ///   (`TensorIOError.Code.unsafeArchive`) when the bundle holds a symbolic link.
    public static func create(fromBundleAt bundleURL: URL, to archiveURL: URL) throws {
        let fileManager = FileManager.default
        let base = bundleURL.standardizedFileURL
        let name = base.lastPathComponent
        do {
            let archive = try Archive(url: archiveURL, accessMode: .create)
            try archive.addEntry(with: name + "/", type: .directory, uncompressedSize: Int64(0)) { (_: Int64, _: Int) in Data() }
            guard let enumerator = fileManager.enumerator(atPath: base.path) else {
                throw TensorIOError(.io, "cannot list \(base.path)")
            }
            var paths: [String] = []
            while let relative = enumerator.nextObject() as? String { paths.append(relative) }
            for relative in paths.sorted() {
                let url = base.appendingPathComponent(relative)
                let attributes = try fileManager.attributesOfItem(atPath: url.path)
                let type = attributes[.type] as? FileAttributeType
                if type == .typeSymbolicLink {
                    throw TensorIOError(.unsafeArchive, "\(name)/\(relative) is a symbolic link; bundles must hold plain files")
                } else if type == .typeDirectory {
                    try archive.addEntry(with: "\(name)/\(relative)/", type: .directory, uncompressedSize: Int64(0)) { (_: Int64, _: Int) in Data() }
                } else {
                    try archive.addEntry(with: "\(name)/\(relative)", fileURL: url, compressionMethod: .deflate)
                }
            }
        } catch let error as TensorIOError {
            try? fileManager.removeItem(at: archiveURL)
            throw error
        } catch {
            try? fileManager.removeItem(at: archiveURL)
            throw TensorIOError(.io, "cannot zip \(base.path): \(SystemErrorText.reason(of: error))")
        }
    }


    /// Checks the headers of every entry of the archive at `archiveURL` and returns the name of its one
    /// bundle folder, without unpacking or writing anything.
    ///
    /// - Parameters:
    ///   - archiveURL: A zip file.
    ///   - limits: Bounds on entries, sizes and time.
    ///   - name: How messages call the archive (default: its file name).
    /// - Returns: The bundle folder's name, such as `number.tiobundle`.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidArchive` (not a readable zip, an
    ///   unsupported feature, no or several top-level folders), `TensorIOError.Code.unsafeArchive` (an
    ///   entry naming the bad path), `TensorIOError.Code.limitExceeded` (the limit named) or
    ///   `TensorIOError.Code.io` (the file cannot be read).
    @discardableResult
    public static func validate(_ archiveURL: URL, limits: Limits = Limits(), name: String? = nil) throws -> String {
        let name = name ?? archiveURL.lastPathComponent
        let reader = try TensorIOError.reporting {
            try ZipReader(url: archiveURL, name: name, limits: limits.readerLimits, deadline: limits.deadline())
        }
        return try validate(reader, limits: limits)
    }

    /// Unpacks the archive at `archiveURL` into the empty or missing folder `destination`, after checking
    /// every entry's headers, and returns the bundle folder.
    ///
    /// Each file is written as it inflates, never held whole in memory, and stops at the first byte past
    /// its declared size or a limit. On any failure everything written is removed (and `destination`
    /// too, when this call created it).
    ///
    /// - Parameters:
    ///   - archiveURL: A zip file.
    ///   - destination: A folder to create, or an empty one; it receives the one bundle folder.
    ///   - limits: Bounds on entries, sizes and time.
    ///   - name: How messages call the archive (default: its file name).
    /// - Returns: The unpacked bundle folder, inside `destination`.
    /// - Throws: `TensorIOError` with `TensorIOError.Code.invalidArchive` (malformed, corrupt or
    ///   truncated data, a size or CRC-32 differing from the headers), `TensorIOError.Code.unsafeArchive`,
    ///   `TensorIOError.Code.limitExceeded` (the entry and limit named) or `TensorIOError.Code.io`.
    public static func extract(
        _ archiveURL: URL, into destination: URL, limits: Limits = Limits(), name: String? = nil
    ) throws -> URL {
        let name = name ?? archiveURL.lastPathComponent
        let deadline = limits.deadline()
        let reader = try TensorIOError.reporting {
            try ZipReader(url: archiveURL, name: name, limits: limits.readerLimits, deadline: deadline)
        }
        let bundleName = try validate(reader, limits: limits)
        let fileManager = FileManager.default
        let created = try prepare(destination)
        do {
            var written: UInt64 = 0
            for entry in reader.entries {
                try deadline.check(name)
                let target = destination.appendingPathComponent(normalized(entry.path))
                switch entry.kind {
                case .directory:
                    try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
                case .file:
                    try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    let file = try UnpackedFile(creating: target)
                    written += try reader.unpack(entry, alreadyWritten: written) { try file.write($0) }
                    try file.close()
                case .symbolicLink, .special:
                    // `check` refused these already; never create anything for them.
                    throw TensorIOError(.unsafeArchive, "entry \"\(entry.path)\" is not a plain file or folder")
                }
            }
        } catch {
            removeUnpacked(destination, created: created)
            if let error = TensorIOError(reporting: error) { throw error }
            throw TensorIOError(.io, "cannot unpack \(name): \(SystemErrorText.reason(of: error))")
        }
        return destination.appendingPathComponent(bundleName)
    }

    /// Creates `destination`, or checks that it is an empty folder; returns whether it was created.
    private static func prepare(_ destination: URL) throws -> Bool {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            let contents = (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? []
            guard isDirectory.boolValue, contents.isEmpty else {
                throw TensorIOError(.io, "cannot unpack into \(destination.path): it is not an empty folder")
            }
            return false
        }
        do {
            try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
        } catch {
            throw TensorIOError(.io, "cannot create \(destination.path): \(SystemErrorText.reason(of: error))")
        }
        return true
    }

    /// Removes what an unpacking wrote: the folder it created, or everything inside the empty folder it
    /// was given.
    private static func removeUnpacked(_ destination: URL, created: Bool) {
        let fileManager = FileManager.default
        if created {
            try? fileManager.removeItem(at: destination)
        } else {
            for item in (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? [] {
                try? fileManager.removeItem(at: destination.appendingPathComponent(item))
            }
        }
    }

    /// A path without a trailing slash, as written in the archive.
    static func normalized(_ path: String) -> String {
        path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Checks every entry's path, kind and declared sizes against the rules and limits, before anything
    /// is unpacked; returns the one bundle folder's name.
    static func validate(_ reader: ZipReader, limits: Limits) throws -> String {
        // Non-nil whenever the bundle rules apply.
        try validate(reader, limits: limits, holdingOneBundle: true)!
    }

    /// ``validate(_:limits:)``, with the rules on one top-level bundle folder only when `holdingOneBundle`
    /// (other zip files, such as NumPy's `.npz`, hold plain files at the top); returns that folder's name.
    static func validate(_ reader: ZipReader, limits: Limits, holdingOneBundle: Bool) throws -> String? {
        let name = reader.name
        guard reader.entries.count <= limits.maximumEntries else {
            throw TensorIOError(
                .limitExceeded,
                "\(name) has \(reader.entries.count) entries, more than the limit of \(limits.maximumEntries) (BundleArchive.Limits.maximumEntries)")
        }
        var tops = Set<String>()
        var total: UInt64 = 0
        var seen = Set<String>()
        var parents = Set<String>()
        var files: [String] = []
        for entry in reader.entries {
            let path = entry.path
            try validatePath(path)
            switch entry.kind {
            case .file, .directory: break
            case .symbolicLink:
                throw TensorIOError(.unsafeArchive, "entry \"\(path)\" is a symbolic link; archives must hold plain files")
            case .special:
                throw TensorIOError(.unsafeArchive, "entry \"\(path)\" is a device, FIFO or socket; archives must hold plain files")
            }
            let key = normalized(path)
            guard seen.insert(key).inserted else {
                throw TensorIOError(.invalidArchive, "\(name) holds entry \"\(key)\" twice")
            }
            if entry.uncompressedSize > limits.maximumEntryBytes {
                throw TensorIOError(
                    .limitExceeded,
                    "entry \"\(path)\" of \(name) unpacks to \(entry.uncompressedSize) bytes, more than the limit of \(limits.maximumEntryBytes) per entry (BundleArchive.Limits.maximumEntryBytes)")
            }
            if limits.exceedsRatio(unpacked: entry.uncompressedSize, packed: entry.compressedSize) {
                throw TensorIOError(
                    .limitExceeded,
                    "entry \"\(path)\" of \(name) unpacks \(entry.compressedSize) bytes to \(entry.uncompressedSize), more than the limit of \(limits.maximumCompressionRatio) times (BundleArchive.Limits.maximumCompressionRatio)")
            }
            let (sum, overflow) = total.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow, sum <= limits.maximumUnpackedBytes else {
                throw TensorIOError(
                    .limitExceeded,
                    "\(name) unpacks to more than the limit of \(limits.maximumUnpackedBytes) bytes (BundleArchive.Limits.maximumUnpackedBytes), at entry \"\(path)\"")
            }
            total = sum
            let components = key.split(separator: "/")
            if let first = components.first { tops.insert(String(first)) }
            if holdingOneBundle, components.count == 1, entry.kind == .file {
                throw TensorIOError(.invalidArchive, "entry \"\(path)\" is outside a bundle folder; the archive must hold one .tiobundle folder")
            }
            for length in components.indices.dropLast() {
                parents.insert(components[...length].joined(separator: "/"))
            }
            if entry.kind == .file { files.append(key) }
        }
        if let clash = files.first(where: { parents.contains($0) }) {
            throw TensorIOError(.invalidArchive, "\(name) holds \"\(clash)\" both as a file and as a folder")
        }
        if limits.exceedsRatio(unpacked: total, packed: reader.size) {
            throw TensorIOError(
                .limitExceeded,
                "\(name) (\(reader.size) bytes) unpacks to \(total) bytes, more than the limit of \(limits.maximumCompressionRatio) times (BundleArchive.Limits.maximumCompressionRatio)")
        }
        guard holdingOneBundle else { return nil }
        guard tops.count == 1, let bundle = tops.first else {
            throw TensorIOError(.invalidArchive, tops.isEmpty
                ? "the archive is empty; it must hold one .tiobundle folder"
                : "the archive holds \(tops.count) top-level items (\(tops.sorted().prefix(5).joined(separator: ", "))); it must hold one .tiobundle folder")
        }
        guard bundle.hasSuffix(".tiobundle") || bundle.hasSuffix(".tfbundle") else {
            throw TensorIOError(.invalidArchive, "the archive's top-level folder \"\(bundle)\" is not a .tiobundle folder")
        }
        return bundle
    }
    private static func validatePath(_ path: String) throws {
        if path.isEmpty { throw TensorIOError(.unsafeArchive, "an entry has an empty path") }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            throw TensorIOError(.unsafeArchive, "entry \"\(path)\" has an absolute path")
        }
        if path.contains("\\") || path.contains("\0") || path.contains(":") {
            throw TensorIOError(.unsafeArchive, "entry \"\(path)\" has a backslash, colon or NUL in its path")
        }
        for component in normalized(path).split(separator: "/", omittingEmptySubsequences: false) {
            if component == ".." || component == "." || component.isEmpty {
                throw TensorIOError(.unsafeArchive, "entry \"\(path)\" escapes the archive's folder (\"\(component)\" in its path)")
            }
        }
    }
}
#endif
