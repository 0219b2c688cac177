#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
import TensorIO
import TensorIOSupport

/// Opening a file for reading with the library's error for a file that cannot be read.
enum FileReading {
    /// What `body` returns from a handle reading the file at `url`, which is closed afterwards.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - what: What the file is, for the error ("signature file"); `nil` names it by its path alone.
    ///   - body: Reads from the handle; what it throws is taken for a read error.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`), "cannot read [the what] path: reason", when the
    ///   file cannot be opened or `body` throws.
    static func withHandle<Result>(
        reading url: URL, what: String? = nil, _ body: (FileHandle) throws -> Result
    ) throws -> Result {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try body(handle)
        } catch {
            let name = what.map { "the \($0) \(url.path)" } ?? url.path
            throw TensorIOError(.io, "cannot read \(name): \(SystemErrorText.reason(of: error))")
        }
    }
}
#endif
