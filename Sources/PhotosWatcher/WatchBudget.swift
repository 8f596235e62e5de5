import Foundation

/// How many inotify watches a monitor may take.
///
/// The kernel limits watches per user (`/proc/sys/fs/inotify/max_user_watches`), shared by every
/// program the user runs: desktop search, editors, sync clients. Taking them all breaks those
/// programs, so a monitor keeps a ``reserve`` for them (tracker-miners keeps 500) and stops at
/// ``available``; directories beyond it are reported as ``FileEventKind/budgetExhausted`` and
/// polled instead.
///
/// ```swift
/// let budget = WatchBudget.system()          // the machine's limit, 10% (at least 500) kept back
/// let monitor = try InotifyMonitor(budget: budget)
/// let tiny = WatchBudget(limit: 2)           // tests: two watches, whatever the machine says
/// ```
public struct WatchBudget: Sendable, Hashable, CustomStringConvertible {
    /// The per-user watch limit (`max_user_watches`).
    public var limit: Int
    /// Watches left for other programs.
    public var reserve: Int
    /// Watches this process already held when the budget was measured (other monitors, libraries).
    public var heldByThisProcess: Int

    /// How many watches a new monitor may take: the limit less the reserve and what this process
    /// already holds, never negative.
    public var available: Int { max(0, limit - reserve - heldByThisProcess) }

    /// A budget with a given limit, for tests and for configuration that overrides the system's.
    public init(limit: Int, reserve: Int = 0, heldByThisProcess: Int = 0) {
        self.limit = limit
        self.reserve = reserve
        self.heldByThisProcess = heldByThisProcess
    }

    /// The machine's budget: `max_user_watches`, the ``defaultReserve(forLimit:)``, and the watches
    /// this process holds now (counted from `/proc/self/fdinfo`).
    ///
    /// Where `/proc` cannot be read, the limit is 8192, the kernel's default before Linux 5.11.
    public static func system() -> WatchBudget {
        let limit = readLimit() ?? 8192
        return WatchBudget(
            limit: limit, reserve: defaultReserve(forLimit: limit), heldByThisProcess: watchesHeldByThisProcess())
    }

    /// What ``system()`` keeps back: 10% of the limit, at least 500, at most the whole limit.
    public static func defaultReserve(forLimit limit: Int) -> Int {
        min(limit, max(500, limit / 10))
    }

    /// Reads `max_user_watches`; nil when it cannot be read or parsed.
    static func readLimit(from path: String = "/proc/sys/fs/inotify/max_user_watches") -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Counts the watches of every inotify descriptor this process has open: each watch is one
    /// `inotify wd:` line in the descriptor's `/proc/self/fdinfo` entry.
    ///
    /// The kernel's limit is per user, not per process; other processes' watches cannot be seen
    /// without reading theirs, which is why a fixed ``reserve`` stands in for them.
    public static func watchesHeldByThisProcess() -> Int {
        let files = FileManager.default
        guard let descriptors = try? files.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        var count = 0
        for descriptor in descriptors {
            guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                target == "anon_inode:inotify",
                let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)
            else { continue }
            count += info.split(separator: "\n").count { $0.hasPrefix("inotify wd:") }
        }
        return count
    }

    /// `"192536 watches, 19253 kept for others, 0 held, 173283 available"`.
    public var description: String {
        "\(limit) watches, \(reserve) kept for others, \(heldByThisProcess) held, \(available) available"
    }
}
