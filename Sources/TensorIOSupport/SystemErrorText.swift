public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain words for what the system reported: "no such file or directory", "permission denied".
///
/// Foundation's errors print as `Error Domain=NSCocoaErrorDomain Code=4 … UserInfo={…}` or as "The operation
/// could not be completed", and errno values as tuples; messages meant for people say what happened in a
/// few words instead, and leave naming the file or port to the sentence around them.
public enum SystemErrorText {
    /// The reason for an `errno` value, in lower case: "no such file or directory".
    ///
    /// - Parameter code: An `errno` value.
    /// - Returns: The system's text for it, starting with a lower-case letter.
    public static func reason(errno code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        // "No such file…" → "no such file…", but an acronym stays ("I/O error", "RPC struct is bad").
        let second = text.dropFirst().first
        return second?.isLowercase == true ? first.lowercased() + text.dropFirst() : text
    }

    /// The reason behind a Foundation, POSIX or other error, in plain words.
    ///
    /// - Parameter error: What a Foundation call threw.
    /// - Returns: The POSIX reason when one is inside (Foundation wraps them), else the error's own
    ///   description on one line, without Foundation's "The operation could not be completed" boilerplate.
    public static func reason(of error: any Error) -> String {
        if let error = error as? any SelfDescribingError { return error.description }
        if let code = posixCode(of: error as NSError) { return reason(errno: code) }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, let known = cocoaReasons[nsError.code] { return known }
        var text = nsError.localizedDescription
        for boilerplate in ["The operation could not be completed. ", "The operation couldn’t be completed. "]
        where text.hasPrefix(boilerplate) {
            text.removeFirst(boilerplate.count)
        }
        text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? "\(nsError.domain) error \(nsError.code)" : text
    }

    /// Why a folder could not be created at `url`, when Foundation's error does not say (on Linux,
    /// `createDirectory` reports only "NSCocoaErrorDomain error 512"): the first ancestor that exists is
    /// looked at, and a file in the way or a read-only parent is named.
    ///
    /// - Parameters:
    ///   - url: The folder that could not be created.
    ///   - error: What `FileManager.createDirectory` threw.
    /// - Returns: Plain words such as "/dev/null is not a folder" or "permission denied in /srv".
    public static func reason(creatingFolder url: URL, error: any Error) -> String {
        var ancestor = url.standardizedFileURL
        // Each step removes one path component, so the walk ends at "/".
        while ancestor.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue { return "\(ancestor.path) is not a folder" }
                if access(ancestor.path, W_OK) != 0 {
                    return "\(ancestor.path == url.standardizedFileURL.path ? "it is" : ancestor.path + " is") not writable (\(reason(errno: errno)))"
                }
                break
            }
            ancestor.deleteLastPathComponent()
        }
        return reason(of: error)
    }

    /// The POSIX code in the error or in the errors it wraps (three levels at most: chains are short).
    private static func posixCode(of error: NSError) -> Int32? {
        var current: NSError? = error
        for _ in 0..<3 {
            guard let error = current else { return nil }
            if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
            current = error.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return nil
    }

    /// Foundation's file error codes that come without a POSIX error inside.
    private static let cocoaReasons: [Int: String] = [
        CocoaError.Code.fileNoSuchFile.rawValue: "no such file or directory",
        CocoaError.Code.fileReadNoSuchFile.rawValue: "no such file or directory",
        CocoaError.Code.fileReadNoPermission.rawValue: "permission denied",
        CocoaError.Code.fileWriteNoPermission.rawValue: "permission denied",
        CocoaError.Code.fileWriteFileExists.rawValue: "it already exists",
        CocoaError.Code.fileWriteOutOfSpace.rawValue: "no space left on device",
        CocoaError.Code.fileWriteVolumeReadOnly.rawValue: "read-only file system",
        CocoaError.Code.fileReadTooLarge.rawValue: "the file is too large",
        CocoaError.Code.fileReadCorruptFile.rawValue: "the file is corrupt",
        CocoaError.Code.fileReadInapplicableStringEncoding.rawValue: "the file is not text in the expected encoding",
    ]
}
