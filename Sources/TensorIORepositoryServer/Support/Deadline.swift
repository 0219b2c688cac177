#if Server  // built with the Server trait only (Package.swift)
/// Thrown by ``withDeadline(_:_:)`` when the work did not finish in time.
struct DeadlineExceeded: Error {}

/// Runs `body`, cancelling it and throwing ``DeadlineExceeded`` if it takes longer than `limit`: for
/// start-up steps that would otherwise wait forever on a server that never answers.
func withDeadline<Result: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else { throw DeadlineExceeded() }
        return result
    }
}
#endif
