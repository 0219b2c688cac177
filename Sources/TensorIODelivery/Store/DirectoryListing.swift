#if Delivery  // built with the Delivery trait only (Package.swift)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation

/// Bounded, symlink-blind reads of folders for cleaning up (the server's garbage collection, the store's
/// stale partial downloads): a listing stops after a budget of entries, and every entry is described with
/// `lstat`, so a symbolic link is seen as a link and never followed.
package enum DirectoryListing {
    /// What `lstat` says an entry is.
    package enum Kind: Equatable, Sendable {
        case file
        case folder
        case symbolicLink
        /// A socket, a device, a pipe: nothing the server makes.
        case other
    }

    /// An entry's kind and modification time.
    package struct Entry: Sendable {
        package var kind: Kind
        /// Seconds since 1970.
        package var modified: TimeInterval
    }

    /// The names in `folder` (without `.` and `..`), at most `budget` of them; the budget is decreased by
    /// what was read. `complete` is `false` when the budget ran out first. A missing folder is empty.
    package static func names(in folder: URL, budget: inout Int) -> (names: [String], complete: Bool) {
        guard let directory = opendir(folder.path) else { return ([], true) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // Read as bytes, so the C array need not be viewed as characters; ill-formed UTF-8 is repaired
            // as String(cString:) repairs it.
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            guard budget > 0 else { return (names, false) }
            budget -= 1
            names.append(name)
        }
        return (names, true)
    }

    /// `lstat` of `url`: a symbolic link is described, not followed. `nil` when it does not exist.
    package static func entry(_ url: URL) -> Entry? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        #if canImport(Darwin)
        let modified = TimeInterval(info.st_mtimespec.tv_sec) + TimeInterval(info.st_mtimespec.tv_nsec) / 1e9
        #else
        let modified = TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9
        #endif
        return Entry(kind: kind, modified: modified)
    }
}
#endif
