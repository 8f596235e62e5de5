import PhotosStore

/// One hook as `photos hooks status --json` and `photos status --json` show it.
public struct HookStatus: Codable, Sendable, Hashable {
    /// The hook's name.
    public var name: String
    /// The program and its arguments, as configured (null when the hook is in the library but not the config).
    public var command: [String]?
    /// A webhook's URL, as configured (null for an exec hook, or a hook not in the config).
    public var url: String?
    /// `ok`, `retrying` (its last runs failed), `parked`, `disabled` (not in the config, or `enabled = false`),
    /// or `new` (configured, not yet seen by the daemon).
    public var state: String
    /// The last token it acknowledged.
    public var cursor: Int64?
    /// Change-log entries after its cursor (what it has not been given or not acknowledged).
    public var lag: Int?
    /// Failed runs in a row.
    public var failures: Int
    /// When the last run started, seconds since 1970.
    public var lastRunAt: Double?
    /// How the last run ended (`exit 0`, `exit 3`, `signal 9`, `timed out after 60 s`, `HTTP 500`...).
    public var lastOutcome: String?
    /// How long it took, in seconds.
    public var lastDuration: Double?
    /// Why it is parked: the last exit status and the tail of its stderr (a webhook's: the HTTP
    /// status or the connection's error, and the start of the answer's body).
    public var parkedReason: String?
    /// Runs that exited 0.
    public var runs: Int
    /// Objects given to runs that exited 0.
    public var delivered: Int

    /// The status of a hook from its configuration (if any) and its row in the library (if any).
    public init(name: String, command: [String]?, url: String? = nil, enabled: Bool, state row: HookState?, lag: Int?) {
        self.name = name
        self.command = url == nil ? command : nil
        self.url = url
        cursor = row?.cursor
        self.lag = lag
        failures = row?.failures ?? 0
        lastRunAt = row?.lastRunAt
        lastOutcome = row?.lastOutcome
        lastDuration = row?.lastDuration
        parkedReason = row?.parkedReason
        runs = row?.runs ?? 0
        delivered = row?.delivered ?? 0
        state =
            if !enabled { "disabled" }
            else if row == nil { "new" }
            else if row?.isParked == true { "parked" }
            else if failures > 0 { "retrying" }
            else { "ok" }
    }
}

extension DaemonStatus {
    /// Fills ``hooks`` from the library's hook rows (their cursors live there, not in the daemon's
    /// status file), as `photos status` and `GET /v1/status` show them. Leaves it nil when the
    /// library has no hooks or cannot be read.
    public mutating func addHooks(from database: LibraryDatabase) {
        guard let states = try? database.hookStates(), !states.isEmpty else { return }
        hooks = states.map { state in
            HookStatus(
                name: state.name, command: nil, enabled: state.enabled, state: state,
                lag: try? database.changeCount(after: state.cursor))
        }
    }
}
