import Foundation
import Logging
import PhotosStore
import PhotosWire

/// Opens the daemon's library, waiting out what can pass: a volume not mounted yet, a full disk,
/// a lock, a permission being fixed. Each failed try is logged and written to the status file
/// (`photos status` shows it), and the next waits longer (``RetryBackoff``).
///
/// A damaged library or one made by a newer build will not mend by waiting: that error is thrown,
/// and photosd exits with it.
/// ```swift
/// let database = try await LibraryOpener(configuration: configuration, logger: logger).open()
/// ```
public struct LibraryOpener: Sendable {
    /// The library, roots and status file.
    public let configuration: DaemonConfiguration
    /// Where each failed try is logged.
    public let logger: Logger

    /// An opener for `configuration.libraryPath`.
    public init(configuration: DaemonConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Whether waiting can mend a failure to open.
    public static func isWorthRetrying(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return false }
        switch error.code {
        case .busy, .full, .readOnly, .permissionDenied, .unreachable, .notFound, .interrupted: return true
        case .corrupt, .newerSchema, .missingColumn, .historyExpired, .other: return false
        }
    }

    /// Opens the library, trying again after each failure worth retrying; returns it once open.
    public func open() async throws -> LibraryDatabase {
        var backoff = configuration.retryBackoff
        let startedAt = Date().timeIntervalSince1970
        while true {
            do {
                let database = try LibraryDatabase(location: configuration.libraryPath)
                if backoff.failures > 0 {
                    logger.info("the library can be used again", metadata: ["library.path": "\(database.location)"])
                }
                return database
            } catch  where Self.isWorthRetrying(error) {
                let delay = backoff.failed()
                logger.error(
                    "cannot open the library; trying again",
                    metadata: [
                        "library.path": "\(LibraryDatabase.shown(configuration.libraryPath))", "error": "\(error)",
                        "retry.seconds": "\(delay.seconds)", "failures": "\(backoff.failures)",
                    ])
                let now = Date().timeIntervalSince1970
                let status = DaemonStatus.waitingForLibrary(
                    startedAt: startedAt, roots: configuration.roots,
                    library: DaemonStatus.Library(
                        state: "unavailable", reason: "\(error)", consecutiveFailures: backoff.failures,
                        retryAt: now + delay.seconds))
                do {
                    try status.write(to: configuration.statusPath)
                } catch let statusError {
                    logger.warning(
                        "cannot write status",
                        metadata: ["file.path": "\(configuration.statusPath)", "error": "\(statusError)"])
                }
                try await Task.sleep(for: delay)
            }
        }
    }
}
