#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird
import Logging
import TensorIODelivery

/// Wraps the router: every request gets a request id, one log line and its metrics; paths no route
/// matches get the API's JSON errors (404, or 405 with `Allow` when the path has other methods); a `HEAD`
/// answer never has a body; an error the routes did not turn into an answer becomes a JSON 500, and an
/// error answer without the API's JSON body (Hummingbird's own) gets one.
///
/// It wraps the router's responder rather than being a router middleware because Hummingbird's router
/// picks the route before a route's middleware runs: only from outside does one see every request,
/// including those that match no route.
struct OperationsResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let routes: RouterResponder<BasicRequestContext>
    let allowedMethods: AllowedMethods
    let metrics: ServerMetrics
    /// Writes the request lines (`info`, or `error` for a 5xx).
    let logger: Logger

    /// The longest path written to a log line; a longer one is cut and marked with "…".
    static let maximumLoggedPathLength = 512
    /// The longest path quoted in a 404's or 405's message.
    static let maximumQuotedPathLength = 200

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        let id = RequestIdentifier.identifier(for: request)
        var failure: (any Error)?
        var response: Response
        do {
            response = try await routes.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = (try? error.response(from: request, context: context)) ?? Response(status: error.status)
        } catch {
            failure = error
            response = Self.errorResponse(APIError(
                status: .internalServerError, code: "internal", message: "the server failed to answer this request"))
        }
        // Hummingbird's "not found" responder names its endpoint "NotFound"; a route's own 404 keeps its route.
        let matched = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        if matched == nil, response.status == .notFound {
            response = await unmatchedResponse(request, context: context)
        }
        if response.status.code >= 400, response.headers[.contentType] != "application/json" {
            response = Self.jsonError(replacing: response)
        }
        if request.method == .head { response = response.createHeadResponse() }
        response.headers[RequestIdentifier.header] = id

        let failureText = failure.map { Self.bounded(String(describing: $0), to: 1024) }
        let route = matched ?? ServerMetrics.unmatchedRoute
        let status = response.status
        let tally = BodyTally()
        let logger = self.logger
        let metrics = self.metrics
        response.body = response.body.counting(into: tally) {
            let duration = ContinuousClock.now - start
            metrics.record(route: route, method: request.method, status: status, bytes: tally.count, duration: duration)
            var metadata: Logger.Metadata = [
                "request_id": .string(id),
                "method": .string(String(request.method.rawValue.prefix(16))),
                "path": .string(Self.bounded(request.uri.path, to: Self.maximumLoggedPathLength)),
                "route": .string(route),
                "status": .stringConvertible(status.code),
                "bytes": .stringConvertible(tally.count),
                "duration_ms": .stringConvertible(Self.milliseconds(duration)),
            ]
            if let failureText { metadata["error"] = .string(failureText) }
            logger.log(level: status.code >= 500 ? .error : .info, "request", metadata: metadata)
        }
        return response
    }

    /// A JSON 404 for a path no route has, or a JSON 405 with `Allow` for a path that has other methods.
    private func unmatchedResponse(_ request: Request, context: BasicRequestContext) async -> Response {
        let path = Self.bounded(request.uri.path, to: Self.maximumQuotedPathLength)
        let allowed = await allowedMethods.methods(for: request.uri.path, context: context)
        guard !allowed.isEmpty else {
            return Self.errorResponse(APIError(status: .notFound, code: "not-found", message: "no route for \(path)"))
        }
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return Self.errorResponse(APIError(
            status: .methodNotAllowed, code: "method-not-allowed",
            message: "\(String(request.method.rawValue.prefix(16))) is not allowed on \(path); allowed: \(list)",
            headers: [.allow: list]))
    }

    /// The API's JSON error for an error answer made without one: Hummingbird's own errors (a body past
    /// `collect(upTo:)`'s limit is a bare 413) and anything else that answered an error without a body.
    private static func jsonError(replacing response: Response) -> Response {
        let status = response.status
        let code: String
        switch status {
        case .badRequest: code = "bad-request"
        case .unauthorized: code = "unauthorized"
        case .notFound: code = "not-found"
        case .methodNotAllowed: code = "method-not-allowed"
        case .contentTooLarge: code = "too-large"
        case .internalServerError: code = "internal"
        default: code = "http-\(status.code)"
        }
        let message = status == .contentTooLarge
            ? "the request body is larger than this endpoint accepts"
            : "HTTP \(status.code) \(status.reasonPhrase)"
        var headers = response.headers
        headers[.contentLength] = nil
        return errorResponse(APIError(status: status, code: code, message: message, headers: headers))
    }

    private static func errorResponse(_ error: APIError) -> Response {
        Response(status: error.status, headers: error.jsonHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: error.jsonBody)))
    }

    private static func bounded(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length)) + "…"
    }

    /// Milliseconds with three decimals.
    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1_000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
#endif
