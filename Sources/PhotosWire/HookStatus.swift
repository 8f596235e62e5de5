import Foundation

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
    /// When the last run started: ISO 8601 at UTC (`2026-11-28T09:30:00.250+00:00`), as every date
    /// of the wire shapes is written.
    public var lastRunAt: String?
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

    /// A status with every value given (`PhotosStore` makes one from a hook's configuration and its
    /// row in the library).
    public init(
        name: String, command: [String]?, url: String?, state: String, cursor: Int64?, lag: Int?, failures: Int,
        lastRunAt: String?, lastOutcome: String?, lastDuration: Double?, parkedReason: String?, runs: Int,
        delivered: Int
    ) {
        self.name = name
        self.command = command
        self.url = url
        self.state = state
        self.cursor = cursor
        self.lag = lag
        self.failures = failures
        self.lastRunAt = lastRunAt
        self.lastOutcome = lastOutcome
        self.lastDuration = lastDuration
        self.parkedReason = parkedReason
        self.runs = runs
        self.delivered = delivered
    }
}

extension HookStatus {
    private enum CodingKeys: String, CodingKey {
        case name, command, url, state, cursor, lag, failures, lastRunAt, lastOutcome, lastDuration, parkedReason, runs
        case delivered
    }

    /// Decodes a hook's status; a `lastRunAt` in seconds since 1970 (what photosd 0.27 and earlier
    /// wrote) is read as that date, so that `photos` reads an older daemon's `/v1/status`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        command = try container.decodeIfPresent([String].self, forKey: .command)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        state = try container.decode(String.self, forKey: .state)
        cursor = try container.decodeIfPresent(Int64.self, forKey: .cursor)
        lag = try container.decodeIfPresent(Int.self, forKey: .lag)
        failures = try container.decode(Int.self, forKey: .failures)
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .lastRunAt) {
            lastRunAt = ISO8601.string(Date(timeIntervalSince1970: seconds), offset: 0)
        } else {
            lastRunAt = try container.decodeIfPresent(String.self, forKey: .lastRunAt)
        }
        lastOutcome = try container.decodeIfPresent(String.self, forKey: .lastOutcome)
        lastDuration = try container.decodeIfPresent(Double.self, forKey: .lastDuration)
        parkedReason = try container.decodeIfPresent(String.self, forKey: .parkedReason)
        runs = try container.decode(Int.self, forKey: .runs)
        delivered = try container.decode(Int.self, forKey: .delivered)
    }
}
