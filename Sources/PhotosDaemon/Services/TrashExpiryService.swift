import Logging
import ServiceLifecycle

/// Erases, while photosd runs, the assets that have been in Recently Deleted longer than
/// `trash_days`, with their files in the Trash: once every `interval` (an hour by default), so that
/// a daemon that runs for months keeps to the days it was given, not only when it starts.
///
/// The work itself is the library's (`PHPhotoLibrary`'s expiry, which logs its own failures and
/// tries again next round); this service only paces it, and stops waiting at once when a graceful
/// shutdown begins.
///
/// ```swift
/// let expiry = TrashExpiryService(logger: logger) { library.eraseExpiredTrash() }
/// ```
public final class TrashExpiryService: Service, Sendable {
    /// How long photosd waits between two rounds by default.
    public static let defaultInterval: Duration = .seconds(3600)

    let interval: Duration
    let logger: Logger
    let erase: @Sendable () -> Int

    /// A service that calls `erase` every `interval`, the first time one interval after it starts
    /// (the library erased what was due when it opened). `erase` returns how many assets it erased.
    public init(interval: Duration = defaultInterval, logger: Logger, erase: @escaping @Sendable () -> Int) {
        self.interval = interval
        self.logger = logger
        self.erase = erase
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                let erased = erase()
                if erased > 0 { logger.debug("expired deleted assets erased", metadata: ["assets.count": "\(erased)"]) }
            }
        }
    }
}
