import Metrics

/// What scans did, counted through swift-metrics as each batch commits (a rolled-back batch counts
/// nothing): photosd serves them at `GET /metrics`; `photos scan`, which bootstraps no backend,
/// counts into swift-metrics' no-op one.
///
/// | counter | counts |
/// |---|---|
/// | `photosd_files_seen_total` | files a scan looked at (a file looked at again counts again) |
/// | `photosd_files_ingested_total` | files read for the first time and added as assets |
/// | `photosd_files_updated_total` | files read again because they changed |
/// | `photosd_files_moved_total` | files found at a new path, identity kept |
/// | `photosd_files_removed_total` | files gone, and their assets with them |
/// | `photosd_files_rejected_total` | files recorded as rejected (see `photos rejected`) |
///
/// Made with the scanner, so that each counter exists (at 0) from the daemon's start.
struct ScanMetrics: Sendable {
    let seen = Counter(label: "photosd_files_seen_total")
    let ingested = Counter(label: "photosd_files_ingested_total")
    let updated = Counter(label: "photosd_files_updated_total")
    let moved = Counter(label: "photosd_files_moved_total")
    let removed = Counter(label: "photosd_files_removed_total")
    let rejected = Counter(label: "photosd_files_rejected_total")
}
