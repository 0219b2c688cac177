#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TensorIO
import TensorIOSupport

/// Downloads one archive into a `.partial` file with a data task, appending to what an earlier attempt
/// left (`Range: bytes=N-` with `If-Range: <etag>`).
///
/// swift-corelibs-foundation has no resume data for download tasks, so resuming is done here, the same way
/// on every platform. The caller verifies the whole file's SHA-256 afterwards.
final class ResumableFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// How a fetch ended.
    enum Outcome {
        /// The file is complete (as far as the server says).
        case complete(Int64)
        /// The server says the range starts past the end (HTTP 416).
        case rangeNotSatisfiable
    }

    private let partialURL: URL
    private let expectedSize: Int64
    private let progress: @Sendable (Int64) -> Void
    private let conditions: DownloadConditions?
    private let lock = NSLock()
    private var handle: FileHandle?
    private var received: Int64 = 0
    private var status = 0
    private var errorBody = Data()
    private var failure: TensorIOError?
    private var continuation: CheckedContinuation<Outcome, any Error>?
    private var request: URLRequest?

    /// - Parameters:
    ///   - partialURL: The partial file; the caller holds its version's ``DownloadLock``.
    ///   - expectedSize: The archive's size as the server announced it.
    ///   - conditions: Whose network settings the transfer's session carries.
    ///   - progress: Told the bytes on disk as they arrive.
    init(
        partialURL: URL, expectedSize: Int64, conditions: DownloadConditions? = nil,
        progress: @escaping @Sendable (Int64) -> Void
    ) {
        self.conditions = conditions
        self.partialURL = partialURL
        self.expectedSize = expectedSize
        self.progress = progress
    }

    /// Fetches `request`'s body into the partial file, resuming from `offset` bytes with `etag`.
    func run(_ baseRequest: URLRequest, offset: Int64, etag: String) async throws -> Outcome {
        var request = baseRequest
        if offset > 0 {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(etag, forHTTPHeaderField: "If-Range")
        }
        self.request = request
        self.received = offset
        let session = HTTPTransport.session(delegate: self, conditions: conditions)
        defer { session.finishTasksAndInvalidate() }
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                self.continuation = continuation
                lock.unlock()
                let task = session.dataTask(with: request)
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        lock.lock()
        status = http?.statusCode ?? 0
        do {
            switch status {
            case 200:
                received = 0
                try openPartial(truncating: true)
            case 206:
                let start = Self.rangeStart(http?.value(forHTTPHeaderField: "Content-Range"))
                guard start == received else {
                    throw TensorIOError(.server, "the server resumed at byte \(start.map(String.init) ?? "?"), not \(received)")
                }
                try openPartial(truncating: false)
            default:
                break  // an error: its body is collected for the message
            }
        } catch {
            failure = error as? TensorIOError ?? TensorIOError(.io, "\(error)")
            lock.unlock()
            completionHandler(.cancel)
            return
        }
        lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard let handle else {
            if errorBody.count < 65_536 { errorBody.append(data) }
            lock.unlock()
            return
        }
        do {
            try handle.write(contentsOf: data)
            received += Int64(data.count)
        } catch {
            failure = TensorIOError(.io, "cannot write \(partialURL.path): \(SystemErrorText.reason(of: error))")
        }
        if received > expectedSize, failure == nil {
            failure = TensorIOError(.checksumMismatch, "the server sent more than the announced \(expectedSize) bytes")
        }
        let current = received
        let failed = failure != nil
        lock.unlock()
        if failed { dataTask.cancel() } else { progress(current) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        try? handle?.synchronize()
        try? handle?.close()
        handle = nil
        let continuation = self.continuation
        self.continuation = nil
        let result: Result<Outcome, any Error>
        if let failure {
            result = .failure(failure)
        } else if let error, let request {
            result = .failure(HTTPTransport.transportError(error, request: request))
        } else if status == 200 || status == 206 {
            result = .success(.complete(received))
        } else if status == 416 {
            result = .success(.rangeNotSatisfiable)
        } else if let request {
            result = .failure(HTTPTransport.error(status: status, body: errorBody, request: request))
        } else {
            result = .failure(TensorIOError(.server, "no request"))
        }
        lock.unlock()
        continuation?.resume(with: result)
    }

    private func openPartial(truncating: Bool) throws {
        let fileManager = FileManager.default
        if truncating || !fileManager.fileExists(atPath: partialURL.path) {
            guard fileManager.createFile(atPath: partialURL.path, contents: nil) else {
                throw TensorIOError(.io, "cannot create \(partialURL.path)")
            }
        }
        let handle = try FileHandle(forWritingTo: partialURL)
        try handle.truncate(atOffset: UInt64(received))
        try handle.seek(toOffset: UInt64(received))
        self.handle = handle
    }

    /// The first byte of `Content-Range: bytes START-END/TOTAL`.
    static func rangeStart(_ header: String?) -> Int64? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let range = header.dropFirst(6).split(separator: "/").first ?? ""
        return range.split(separator: "-").first.flatMap { Int64($0) }
    }
}
#endif
