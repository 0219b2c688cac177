import Foundation
import TensorIO
import ZIPFoundation

/// Zip archives of bundles: made for upload, checked and unpacked safely after download or upload.
///
/// An archive holds exactly one bundle folder at its top level (`name.tiobundle/model.json`, …). Unpacking
/// refuses, before writing anything, every entry that could land outside the destination: absolute paths,
/// `..` components, backslashes, symbolic links, and anything that is neither a file nor a folder; and
/// archives that would unpack to more than ``Limits/maximumUnpackedBytes`` or
/// ``Limits/maximumEntries``.
public enum BundleArchive {
    /// Bounds on what an archive may unpack to (a zip bomb stops here).
    public struct Limits: Sendable, Hashable {
        /// The largest total of the entries' uncompressed sizes.
        public var maximumUnpackedBytes: UInt64
        /// The most entries.
        public var maximumEntries: Int

        /// Creates limits.
        public init(maximumUnpackedBytes: UInt64 = 4 << 30, maximumEntries: Int = 10_000) {
            self.maximumUnpackedBytes = maximumUnpackedBytes
            self.maximumEntries = maximumEntries
        }
    }

    /// Zips the bundle folder at `bundleURL` into a new archive at `archiveURL`, the folder at the top.
    ///
    /// - Parameters:
    ///   - bundleURL: A bundle folder.
    ///   - archiveURL: Where to write the zip; must not exist.
    /// - Throws: ``TensorIOError`` (``TensorIOError/Code/io``) when the archive cannot be written, and
    ///   (``TensorIOError/Code/unsafeArchive``) when the bundle holds a symbolic link.
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
            throw TensorIOError(.io, "cannot zip \(base.path): \(error)")
        }
    }

    /// Checks every entry of the archive at `archiveURL` and returns the name of its one bundle folder,
    /// without writing anything.
    ///
    /// - Parameters:
    ///   - archiveURL: A zip file.
    ///   - limits: Bounds on entries and unpacked size.
    ///   - name: How messages call the archive (default: its file name).
    /// - Returns: The bundle folder's name, such as `number.tiobundle`.
    /// - Throws: ``TensorIOError`` with ``TensorIOError/Code/invalidArchive`` (not a zip, no or several
    ///   top-level folders, too big) or ``TensorIOError/Code/unsafeArchive`` (an entry naming the bad path).
    @discardableResult
    public static func inspect(_ archiveURL: URL, limits: Limits = Limits(), name: String? = nil) throws -> String {
        let archive = try open(archiveURL, name: name)
        return try check(archive, limits: limits)
    }

    /// Unpacks the archive at `archiveURL` into the empty or missing folder `destination`, after checking
    /// every entry, and returns the bundle folder.
    ///
    /// - Parameters:
    ///   - archiveURL: A zip file.
    ///   - destination: A folder to create; it receives the one bundle folder.
    ///   - limits: Bounds on entries and unpacked size.
    ///   - name: How messages call the archive (default: its file name).
    /// - Returns: The unpacked bundle folder, inside `destination`.
    /// - Throws: ``TensorIOError`` with ``TensorIOError/Code/invalidArchive``,
    ///   ``TensorIOError/Code/unsafeArchive`` or ``TensorIOError/Code/io``.
    public static func extract(
        _ archiveURL: URL, into destination: URL, limits: Limits = Limits(), name: String? = nil
    ) throws -> URL {
        let name = name ?? archiveURL.lastPathComponent
        let archive = try open(archiveURL, name: name)
        let bundleName = try check(archive, limits: limits)
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
            for entry in archive {
                let target = destination.appendingPathComponent(normalized(entry.path))
                if entry.type == .directory {
                    try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
                } else {
                    try fileManager.createDirectory(
                        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    _ = try archive.extract(entry, to: target, skipCRC32: false, allowUncontainedSymlinks: false)
                }
            }
        } catch let error as TensorIOError {
            throw error
        } catch {
            throw TensorIOError(.invalidArchive, "cannot unpack \(name): \(error)")
        }
        return destination.appendingPathComponent(bundleName)
    }

    private static func open(_ archiveURL: URL, name: String?) throws -> Archive {
        let name = name ?? archiveURL.lastPathComponent
        guard FileManager.default.fileExists(atPath: archiveURL.path) else {
            throw TensorIOError(.io, "\(archiveURL.path) does not exist")
        }
        do {
            return try Archive(url: archiveURL, accessMode: .read)
        } catch {
            throw TensorIOError(.invalidArchive, "\(name) is not a readable zip archive")
        }
    }

    /// A path without a trailing slash, as written in the archive.
    private static func normalized(_ path: String) -> String {
        path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static func check(_ archive: Archive, limits: Limits) throws -> String {
        var tops = Set<String>()
        var total: UInt64 = 0
        var count = 0
        for entry in archive {
            count += 1
            guard count <= limits.maximumEntries else {
                throw TensorIOError(.invalidArchive, "the archive has more than \(limits.maximumEntries) entries")
            }
            let path = entry.path
            try checkPath(path)
            switch entry.type {
            case .file, .directory: break
            case .symlink:
                throw TensorIOError(.unsafeArchive, "entry \"\(path)\" is a symbolic link; archives must hold plain files")
            }
            let (sum, overflow) = total.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow, sum <= limits.maximumUnpackedBytes else {
                throw TensorIOError(.invalidArchive, "the archive unpacks to more than \(limits.maximumUnpackedBytes) bytes")
            }
            total = sum
            let components = normalized(path).split(separator: "/")
            if let first = components.first { tops.insert(String(first)) }
            if components.count == 1, entry.type == .file {
                throw TensorIOError(.invalidArchive, "entry \"\(path)\" is outside a bundle folder; the archive must hold one .tiobundle folder")
            }
        }
        guard tops.count == 1, let name = tops.first else {
            throw TensorIOError(.invalidArchive, tops.isEmpty
                ? "the archive is empty; it must hold one .tiobundle folder"
                : "the archive holds \(tops.count) top-level items (\(tops.sorted().prefix(5).joined(separator: ", "))); it must hold one .tiobundle folder")
        }
        guard name.hasSuffix(".tiobundle") || name.hasSuffix(".tfbundle") else {
            throw TensorIOError(.invalidArchive, "the archive's top-level folder \"\(name)\" is not a .tiobundle folder")
        }
        return name
    }

    private static func checkPath(_ path: String) throws {
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
