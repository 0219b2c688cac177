public import TensorIO
public import Testing

/// Expects `body` to throw a ``TensorIOError`` (with `code`, at `location`, its message containing each of
/// `fragments`, for those given) and returns it; records an issue when it returns, throws something else,
/// or the error differs.
@discardableResult
public func expectTensorIOError<T>(
    _ code: TensorIOError.Code? = nil, location: String? = nil, containing fragments: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> TensorIOError? {
    let expected = ExpectedTensorIOError(code: code, location: location, fragments: fragments, sourceLocation: sourceLocation)
    do {
        return expected.unexpectedSuccess(try body())
    } catch {
        return expected.check(error)
    }
}

/// ``expectTensorIOError(_:location:containing:sourceLocation:_:)`` for an `async` body.
@discardableResult
public func expectTensorIOError<T>(
    _ code: TensorIOError.Code? = nil, location: String? = nil, containing fragments: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T
) async -> TensorIOError? {
    let expected = ExpectedTensorIOError(code: code, location: location, fragments: fragments, sourceLocation: sourceLocation)
    do {
        return expected.unexpectedSuccess(try await body())
    } catch {
        return expected.check(error)
    }
}

/// What the two spellings above check, once.
private struct ExpectedTensorIOError {
    var code: TensorIOError.Code?
    var location: String?
    var fragments: [String]
    var sourceLocation: SourceLocation

    private var what: String { "a TensorIOError" + (code.map { " (\($0))" } ?? "") }

    func unexpectedSuccess(_ value: some Any) -> TensorIOError? {
        Issue.record("expected \(what), got \(value)", sourceLocation: sourceLocation)
        return nil
    }

    func check(_ thrown: any Error) -> TensorIOError? {
        guard let error = thrown as? TensorIOError else {
            Issue.record("expected \(what), got \(type(of: thrown)): \(thrown)", sourceLocation: sourceLocation)
            return nil
        }
        if let code {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
        if let location {
            #expect(error.location == location, "\(error)", sourceLocation: sourceLocation)
        }
        for fragment in fragments {
            #expect(error.message.contains(fragment), "\"\(fragment)\" not in: \(error.message)", sourceLocation: sourceLocation)
        }
        return error
    }
}
