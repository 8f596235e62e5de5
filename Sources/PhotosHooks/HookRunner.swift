import Dispatch
import Foundation
import Logging
import PhotosCore
import PhotosStore
import PhotosLinux
import ServiceLifecycle
import Synchronization

/// The daemon's exec hooks: runs each configured hook with the changes it has not acknowledged,
/// as one JSON document on standard input, and keeps its cursor in the library. A webhook (a hook
/// with a ``HookDefinition/url``) is run the same way, its document POSTed instead (``HookPost``).
///
/// Delivery is at least once and in order. Each hook follows the change log through its own
/// ``ChangeFeed`` from its durable cursor; one run at a time per hook, and what arrives during a
/// run forms the next batch. The cursor moves only when the hook exits 0 (a webhook: answers 2xx).
/// A failed or timed-out run is given again after an exponential backoff; after
/// ``HookDefinition/maxFailures`` failures in a row the hook is parked until `photos hooks resume`.
/// A hook whose cursor fell out of the history gets one run with `"expired": true` and no changes. On graceful shutdown, running hooks get
/// SIGTERM (then SIGKILL) and their batches are given again after the restart.
///
/// `photos hooks resume` and `replay` change the hook's row from another process; the runner sees
/// the row's generation change (a commit signal wakes it) and starts that hook again from its cursor.
public final class HookRunner: Service, Sendable {
    /// What happened to one run; for status, tests and the benchmark.
    public enum Event: Sendable {
        /// The hook's process was started for the changes after `since` through `until`.
        case started(hook: String, since: Int64, until: Int64, at: ContinuousClock.Instant)
        /// The run ended.
        case finished(hook: String, until: Int64, outcome: String, success: Bool)
        /// The hook was parked.
        case parked(hook: String, reason: String)
    }

    /// The enabled hooks; a reload replaces them (``reload(_:)``).
    private let configured: Mutex<[HookDefinition]>
    /// Wakes the supervisor when ``reload(_:)`` changed the hooks.
    private let reloads: AsyncStream<Void>
    private let reloaded: AsyncStream<Void>.Continuation
    let database: LibraryDatabase
    let libraryPath: String
    let historyLimit: Int
    let logger: Logger
    let payloads: HookPayloadBuilder
    let environment: [String: String]
    /// Each exec hook's API token (`PHOTOS_SOCKET`, `PHOTOS_TOKEN`); a limited one follows the hook's albums.
    let tokens: HookTokens
    let onEvent: @Sendable (Event) -> Void
    /// Writes the hooks' cursors off the follow loops.
    let cursors: CursorWriter
    /// Selects each batch and builds its payload, below ingest's priority.
    /// (Nice +10: ingest gets the CPU first when both want it; the hooks catch up in the gaps.)
    let worker = WorkerThread(name: "photosd-hooks", priority: .lowered(by: 10))
    /// The wait after a first failure; it doubles with each failure in a row.
    let backoffBase: Duration
    /// Runs and failures per hook, for the process's metrics.
    let metrics: HookMetrics

    /// The longest wait between failed runs.
    public static let maximumBackoff: Duration = .seconds(300)

    /// A runner for `hooks` (disabled ones are skipped) over `database`, the library file at `libraryPath`.
    ///
    /// `historyLimit` bounds the change-log entries kept for hooks that lag behind. `environment` is
    /// the daemon's; hooks get only its `PATH`, `HOME`, `USER`, `LOGNAME`, `LANG`, `LC_*` and `TZ`,
    /// plus the `PHOTOS_*` variables, and their token's `PHOTOS_SOCKET` and `PHOTOS_TOKEN` (`tokens`).
    public init(
        hooks: [HookDefinition], database: LibraryDatabase, libraryPath: String, historyLimit: Int = 1_000_000,
        timeZone: TimeZone = .current, logger: Logger,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        tokens: HookTokens = HookTokens(), backoffBase: Duration = .seconds(1),
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.tokens = tokens
        self.backoffBase = backoffBase
        cursors = CursorWriter(database: database, logger: logger)
        configured = Mutex(hooks.filter(\.enabled))
        metrics = HookMetrics(hooks: hooks.filter(\.enabled).map(\.name))
        (reloads, reloaded) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.database = database
        self.libraryPath = libraryPath
        self.historyLimit = historyLimit
        self.logger = logger
        self.payloads = HookPayloadBuilder(database: database, timeZone: timeZone)
        self.environment = Self.minimalEnvironment(from: environment)
        self.onEvent = onEvent
    }

