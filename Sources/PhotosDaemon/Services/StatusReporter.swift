import Foundation
import Logging
import PhotosCore
import PhotosLinux
import PhotosStore
import PhotosWire
import PhotosWatcher
import ServiceLifecycle
import Synchronization

/// Writes the ``StatusBoard`` to the status file for `photos status`: after the startup scan,
/// after published changes (at most every ``minimumInterval``: a stream of arrivals makes a few
/// writes a second, not one fsync'd file per file), and once more when the daemon stops. A change
/// after the first write is written ``delay`` after it is published, not at once: a scan publishes
/// as it commits, and the commit's observers and hooks get the cores first.
///
/// The file is ``DaemonStatus`` as JSON with each of the board's ``StatusBoard/Board/sections``
/// as one more top-level key. No file exists before the startup scan is done, so that scripts
/// and tests can take its appearance as "ready".
public final class StatusReporter: Service, Sendable {
    let board: StatusBoard
    let roots: WatchedRoots
    let policies: LibraryRoots
    let monitor: any FileMonitor
    let path: String
    let logger: Logger
    private let changes: AsyncStream<Void>

    /// A reporter writing `board` to `path`; the roots' writability is looked at every
    /// `restrictionInterval`.
    public init(
        board: StatusBoard, roots: WatchedRoots, policies: LibraryRoots = LibraryRoots([]), monitor: any FileMonitor,
        path: String, logger: Logger, restrictionInterval: Duration = .seconds(5)
    ) {
        self.restrictionInterval = restrictionInterval
        self.board = board
        self.roots = roots
        self.policies = policies
        self.monitor = monitor
        self.path = path
        self.logger = logger
        // Subscribed now, so that no update made before `run` starts is missed.
        changes = board.subscribe()
    }

    /// The status now, as the file would say it (without added sections).
    public var status: DaemonStatus { board.status(roots: roots, policies: policies, monitor: monitor) }

    /// The least time between two writes; what changes meanwhile is in the next one.
    static let minimumInterval: Duration = .milliseconds(250)
    /// How long after a change is published it is written.
    static let delay: Duration = .milliseconds(30)

    public func run() async throws {
        await cancelWhenGracefulShutdown { [changes] in
            await withDiscardingTaskGroup { group in
                group.addTask { await self.followWriteRestrictions() }
                // The first write, the file's appearance that says "ready", is made at once: what
                // waits for it (scripts, tests, `photos status`) waits for nothing else.
                var ready = false
                for await _ in changes where self.board.read(\.isReady) {
                    if ready { try? await Task.sleep(for: Self.delay) }
                    self.write()
                    try? await Task.sleep(for: Self.minimumInterval - (ready ? Self.delay : .zero))
                    ready = true
                }
                group.cancelAll()
            }
        }
        // The last word: the totals and root states at exit.
        write()
    }

    /// How often the roots that may be written are looked at for whether they can be (a disk
    /// remounted read-only, or back, tells the daemon nothing).
    let restrictionInterval: Duration

    /// Publishes a change whenever a root that may be written becomes unwritable or writable
    /// again, so that the status file's `WRITE` column says so within ``restrictionInterval``.
    private func followWriteRestrictions() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: restrictionInterval)
            // Against what the file says, not what this loop saw before: a change between the
            // file's write and this loop's start is caught too.
            guard let written = writtenRestrictions.withLock({ $0 }) else { continue }
            if writeRestrictions() != written { board.update { _ in } }
        }
    }

    /// The write restrictions of the roots as the file last written says them (nil: none written).
    private let writtenRestrictions = Mutex<[String?]?>(nil)

    /// Why each root that may be written cannot be now (nil: it can), as the status says it.
    private func writeRestrictions() -> [String?] {
        roots.paths.map { path in
            let policy = policies.roots.first { $0.path == path }?.write ?? .none
            return policy == .none ? nil : FileOperations.writeRestriction(ofDirectory: path)
        }
    }

    /// Writes the file now.
    public func write() {
        let status = self.status
        do {
            try StatusDocument(status: status, sections: board.read(\.sections)).write(to: path)
            writeFailed.withLock { $0 = false }
            writtenRestrictions.withLock { $0 = status.roots.map(\.writeRestriction) }
        } catch {
            writeFailed.withLock { $0 = true }
            logger.warning("cannot write status", metadata: ["file.path": "\(path)", "error": "\(error)"])
        }
    }

    /// Whether the last write of the file failed (its disk full or read-only): the file then says
    /// what was, not what is.
    private let writeFailed = Mutex(false)

    /// The status to tell a client: the file's, as `read` reads it, unless the reporter could not
    /// write it last time, and then the status now, with the hooks' rows as the file last had them.
    /// A library whose disk is full fails its scans and cannot write the file either: its health
    /// must not say "ok" from the file written before.
    public func status(readingFile read: () throws -> DaemonStatus?) throws -> DaemonStatus? {
        guard writeFailed.withLock({ $0 }) else { return try read() }
        var now = status
        now.hooks = (try? read())?.hooks ?? now.hooks
        return now
    }
}

/// The status file's content: ``DaemonStatus`` and the sections other services added.
struct StatusDocument: Encodable {
    let status: DaemonStatus
    let sections: [String: any Encodable & Sendable]

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The keys of ``DaemonStatus`` itself, which a section may not replace.
    static let reservedKeys: Set<String> = {
        var status = DaemonStatus.waitingForLibrary(
            startedAt: 0, roots: [], library: .init(state: "", reason: "", consecutiveFailures: 0, retryAt: 0))
        // Optional keys are written only when set: set them, so that they are reserved too.
        status.hooks = []
        let data = (try? JSONEncoder().encode(status)) ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return Set(object.map { Array($0.keys) } ?? [])
    }()

    func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in sections where !Self.reservedKeys.contains(key) {
            try container.encode(value, forKey: Key(stringValue: key))
        }
    }

    /// Writes the document atomically (a reader never sees half a file), private to the user (0600:
    /// it names every root), formatted as ``DaemonStatus/write(to:)`` formats it.
    func write(to path: String) throws {
        guard !sections.isEmpty else { return try status.write(to: path) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try PrivateFiles.write(try encoder.encode(self), atomicallyTo: path)
    }
}
