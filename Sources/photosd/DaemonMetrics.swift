import Metrics
import Prometheus

/// The process's metrics backend: the libraries count through swift-metrics (files in
/// PhotosIngest, queues in PhotosDaemon, runs in PhotosHooks, requests in PhotosServer) and only
/// this executable chooses where the counts go: a Prometheus registry, rendered for `GET /metrics`.
enum DaemonMetrics {
    /// Bootstraps swift-metrics with a Prometheus registry (once, before any service makes its
    /// metrics: one made earlier would count into the no-op backend) and returns what renders it in
    /// Prometheus' text format.
    static func bootstrap() -> @Sendable () -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return { registry.emitToBuffer() }
    }
}
