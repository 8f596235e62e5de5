import Hummingbird
import Metrics

/// Times every request, by route, through swift-metrics: `photosd_http_request_duration_seconds`
/// (a histogram with Prometheus' backend), labelled `method`, `route` (the router's pattern, as
/// `/v1/assets/**`, so identifiers do not make a series each; `unmatched` for a path no route
/// serves) and `status`.
///
/// The time is until the answer's head: a stream (`follow=true`, a live query) is timed to its
/// first byte, not for as long as it stays open. Refusals (401, 403) and errors are timed too:
/// the middleware is the router's outermost.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = APIContext

    /// The histogram's name.
    static let label = "photosd_http_request_duration_seconds"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: status, since: started)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        // The router sets the pattern before the middleware runs, or "NotFound" (Hummingbird's) as
        // it finds none.
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        Timer(
            label: Self.label,
            dimensions: [("method", request.method.rawValue), ("route", route), ("status", "\(status)")]
        ).record(duration: ContinuousClock.now - started)
    }
}
