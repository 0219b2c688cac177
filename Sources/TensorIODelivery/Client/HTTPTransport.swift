#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO

/// URLSession calls wrapped for async/await in a way that works with swift-corelibs-foundation too, and
/// the mapping of HTTP failures to ``TensorIOError``.
enum HTTPTransport {
    /// A session of its own for one exchange, delivering to `delegate` on a serial queue; no cache, no
    /// cookies. The caller invalidates it (`finishTasksAndInvalidate`) when the exchange ends.
    ///
    /// - Parameters:
    ///   - delegate: Receives the session's events.
    ///   - conditions: The download conditions whose network settings the session carries (an archive's
    ///     transfer); `nil` for the platform's defaults.
    static func session(delegate: any URLSessionDelegate, conditions: DownloadConditions? = nil) -> URLSession {
        URLSession(configuration: configuration(conditions: conditions), delegate: delegate, delegateQueue: serialQueue())
    }

    /// The configuration of every session the client makes: ephemeral, no cache, no cookies, and the
    /// network settings of `conditions` when given.
    static func configuration(conditions: DownloadConditions?) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        conditions?.configure(configuration)
        return configuration
    }

    private static func serialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }

    /// Sends `request` and collects the answer: at most ``BoundedAnswer/maximumBytes``, within twice the
    /// request's timeout from start to end.
    static func data(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let limit = request.timeoutInterval.isFinite && request.timeoutInterval > 0
            ? Duration.milliseconds(Int64(min(request.timeoutInterval, 86_400) * 2000)) : nil
        return try await BoundedAnswer.fetch(request, deadline: limit)
    }

    /// Sends `request` with the file at `fileURL` as its body and collects the answer (at most
    /// ``BoundedAnswer/maximumBytes``; an upload of any size has no overall deadline, only the idle timeout).
    static func upload(
        _ request: URLRequest, fromFile fileURL: URL, progress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        guard FileManager.default.isReadableFile(atPath: fileURL.path) else {
            throw TensorIOError(.io, "cannot read \(fileURL.path)")
        }
        return try await BoundedAnswer.fetch(request, uploading: fileURL, deadline: nil, uploadProgress: progress)
    }

    /// The error for a request that got no HTTP answer.
    static func transportError(_ error: any Error, request: URLRequest) -> TensorIOError {
        if let urlError = error as? URLError, urlError.code == .cancelled {
            return TensorIOError(.io, "\(describe(request)): cancelled")
        }
        return TensorIOError(.unreachable, "\(describe(request)): the server did not answer: \(error.localizedDescription)")
    }

    /// The error for an HTTP status outside 2xx, with the server's JSON message when there is one.
    static func error(status: Int, body: Data, request: URLRequest) -> TensorIOError {
        let detail = try? JSONDecoder().decode(APIErrorBody.self, from: body).error
        // The server's words go into one line of bounded length, whatever it sent.
        let words = detail.map { String($0.message.prefix(1000)).replacingOccurrences(of: "\n", with: " ") }
        let message = "\(describe(request)): HTTP \(status): " + (words ?? HTTPURLResponse.localizedString(forStatusCode: status))
        let code: TensorIOError.Code
        switch (status, detail?.code) {
        case (401, _), (403, _): code = .unauthorized
        case (404, _): code = .notFound
        case (409, _): code = .conflict
        case (413, _): code = .tooLarge
        case (_, "invalid-bundle"?): code = .invalidBundle
        case (_, "unsafe-archive"?): code = .unsafeArchive
        case (_, "invalid-archive"?): code = .invalidArchive
        case (_, "limit-exceeded"?): code = .limitExceeded
        case (_, "invalid-identifier"?): code = .invalidIdentifier
        case (_, "invalid-rollout"?), (_, "unknown-version"?): code = .invalidRollout
        // The upload's model did not load in the server's check.
        case (422, "layer-mismatch"?): code = .layerMismatch
        case (422, "invalid-model-file"?): code = .invalidModelFile
        case (422, "runtime-crashed"?): code = .runtimeCrashed
        case (422, "runtime-failure"?): code = .runtimeFailure
        case (422, "unsupported"?): code = .unsupported
        // A signature file that is malformed or signs another version or other files.
        case (422, "invalid-signature"?): code = .invalidSignature
        default: code = .server
        }
        return TensorIOError(code, message)
    }

    static func describe(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"
    }
}

/// Holds a task for cancellation from another thread.
final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func set(_ task: URLSessionTask) {
        lock.lock()
        self.task = task
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
#endif
