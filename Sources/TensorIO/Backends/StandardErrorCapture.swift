internal import CCrashReport
import Foundation

/// Swaps file descriptor 2 for a temporary file while some work runs, for the runtimes' chatter
/// (``RuntimeOutput``) and the `tensorio` tool, which captures runs too. Process-wide: callers serialise.
@_spi(Internal) public enum StandardErrorCapture {
    /// Runs `body` with file descriptor 2 sent to an unlinked temporary file; returns its result and what
    /// was printed there. Captures nest; a crash meanwhile restores stderr and shows what was printed.
    ///
    /// - Parameter body: The work whose stderr is captured.
    /// - Returns: What `body` returned or threw, and the text it (or anything else) printed on stderr.
    @_spi(Internal) public static func redirecting<Value>(
        _ body: () throws -> Value
    ) -> (result: Swift.Result<Value, any Error>, printed: String) {
        guard let redirection = begin() else { return (Swift.Result { try body() }, "") }
        let result = Swift.Result { try body() }
        return (result, end(redirection))
    }

    /// Runs asynchronous work with file descriptor 2 sent to an unlinked temporary file, as
    /// the synchronous `redirecting(_:)` does: for a tool that captures a whole loop of steps once rather
    /// than each step (`tensorio train`, whose steps take microseconds). Anything in the process that
    /// prints on stderr meanwhile is captured too.
    ///
    /// - Parameter body: The work whose stderr is captured.
    /// - Returns: What `body` returned or threw, and the text printed on stderr meanwhile.
    @_spi(Internal) public static func redirecting<Value>(
        _ body: () async throws -> Value
    ) async -> (result: Swift.Result<Value, any Error>, printed: String) {
        let redirection = begin()
        let result: Swift.Result<Value, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        return (result, redirection.map(end) ?? "")
    }

    /// The saved stderr and the capture file, while a capture lasts.
    private struct Redirection {
        let saved: Int32
        let capture: Int32
    }

    /// Sends fd 2 to a capture file; `nil` when that cannot be done (the work then runs uncaptured).
    private static func begin() -> Redirection? {
        let saved = dup(STDERR_FILENO)
        let capture = spareFiles.take() ?? makeCaptureFile()
        tio_crash_report_install()
        guard saved >= 0, capture >= 0, tio_crash_report_push_captured_stderr(capture, saved) == 0 else {
            if saved >= 0 { close(saved) }
            if capture >= 0 { close(capture) }
            return nil
        }
        fflush(nil)
        dup2(capture, STDERR_FILENO)
        return Redirection(saved: saved, capture: capture)
    }

    /// Puts stderr back and returns what was printed.
    private static func end(_ redirection: Redirection) -> String {
        let (saved, capture) = (redirection.saved, redirection.capture)
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        tio_crash_report_pop_captured_stderr()
        close(saved)
        let size = lseek(capture, 0, SEEK_END)
        var bytes = [UInt8](repeating: 0, count: max(0, Int(size)))
        if !bytes.isEmpty { _ = pread(capture, &bytes, bytes.count, 0) }
        // Emptied and rewound (fd 2 wrote through the same file offset), the file serves the next capture.
        if size == 0 || (ftruncate(capture, 0) == 0 && lseek(capture, 0, SEEK_SET) == 0) {
            spareFiles.give(capture)
        } else {
            close(capture)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An unlinked temporary file: only our descriptor keeps it, and it vanishes when closed.
    private static func makeCaptureFile() -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/tensorio-runtime-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let path = buffer.baseAddress else { return -1 }
            let descriptor = mkstemp(path)
            if descriptor >= 0 { unlink(path) }
            return descriptor
        }
    }

    /// Capture files kept for the next captures. Making one creates and deletes a file in the temporary
    /// folder, which cost more than a small model's training step when `tensorio train` captured each.
    private static let spareFiles = SpareFiles()

    /// A few emptied capture files, taken and given back under a lock (captures nest, and tools capture
    /// from several threads).
    private final class SpareFiles: @unchecked Sendable {
        private let lock = NSLock()
        private var descriptors: [Int32] = []  // guarded by `lock`
        /// Enough for a capture nested in another on each of a few threads; more are closed.
        private let limit = 4

        func take() -> Int32? {
            lock.withLock { descriptors.popLast() }
        }

        func give(_ descriptor: Int32) {
            let kept = lock.withLock {
                guard descriptors.count < limit else { return false }
                descriptors.append(descriptor)
                return true
            }
            if !kept { close(descriptor) }
        }
    }
}
