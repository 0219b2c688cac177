#if Server  // built with the Server trait only (Package.swift)
import Foundation
import Hummingbird
import Metrics
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this server's own.
///
/// The registry is not the process-wide `MetricsSystem` backend: that can be bootstrapped only once per
/// process, and a process (a test, an app embedding the server) may run several servers, each of which
/// answers `/metrics` with its own counts. Every metric is made with this server's factory instead.
///
/// Labels are bounded: the route is the matched route pattern (`/v1/models/{id}`, never the raw path;
/// `unmatched` for paths no route matches), the method one of the API's methods (`other` for the rest) and
/// the status a three-digit code.
final class ServerMetrics: Sendable {
    /// The Prometheus registry behind `/metrics`.
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let cache = Mutex<[RequestKey: RequestMetrics]>([:])
    private let uploadsAccepted: Metrics.Counter
    private let uploadsRefused: Metrics.Counter
    private let validationFailures: Metrics.Counter

    /// The route pattern of uploads, as Hummingbird's router names it (parameters in braces).
    static let uploadRoute = "/v1/models/{id}/versions/{version}"
    /// The label for requests no route matched (unknown paths, and known paths with another method).
    static let unmatchedRoute = "unmatched"

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Requests range from a health check (well under a millisecond) to an upload's load check (up to
        // its time limit, a minute by default) and a large download.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120),
        ]
        self.factory = factory
        uploadsAccepted = Metrics.Counter(label: "tensorio_uploads_total", dimensions: [("result", "accepted")], factory: factory)
        uploadsRefused = Metrics.Counter(label: "tensorio_uploads_total", dimensions: [("result", "refused")], factory: factory)
        validationFailures = Metrics.Counter(label: "tensorio_upload_validation_failures_total", factory: factory)
    }

    /// Records one finished request.
    ///
    /// - Parameters:
    ///   - route: The matched route pattern, or ``unmatchedRoute``.
    ///   - method: The request's method.
    ///   - status: The response's status.
    ///   - bytes: The response body bytes written.
    ///   - duration: From the request's arrival to the end of its response body.
    func record(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, bytes: Int, duration: Duration) {
        let key = RequestKey(route: route, method: Self.methodLabel(method), status: status.code)
        let metrics = cache.withLock { cache in
            if let metrics = cache[key] { return metrics }
            let metrics = RequestMetrics(key: key, factory: factory)
            cache[key] = metrics
            return metrics
        }
        metrics.requests.increment()
        metrics.duration.record(duration: duration)
        if bytes > 0 { metrics.bytes.increment(by: Int64(bytes)) }
        if route == Self.uploadRoute, method == .post {
            if status == .created {
                uploadsAccepted.increment()
            } else {
                uploadsRefused.increment()
                // 422: the archive, its bundle or its model failed the checks (invalid, unsafe, past a
                // limit, does not load); 413: larger than the upload limit.
                if status == .unprocessableContent || status == .contentTooLarge { validationFailures.increment() }
            }
        }
    }

    /// The registry in Prometheus's text format (version 0.0.4).
    func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }

    private static func methodLabel(_ method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options: return method.rawValue
        default: return "other"
        }
    }

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// The metrics of one route, method and status, made once and kept.
    private struct RequestMetrics: Sendable {
        let requests: Metrics.Counter
        let duration: Metrics.Timer
        let bytes: Metrics.Counter

        init(key: RequestKey, factory: PrometheusMetricsFactory) {
            let labels = [("route", key.route), ("method", key.method), ("status", String(key.status))]
            requests = Metrics.Counter(label: "tensorio_http_requests_total", dimensions: labels, factory: factory)
            duration = Metrics.Timer(
                label: "tensorio_http_request_duration_seconds", dimensions: labels, factory: factory)
            bytes = Metrics.Counter(label: "tensorio_http_response_bytes_total", dimensions: labels, factory: factory)
        }
    }
}
#endif
