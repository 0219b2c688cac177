import Foundation

/// A value behind a lock, for state set inside `@Sendable` closures and read by the test.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value  // guarded by `lock`

    public init(_ value: Value) { storage = value }

    /// The value now.
    public var value: Value { withLock { $0 } }

    /// Runs `body` on the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
