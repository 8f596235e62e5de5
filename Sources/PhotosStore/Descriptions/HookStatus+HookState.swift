import Foundation
import PhotosWire

extension HookStatus {
    /// The status of a hook from its configuration (if any) and its row in the library (if any).
    public init(name: String, command: [String]?, url: String? = nil, enabled: Bool, state row: HookState?, lag: Int?) {
        let failures = row?.failures ?? 0
        let state =
            if !enabled { "disabled" } else if row == nil { "new" } else if row?.isParked == true {
                "parked"
            } else if failures > 0 { "retrying" } else { "ok" }
        let lastRunAt = row?.lastRunAt.map { ISO8601.string(Date(timeIntervalSince1970: $0), offset: 0) }
        self.init(
            name: name, command: url == nil ? command : nil, url: url, state: state, cursor: row?.cursor, lag: lag,
            failures: failures, lastRunAt: lastRunAt, lastOutcome: row?.lastOutcome, lastDuration: row?.lastDuration,
            parkedReason: row?.parkedReason,
            runs: row?.runs ?? 0, delivered: row?.delivered ?? 0)
    }
}

extension DaemonStatus {
    /// Fills ``PhotosWire/DaemonStatus/hooks`` from the library's hook rows (their cursors live
    /// there, not in the daemon's status file), as `photos status` and `GET /v1/status` show them.
    /// Leaves it nil when the library has no hooks or cannot be read.
    public mutating func addHooks(from database: LibraryDatabase) {
        guard let states = try? database.hookStates(), !states.isEmpty else { return }
        hooks = states.map { state in
            HookStatus(
                name: state.name, command: nil, enabled: state.enabled, state: state,
                lag: try? database.changeCount(after: state.cursor))
        }
    }
}
