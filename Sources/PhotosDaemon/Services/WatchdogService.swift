import Logging
import ServiceLifecycle

/// Tells systemd how the daemon is doing: `READY=1` once the startup scan is done, `WATCHDOG=1`
/// at half the interval systemd asked for, `STOPPING=1` when a graceful shutdown begins.
///
/// Place it last in the service group: services stop in reverse order, so it announces the stop
/// first.
public final class WatchdogService: Service, Sendable {
    let notifier: SystemdNotifier
    let board: StatusBoard
    let logger: Logger
    private let changes: AsyncStream<Void>

    /// A watchdog service waiting for `board` to be ready.
    public init(notifier: SystemdNotifier, board: StatusBoard, logger: Logger) {
        self.notifier = notifier
        self.board = board
        self.logger = logger
        changes = board.subscribe()
    }

    public func run() async throws {
        await withGracefulShutdownHandler {
            // Cancelled when the shutdown begins, wherever it is waiting.
            try? await cancelWhenGracefulShutdown { [self] in
                if !board.read(\.isReady) {
                    for await _ in changes where board.read(\.isReady) { break }
                }
                guard !Task.isCancelled else { return }
                notifier.send("READY=1")
                logger.info("ready")
                guard let interval = notifier.watchdogInterval else {
                    for await _ in changes {}  // Nothing to feed: wait for the stop.
                    return
                }
                while !Task.isCancelled {
                    try await Task.sleep(for: interval / 2)
                    notifier.send("WATCHDOG=1")
                }
            }
        } onGracefulShutdown: {
            self.notifier.send("STOPPING=1")
            self.logger.info("stopping")
        }
    }
}
