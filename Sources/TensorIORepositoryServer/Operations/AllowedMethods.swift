#if Server  // built with the Server trait only (Package.swift)
import Hummingbird

/// Which methods the API's routes accept on a path, for a `405 Method Not Allowed` with its `Allow` header.
///
/// Hummingbird's router answers the same "not found" for an unknown path and for a known path with
/// another method. The routes are registered a second time on a probe router whose middleware answers
/// before any handler runs: a route that matches reports itself, so the probe tells which methods a path
/// has without running anything and without a second list of routes to keep in step.
struct AllowedMethods: Sendable {
    private let probe: RouterResponder<BasicRequestContext>
    /// The methods tried, in the order the `Allow` header lists them.
    private static let candidates: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]
    private static let matched = HTTPResponse.Status(code: 299, reasonPhrase: "Route Matched")

    /// - Parameter register: Registers the server's routes on the router it is given.
    init(register: (Router<BasicRequestContext>) -> Void) {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RouteMatchedMiddleware(status: Self.matched))
        register(router)
        probe = router.buildResponder()
    }

    /// The methods some route accepts on `path`; empty when no route has it.
    ///
    /// - Parameters:
    ///   - path: The request's path.
    ///   - context: The request's context; the probe uses a copy with an endpoint record of its own.
    func methods(for path: String, context: BasicRequestContext) async -> [HTTPRequest.Method] {
        var allowed: [HTTPRequest.Method] = []
        for method in Self.candidates {
            var probeContext = context
            probeContext.coreContext.endpointPath = EndpointPath()
            let request = Request(
                head: HTTPRequest(method: method, scheme: nil, authority: nil, path: path),
                body: RequestBody(buffer: ByteBuffer()))
            if let response = try? await probe.respond(to: request, context: probeContext),
               response.status == Self.matched {
                allowed.append(method)
            }
        }
        return allowed
    }
}

/// Answers at once when the router matched a route (it records the route before calling the route's
/// middleware); passes everything else on to the router's "not found".
private struct RouteMatchedMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let status: HTTPResponse.Status

    func handle(
        _ request: Request, context: BasicRequestContext, next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        if context.endpointPath != nil { return Response(status: status) }
        return try await next(request, context)
    }
}
#endif