    /// Records the hooks in the library: a new one's cursor starts at the newest change, and a hook
    /// no longer configured is disabled (its cursor kept). Call it before anything else writes (the
    /// daemon does, before its startup scan), so that a new hook is given that scan's changes;
    /// ``run()`` calls it again, which changes nothing.
    public func enroll() throws {
        try database.enrollHooks(hooks.map(\.name), historyLimit: historyLimit)
    }

    /// The enabled hooks, as configured now.
    public var hooks: [HookDefinition] { configured.withLock { $0 } }

    /// What a ``reload(_:)`` changed, by hook name.
    public struct Changes: Sendable, Hashable {
        /// Hooks that were not configured (or not enabled) before.
        public var added: [String] = []
        /// Hooks no longer configured or enabled: disabled in the library, their cursors kept.
        public var removed: [String] = []
        /// Hooks whose definition changed: their run in flight is stopped (SIGTERM) and its batch
        /// given again under the new definition.
        public var changed: [String] = []
        /// Whether nothing changed.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

        /// No change.
        public init() {}
    }

    /// Replaces the hooks (a reload of the configuration): a new hook is enrolled (its cursor at the
    /// newest change: it is given what changes from now on), a removed one is disabled and its
    /// follower stopped, a changed one starts again from its cursor. Throws, changing nothing, when
    /// a predicate does not compile or the library cannot record the hooks.
    @discardableResult
    public func reload(_ hooks: [HookDefinition]) throws -> Changes {
        let filters = try hooks.filter(\.enabled).map { try HookFilter(hook: $0) }
        let old = Dictionary(self.hooks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes = Changes()
        for filter in filters {
            if let before = old[filter.hook.name] {
                if before != filter.hook { changes.changed.append(filter.hook.name) }
            } else {
                changes.added.append(filter.hook.name)
            }
        }
        changes.removed = old.keys.filter { name in !filters.contains { $0.hook.name == name } }.sorted()
        guard !changes.isEmpty else { return changes }
        // Enrolled before the supervisor sees them: a new hook's first change is one made after this.
        try database.enrollHooks(filters.map(\.hook.name), historyLimit: historyLimit)
        configured.withLock { $0 = filters.map(\.hook) }
        _ = HookMetrics(hooks: changes.added)  // a new hook's counters show 0 before its first run
        reloaded.yield()
        return changes
    }

    /// Enrolls the hooks, then runs them until graceful shutdown (running hooks get SIGTERM, then
    /// SIGKILL). With no hook enabled it waits for a ``reload(_:)`` to bring some.
    public func run() async throws {
        try enroll()
        // A predicate that does not compile stops the runner here, before any hook runs.
        _ = try hooks.map { try HookFilter(hook: $0) }
        let names = hooks.map(\.name)
        if !names.isEmpty { logger.info("hooks ready", metadata: ["hooks": "\(names.joined(separator: ","))"]) }
        await cancelWhenGracefulShutdown {
            await self.supervise()
        }
    }

    // MARK: Supervision

    /// How long after a commit the supervisor reads the hooks' rows.
    static let supervisionDelay: Duration = .milliseconds(200)

    /// Starts each hook's follower, and starts it again when its row's generation changes (resume,
    /// replay). Ends when cancelled, after every follower (and its process) has stopped.
    private func supervise() async {
        let (wakeups, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let follower = database.followCommits { continuation.yield() }
        defer { follower.cancel() }
        // A reload is looked at at once, not after the commit delay.
        let reloads = Task { [self] in
            for await _ in self.reloads { continuation.yield(()) }
        }
        defer { reloads.cancel() }
        var followers: [String: (generation: Int, hook: HookDefinition, task: Task<Void, Never>)] = [:]
        // Followers of removed hooks, stopping: a hook added again starts once its old process is gone.
        var retired: [String: Task<Void, Never>] = [:]
        func reconcile() {
            // Compiled when given (``run()``, ``reload(_:)``): none fails here.
            let filters = configured.withLock { $0 }.compactMap { try? HookFilter(hook: $0) }
            // Hooks a reload removed stop (their process gets SIGTERM); their cursors stay in the library.
            for (name, follower) in followers where !filters.contains(where: { $0.hook.name == name }) {
                follower.task.cancel()
                retired[name] = follower.task
                followers[name] = nil
            }
            guard !filters.isEmpty else { return }
            let states: [String: HookState]
            do {
                states = Dictionary(uniqueKeysWithValues: try database.hookStates().map { ($0.name, $0) })
            } catch {
                logger.error("cannot read the hooks' cursors", metadata: ["error": "\(error)"])
                return
            }
            for filter in filters {
                let name = filter.hook.name
                guard let state = states[name] else { continue }
                if let current = followers[name], current.generation == state.generation, current.hook == filter.hook {
                    continue
                }
                let previous = followers[name]?.task ?? retired.removeValue(forKey: name)
                previous?.cancel()
                let parked = state.isParked
                followers[name] = (
                    state.generation, filter.hook,
                    Task {
                        // One instance per hook: the old follower's process is gone before the new one starts.
                        await previous?.value
                        guard !parked, !Task.isCancelled else { return }
                        await self.follow(filter, generation: state.generation)
                    }
                )
            }
        }
        reconcile()
        await withTaskCancellationHandler {
            for await _ in wakeups {
                // Any process's commit wakes this, the daemon's own ingest included, while the rows
                // change only with `photos hooks resume|replay`: look once for a stream of commits,
                // a moment later, rather than beside each one.
                guard (try? await Task.sleep(for: Self.supervisionDelay)) != nil else { break }
                reconcile()
            }
        } onCancel: {
            continuation.finish()
        }
        for follower in followers.values { follower.task.cancel() }
        for follower in followers.values { await follower.task.value }
        for task in retired.values { await task.value }
        await cursors.drain()
    }

    // MARK: One hook

    /// Gives one hook its changes, batch after batch, until it is parked or cancelled.
    private func follow(_ filter: HookFilter, generation: Int) async {
        let hook = filter.hook
        let log = logger.with(hook: hook.name)
        guard var state = try? database.hookState(named: hook.name) else { return }
        var failures = state.failures
        var feed = database.changeFeed(after: state.cursor).makeAsyncIterator()
        var carried: LibraryChange?
        while !Task.isCancelled {
            if failures > 0 {
                // A hook that failed before a restart waits out its backoff again.
                guard (try? await Task.sleep(for: backoff(afterFailures: failures))) != nil else { return }
            }
            let since = state.cursor
            var entries: [LibraryChange] = []
            var expired = false
            do {
                let first: LibraryChange
                if let entry = carried {
                    first = entry
                    carried = nil
                } else {
                    guard let entry = try await feed.next() else { return }
                    first = entry
                }
                if hook.settle > .zero { try await Task.sleep(for: hook.settle) }
                entries = [first]
                var objects = first.objectCount
                while objects < hook.batch, let entry = try feed.nextCommitted() {
                    if objects + entry.objectCount > hook.batch {
                        carried = entry
                        break
                    }
                    entries.append(entry)
                    objects += entry.objectCount
                }
            } catch let error as StoreError where error.code == .historyExpired {
                expired = true
            } catch is CancellationError {
                return
            } catch {
                log.error("cannot read the change log", metadata: ["error": "\(error)"])
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                feed = database.changeFeed(after: state.cursor).makeAsyncIterator()
                carried = nil
                continue
            }

            let until: Int64
            let payload: [UInt8]
            let count: Int
            do {
                if expired {
                    until = try database.currentToken()
                    payload = try payloads.expired(hook: hook.name, since: since, until: until)
                    count = 0
                    refreshToken(of: hook, log: log)
                    log.warning("the hook's cursor fell out of the kept history: giving it an expired run",
                                metadata: ["since": "\(since)"])
                } else {
                    until = entries.last!.token
                    let batch = entries
                    let (database, payloads) = (self.database, self.payloads)
                    let built = try await worker.perform { () throws -> (count: Int, payload: [UInt8])? in
                        let selected = try filter.select(batch, in: database)
                        if selected.isEmpty { return nil }
                        // The hook is told about its albums as they are now: its token sees them too.
                        self.refreshToken(of: hook, log: log)
                        return (
                            selected.reduce(0) { $0 + $1.count },
                            try payloads.payload(hook: hook.name, since: since, until: until, changes: selected)
                        )
                    }
                    guard let built else {
                        // Nothing for this hook: the cursor moves without a run.
                        cursors.acknowledge(hook.name, through: until, generation: generation, objects: 0, run: nil)
                        state.cursor = until
                        continue
                    }
                    (count, payload) = built
                }
            } catch {
                log.error("cannot build the hook's payload", metadata: ["error": "\(error)"])
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                feed = database.changeFeed(after: state.cursor).makeAsyncIterator()
                carried = nil
                continue
            }

            let onEvent = self.onEvent
            let started: @Sendable () -> Void = {
                onEvent(.started(hook: hook.name, since: since, until: until, at: .now))
            }
            let outcome: HookProcess.Outcome
            if let url = hook.url {
                // A webhook: the same run, POSTed instead of given to a program.
                let post = HookPost(
                    url: url, secret: hook.secret, caFile: hook.caFile, hook: hook.name, timeout: hook.timeout, logger: log)
                outcome = await post.run(input: payload, since: since, until: until, started: started)
            } else {
                let process = HookProcess(
                    command: hook.command,
                    environment: environment.merging(
                        [
                            "PHOTOS_LIBRARY": libraryPath, "PHOTOS_HOOK": hook.name, "PHOTOS_SINCE": "\(since)",
                            "PHOTOS_UNTIL": "\(until)",
                        ].merging(tokens.environment(for: hook.name), uniquingKeysWith: { $1 }),
                        uniquingKeysWith: { $1 }),
                    timeout: hook.timeout, logger: log, niceness: hook.nice)
                outcome = await process.run(input: payload, started: started)
            }
            if outcome.termination == .cancelled || Task.isCancelled {
                log.info("stopped a run; its changes are given again after the restart",
                         metadata: ["since": "\(since)", "until": "\(until)"])
                return
            }
            let record = HookRunRecord(
                startedAt: outcome.startedAt.timeIntervalSince1970,
                duration: Double(outcome.duration.components.seconds)
                    + Double(outcome.duration.components.attoseconds) / 1e18,
                outcome: outcome.termination.description,
                errorTail: outcome.errorTail.isEmpty ? nil : outcome.errorTail,
                tailName: hook.url == nil ? "stderr" : "body")
            metrics.record(hook: hook.name, duration: outcome.duration, success: outcome.termination.isSuccess)
            onEvent(.finished(hook: hook.name, until: until, outcome: record.outcome, success: outcome.termination.isSuccess))
            do {
                if outcome.termination.isSuccess {
                    cursors.acknowledge(hook.name, through: until, generation: generation, objects: count, run: record)
                    log.debug("delivered", metadata: ["since": "\(since)", "until": "\(until)", "objects": "\(count)"])
                    state.cursor = until
                    failures = 0
                    if expired { feed = database.changeFeed(after: until).makeAsyncIterator() }
                } else {
                    guard let failed = try await cursors.recordFailure(
                        hook.name, generation: generation, run: record, maxFailures: hook.maxFailures)
                    else { return }
                    failures = failed.failures
                    if let reason = failed.parkedReason {
                        log.error("parked until `photos hooks resume \(hook.name)`", metadata: ["reason": "\(reason)"])
                        onEvent(.parked(hook: hook.name, reason: reason))
                        return
                    }
                    log.warning("run failed; trying again", metadata: [
                        "outcome": "\(record.outcome)", "failures": "\(failures)",
                        "retryIn": "\(backoff(afterFailures: failures))",
                    ])
                    // The same changes again, from the cursor.
                    feed = database.changeFeed(after: state.cursor).makeAsyncIterator()
                    carried = nil
                }
            } catch {
                log.error("cannot record the run", metadata: ["error": "\(error)"])
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                feed = database.changeFeed(after: state.cursor).makeAsyncIterator()
                carried = nil
            }
        }
    }

    /// ``backoffBase`` after the first failure, doubling, at most ``maximumBackoff``.
    /// Brings a limited hook's token up to its albums as the library has them now (an album a scan
    /// made since the last run); on a failure the run goes ahead with the token as it was.
    func refreshToken(of hook: HookDefinition, log: Logger) {
        do {
            if let albums = try tokens.refreshAlbums(of: hook, in: database) {
                log.info("the hook's limited token follows its albums", metadata: ["albums": "\(albums.count)"])
            }
        } catch {
            log.error("cannot bring the hook's token up to its albums", metadata: ["error": "\(error)"])
        }
    }

    func backoff(afterFailures failures: Int) -> Duration {
        min(backoffBase * (1 << min(max(failures - 1, 0), 16)), Self.maximumBackoff)
    }

    /// The few variables a hook inherits from the daemon.
    static func minimalEnvironment(from environment: [String: String]) -> [String: String] {
        var kept = environment.filter { key, _ in
            ["PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TMPDIR"].contains(key) || key.hasPrefix("LC_")
        }
        if kept["PATH"] == nil { kept["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        return kept
    }
}

/// Records the hooks' cursors on a serial queue of its own, in order.
///
/// A successful run's cursor is written without the hook's next run waiting for it: the write
/// may queue behind the daemon's own long transactions (a scan placing its albums), and the next
/// batch need not wait for that. Delivery stays at least once: after a crash, the durable cursor
/// is at most a little behind, and those changes are given again. Failures are recorded after
/// every acknowledgement before them, and awaited (they decide about parking).
final class CursorWriter: Sendable {
    let database: LibraryDatabase
    let logger: Logger
    private let queue = DispatchQueue(label: "photosd.hooks.cursors")

    init(database: LibraryDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Moves a hook's cursor to `token`, soon. A row moved meanwhile (resume, replay) wins.
    func acknowledge(_ name: String, through token: Int64, generation: Int, objects: Int, run: HookRunRecord?) {
        queue.async { [database, logger] in
            do {
                try database.acknowledgeHook(name, through: token, generation: generation, objects: objects, run: run)
            } catch {
                logger.error("cannot record the hook's cursor", metadata: ["hook": "\(name)", "error": "\(error)"])
            }
        }
    }

    /// Records a failed run after the acknowledgements before it; nil if the row had moved.
    func recordFailure(_ name: String, generation: Int, run: HookRunRecord, maxFailures: Int) async throws
        -> HookState?
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [database] in
                continuation.resume(
                    with: Result {
                        try database.recordHookFailure(name, generation: generation, run: run, maxFailures: maxFailures)
                    })
            }
        }
    }

    /// Waits for every write queued so far.
    func drain() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}

extension LibraryChange {
    /// How many objects the entry names.
    var objectCount: Int {
        [asset, assetCollection, collectionList].reduce(0) { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count }
    }
}

extension Logger {
    /// This logger with the hook's name in its metadata.
    func with(hook: String) -> Logger {
        var logger = self
        logger[metadataKey: "hook"] = "\(hook)"
        return logger
    }
}

extension HookRunner {
    /// The payload the hook's next run would get now (`photos hooks run NAME --dry-run`), or nil
    /// when nothing after its cursor passes its filter. Reads; changes nothing.
    public static func pendingPayload(
        for hook: HookDefinition, database: LibraryDatabase, timeZone: TimeZone = .current
    ) throws -> (since: Int64, until: Int64, payload: [UInt8])? {
        let builder = HookPayloadBuilder(database: database, timeZone: timeZone)
        let filter = try HookFilter(hook: hook)
        var since = try database.hookState(named: hook.name)?.cursor ?? database.currentToken()
        var feed = database.changeFeed(after: since).makeAsyncIterator()
        while true {
            var entries: [LibraryChange] = []
            var objects = 0
            do {
                while objects < hook.batch, let entry = try feed.nextCommitted() {
                    if !entries.isEmpty, objects + entry.objectCount > hook.batch { break }
                    entries.append(entry)
                    objects += entry.objectCount
                }
            } catch let error as StoreError where error.code == .historyExpired {
                let until = try database.currentToken()
                return (since, until, try builder.expired(hook: hook.name, since: since, until: until))
            }
            guard let until = entries.last?.token else { return nil }
            let selected = try filter.select(entries, in: database)
            if !selected.isEmpty {
                return (since, until, try builder.payload(hook: hook.name, since: since, until: until, changes: selected))
            }
            // Nothing in this batch for the hook; the run would be made of later entries.
            since = until
            feed = database.changeFeed(after: since).makeAsyncIterator()
        }
    }
}
