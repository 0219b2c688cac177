public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// HTTP requests without the repository client: for requests the client would refuse to send, and for
/// answers a test must see as the server sent them.
public enum UncachedHTTP {
    /// A GET of `url` as written.
    public static func get(_ url: String) async throws -> (status: Int, body: String) {
        guard let url = URL(string: url) else { throw TestFailure("bad URL \(url)") }
        let (data, response) = try await send(URLRequest(url: url))
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    /// Sends `request` on a session of its own without a cache, so that every answer comes from the server.
    public static func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            let session = URLSession(configuration: configuration)
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: TestFailure("no HTTP response"))
                }
                session.finishTasksAndInvalidate()
            }.resume()
        }
    }
}
