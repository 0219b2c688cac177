#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO

/// Collects one HTTP answer that a server — possibly a hostile one — sends, with two bounds a plain
/// `dataTask` lacks: at most ``maximumBytes`` of body (a server streaming gigabytes of JSON cannot exhaust
/// the client's memory), and, when given, a deadline for the whole exchange (`timeoutInterval` is only an
/// idle timeout, so a server trickling a byte every few seconds would otherwise hold the client forever).
final class BoundedAnswer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The most body bytes an answer may have: JSON answers are a few kilobytes.
    static let maximumBytes = 16 << 20

    private let request: URLRequest
    private let maximumBytes: Int
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var failure: TensorIOError?
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
    /// Told the bytes of the body sent so far and the body's size, as the upload goes.
    private let uploadProgress: (@Sendable (Int64, Int64) -> Void)?

    private init(request: URLRequest, maximumBytes: Int, uploadProgress: (@Sendable (Int64, Int64) -> Void)?) {
        self.request = request
        self.maximumBytes = maximumBytes
        self.uploadProgress = uploadProgress
    }

    /// Sends `request` (with the file at `bodyFileURL` as its body, if given) and collects the answer.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - bodyFileURL: A file to upload as the body.
    ///   - deadline: The longest the whole exchange may take; `nil` for no bound beyond the idle timeout.
    ///   - maximumBytes: The most body bytes accepted.
    ///   - uploadProgress: Told the body bytes sent so far and the body's size, as the upload goes.
    /// - Returns: The body and the response.
    /// - Throws: ``TensorIOError``: ``TensorIOError/Code/server`` for an answer past either bound,
    ///   ``TensorIOError/Code/unreachable`` when there is none.
    static func fetch(
        _ request: URLRequest, uploading bodyFileURL: URL? = nil, deadline: Duration?,
        maximumBytes: Int = BoundedAnswer.maximumBytes, uploadProgress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        let collector = BoundedAnswer(request: request, maximumBytes: maximumBytes, uploadProgress: uploadProgress)
        let session = HTTPTransport.session(delegate: collector)
        defer { session.finishTasksAndInvalidate() }
        let box = TaskBox()
        // A Dispatch timer rather than a sleeping task: it fires even when every thread of Swift's
        // cooperative pool is busy.
        let watchdog = deadline.map { limit in
            let item = DispatchWorkItem {
                collector.fail(TensorIOError(
                    .server, "\(HTTPTransport.describe(request)): the server did not finish answering within \(Int(limit.components.seconds)) s"))
                box.cancel()
            }
            let (seconds, attoseconds) = limit.components
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)), execute: item)
            return item
        }
        defer { watchdog?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                collector.lock.withLock { collector.continuation = continuation }
                let task = bodyFileURL.map { session.uploadTask(with: request, fromFile: $0) } ?? session.dataTask(with: request)
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        uploadProgress?(totalBytesSent, totalBytesExpectedToSend)
    }

    private func fail(_ error: TensorIOError) {
        lock.withLock { if failure == nil { failure = error } }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        lock.lock()
        self.response = http
        if declared > Int64(maximumBytes), failure == nil {
            failure = tooLarge()
        }
        let refuse = failure != nil
        lock.unlock()
        completionHandler(refuse ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if failure == nil {
            if body.count + data.count > maximumBytes {
                failure = tooLarge()
            } else {
                body.append(data)
            }
        }
        let failed = failure != nil
        lock.unlock()
        if failed { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        let result: Result<(Data, HTTPURLResponse), any Error>
        if let failure {
            result = .failure(failure)
        } else if let error {
            result = .failure(HTTPTransport.transportError(error, request: request))
        } else if let response = response ?? task.response as? HTTPURLResponse {
            result = .success((body, response))
        } else {
            result = .failure(TensorIOError(.server, "\(HTTPTransport.describe(request)): no HTTP response"))
        }
        lock.unlock()
        continuation?.resume(with: result)
    }

    private func tooLarge() -> TensorIOError {
        TensorIOError(
            .server, "\(HTTPTransport.describe(request)): the server's answer is larger than \(maximumBytes >> 20) MiB")
    }
}
#endif
