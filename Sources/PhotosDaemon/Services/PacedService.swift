import Logging
import ServiceLifecycle

/// Does a round of the library's upkeep once every `interval` while photosd runs, so that a
/// daemon that runs for months does it then too, not only when it starts: erasing what has been in
/// Recently Deleted longer than `trash_days` (``trashExpiry(interval:logger:erase:)``), finishing
/// the file work of processes that stopped halfway (``stoppedFileWork(interval:logger:finish:)``).
///
/// The work itself is the library's (`PHPhotoLibrary`'s, which logs its own failures and tries
/// again next round); this service only paces it, and stops waiting at once when a graceful
/// shutdown begins.
///
/// ```swift
/// let expiry = PacedService.trashExpiry(logger: logger) { library.eraseExpiredTrash() }
/// ```
public final class PacedService: Service, Sendable {
    let interval: Duration
    let logger: Logger
    /// What a round did, for the debug log: "expired deleted assets erased".
    let done: String
    let round: @Sendable () -> Int

    /// A service that calls `round` every `interval`, the first time one interval after it starts
    /// (the library did the same work when it opened). `round` returns how many things it did,
    /// logged as `done` when there were any.
    public init(interval: Duration, logger: Logger, done: String, round: @escaping @Sendable () -> Int) {
        self.interval = interval
        self.logger = logger
        self.done = done
        self.round = round
    }

    /// How long photosd waits between two rounds of the Trash's expiry by default: an hour.
    public static let expiryInterval: Duration = .seconds(3600)

    /// Erases, every `interval`, the assets that have been in Recently Deleted longer than
    /// `trash_days`, with their files in the Trash; `erase` returns how many assets it erased.
    public static func trashExpiry(
        interval: Duration = expiryInterval, logger: Logger, erase: @escaping @Sendable () -> Int
    ) -> PacedService {
        PacedService(interval: interval, logger: logger, done: "expired deleted assets erased", round: erase)
    }

    /// How long photosd waits between two looks for a stopped process's file work by default.
    public static let stoppedWorkInterval: Duration = .seconds(30)

    /// Finishes, every `interval`, the file work that another process (`photos rm`, `photos trash
    /// restore`, an import) journaled and left when it stopped halfway, rather than at photosd's next
    /// start; `finish` returns how many journal entries it finished.
    public static func stoppedFileWork(
        interval: Duration = stoppedWorkInterval, logger: Logger, finish: @escaping @Sendable () -> Int
    ) -> PacedService {
        PacedService(
            interval: interval, logger: logger, done: "file work a stopped process left finished", round: finish)
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                let count = round()
                if count > 0 { logger.debug("\(done)", metadata: ["count": "\(count)"]) }
            }
        }
    }
}
