#if Server  // built with the Server trait only (Package.swift)
import Foundation

/// Runs blocking work (file system, child processes) on a thread of its own and awaits its result.
///
/// `Task.detached` would run it on Swift's cooperative pool, which has one thread per core: two uploads
/// being checked on a 2-core machine would stall every other request until their checks end.
enum BlockingWork {
    /// Runs `work` on a new thread.
    ///
    /// - Parameter work: The blocking work.
    /// - Returns: What `work` returned.
    /// - Throws: What `work` threw.
    static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try work() })
            }
            thread.name = "TensorIO blocking work"
            thread.start()
        }
    }
}
#endif
