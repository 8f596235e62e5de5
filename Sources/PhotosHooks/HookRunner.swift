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
/// A hook whose cursor fell out of the history gets one run with `"expired": true` and no changes.
/// On graceful shutdown, running hooks get SIGTERM (then SIGKILL) and their batches are given
/// again after the restart.
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
        let enabled = hooks.filter(\.enabled)
        for hook in enabled { try hook.validate() }
        let old = Dictionary(self.hooks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes = Changes()
        for hook in enabled {
            if let before = old[hook.name] {
                if before != hook { changes.changed.append(hook.name) }
            } else {
                changes.added.append(hook.name)
            }
        }
        changes.removed = old.keys.filter { name in !enabled.contains { $0.name == name } }.sorted()
        guard !changes.isEmpty else { return changes }
        // Enrolled before the supervisor sees them: a new hook's first change is one made after this.
        try database.enrollHooks(enabled.map(\.name), historyLimit: historyLimit)
        configured.withLock { $0 = enabled }
        _ = HookMetrics(hooks: changes.added)  // a new hook's counters show 0 before its first run
        reloaded.yield()
        return changes
    }

    /// Enrolls the hooks, then runs them until graceful shutdown (running hooks get SIGTERM, then
    /// SIGKILL). With no hook enabled it waits for a ``reload(_:)`` to bring some.
    public func run() async throws {
        try enroll()
        // A predicate that does not compile stops the runner here, before any hook runs.
        for hook in hooks { try hook.validate() }
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
            // Their predicates compiled when they were given (``run()``, ``reload(_:)``).
            let hooks = configured.withLock { $0 }
            // Hooks a reload removed stop (their process gets SIGTERM); their cursors stay in the library.
            for (name, follower) in followers where !hooks.contains(where: { $0.name == name }) {
                follower.task.cancel()
                retired[name] = follower.task
                followers[name] = nil
            }
            guard !hooks.isEmpty else { return }
            let states: [String: HookState]
            do {
                states = Dictionary(uniqueKeysWithValues: try database.hookStates().map { ($0.name, $0) })
            } catch {
                logger.error("cannot read the hooks' cursors", metadata: ["error": "\(error)"])
                return
            }
            for hook in hooks {
                let name = hook.name
                guard let state = states[name] else { continue }
                if let current = followers[name], current.generation == state.generation, current.hook == hook {
                    continue
                }
                let previous = followers[name]?.task ?? retired.removeValue(forKey: name)
                previous?.cancel()
                let parked = state.isParked
                followers[name] = (
                    state.generation, hook,
                    Task {
                        // One instance per hook: the old follower's process is gone before the new one starts.
                        await previous?.value
                        guard !parked, !Task.isCancelled else { return }
                        await self.follow(hook, generation: state.generation)
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

    /// Gives one hook its changes, run after run, until it is parked or cancelled: waits for
    /// commits and batches them (``HookBatches``), keeps what is in the hook's scope and builds the
    /// payload (``prepare(_:since:for:selector:log:)``), delivers it (``HookDelivery``), then
    /// acknowledges the run or backs off (``conclude(_:of:outcome:delivery:generation:log:)``).
    private func follow(_ hook: HookDefinition, generation: Int) async {
        let log = logger.with(hook: hook.name)
        guard let state = try? database.hookState(named: hook.name), let selector = try? hook.selector(in: database)
        else { return }
        var cursor = state.cursor
        var failures = state.failures
        var batches = HookBatches(database: database, after: cursor, limit: hook.batch)
        while !Task.isCancelled {
            // A hook that failed (before a restart too) waits out its backoff.
            if failures > 0, (try? await Task.sleep(for: backoff(afterFailures: failures))) == nil { return }
            let batch: HookBatches.Batch
            do {
                guard let next = try await batches.next(settle: hook.settle) else { return }
                batch = next
            } catch is CancellationError {
                return
            } catch {
                guard await pause(after: "cannot read the change log", error, log: log) else { return }
                batches.rewind(to: cursor)
                continue
            }
            let run: Run
            do {
                run = try await prepare(batch, since: cursor, for: hook, selector: selector, log: log)
            } catch {
                guard await pause(after: "cannot build the hook's payload", error, log: log) else { return }
                batches.rewind(to: cursor)
                continue
            }
            guard let payload = run.payload else {
                // Nothing for this hook: the cursor moves without a run.
                cursors.acknowledge(hook.name, through: run.until, generation: generation, objects: 0, run: nil)
                cursor = run.until
                continue
            }
            let delivery = self.delivery(for: hook, log: log)
            let (onEvent, since, until) = (self.onEvent, run.since, run.until)
            let outcome = await delivery.deliver(payload, since: since, until: until) {
                onEvent(.started(hook: hook.name, since: since, until: until, at: .now))
            }
            if outcome.termination == .cancelled || Task.isCancelled {
                log.info(
                    "stopped a run; its changes are given again after the restart",
                    metadata: ["since": "\(since)", "until": "\(until)"])
                return
            }
            let conclusion = await conclude(
                run, of: hook, outcome: outcome, delivery: delivery, generation: generation, log: log)
            switch conclusion {
            case .delivered:
                cursor = until
                failures = 0
                // After an expired run, the log is read from the new cursor.
                if run.expired { batches.rewind(to: cursor) }
            case .failed(let count):
                failures = count
                // The same changes again, from the cursor.
                batches.rewind(to: cursor)
            case .unrecorded:
                batches.rewind(to: cursor)
            case .stopped:
                return
            }
        }
    }

    /// One run of a hook: the changes after `since` through `until`, and the payload it is given
    /// (nil: nothing in the hook's scope, the cursor moves without a run).
    struct Run: Sendable {
        var since: Int64
        var until: Int64
        /// The objects the payload names.
        var objects = 0
        var payload: [UInt8]?
        /// Whether the run is an `expired` one: the log no longer held the entries after `since`.
        var expired = false
    }

    /// Keeps what of `batch` is in the hook's scope and builds its payload, below ingest's
    /// priority. The hook's limited token is brought up to its albums before a run.
    private func prepare(
        _ batch: HookBatches.Batch, since: Int64, for hook: HookDefinition, selector: ChangeScope.Selector, log: Logger
    ) async throws -> Run {
        guard case .changes(let entries) = batch else {
            let until = try database.currentToken()
            let payload = try payloads.expired(hook: hook.name, since: since, until: until)
            refreshToken(of: hook, log: log)
            log.warning(
                "the hook's cursor fell out of the kept history: giving it an expired run",
                metadata: ["since": "\(since)"])
            return Run(since: since, until: until, payload: payload, expired: true)
        }
        let until = entries.last!.token
        let payloads = self.payloads
        return try await worker.perform { () throws -> Run in
            // A hook's scope (bound by its albums' assets) remembers nothing between batches.
            var selector = selector
            let selected = try selector.select(entries)
            if selected.isEmpty { return Run(since: since, until: until) }
            // The hook is told about its albums as they are now: its token sees them too.
            self.refreshToken(of: hook, log: log)
            return Run(
                since: since, until: until, objects: selected.reduce(0) { $0 + $1.objectCount },
                payload: try payloads.payload(hook: hook.name, since: since, until: until, changes: selected))
        }
    }

    /// How the hook is given its payload: POSTed to its URL (a webhook) or on its program's
    /// standard input, with the few variables of the daemon's it keeps and its `PHOTOS_*` ones.
    private func delivery(for hook: HookDefinition, log: Logger) -> any HookDelivery {
        if let url = hook.url {
            return HookPost(
                url: url, secret: hook.secret, caFile: hook.caFile, hook: hook.name, timeout: hook.timeout, logger: log)
        }
        let own = ["PHOTOS_LIBRARY": libraryPath, "PHOTOS_HOOK": hook.name]
            .merging(tokens.environment(for: hook.name), uniquingKeysWith: { $1 })
        return HookProcess(
            command: hook.command, environment: environment.merging(own, uniquingKeysWith: { $1 }),
            timeout: hook.timeout, logger: log, niceness: hook.nice)
    }

    /// What became of a run that ended.
    enum Conclusion {
        /// It succeeded: the cursor moves to its `until`.
        case delivered
        /// It failed, `failures` times in a row now: it is given again after the backoff.
        case failed(failures: Int)
        /// The library could not record it: it is given again, a second later.
        case unrecorded
        /// The hook stops here: parked, its row moved by another process, or cancelled.
        case stopped
    }

    /// Records a run that ended: a success moves the hook's cursor; a failure counts, and parks
    /// the hook after ``HookDefinition/maxFailures`` in a row.
    private func conclude(
        _ run: Run, of hook: HookDefinition, outcome: HookProcess.Outcome, delivery: any HookDelivery,
        generation: Int, log: Logger
    ) async -> Conclusion {
        let record = outcome.record(tailName: delivery.tailName)
        let success = outcome.termination.isSuccess
        metrics.record(hook: hook.name, duration: outcome.duration, success: success)
        onEvent(.finished(hook: hook.name, until: run.until, outcome: record.outcome, success: success))
        if success {
            cursors.acknowledge(
                hook.name, through: run.until, generation: generation, objects: run.objects, run: record)
            log.debug(
                "delivered", metadata: ["since": "\(run.since)", "until": "\(run.until)", "objects": "\(run.objects)"])
            return .delivered
        }
        do {
            guard
                let failed = try await cursors.recordFailure(
                    hook.name, generation: generation, run: record, maxFailures: hook.maxFailures)
            else { return .stopped }
            if let reason = failed.parkedReason {
                log.error("parked until `photos hooks resume \(hook.name)`", metadata: ["reason": "\(reason)"])
                onEvent(.parked(hook: hook.name, reason: reason))
                return .stopped
            }
            log.warning(
                "run failed; trying again",
                metadata: [
                    "outcome": "\(record.outcome)", "failures": "\(failed.failures)",
                    "retryIn": "\(backoff(afterFailures: failed.failures))",
                ])
            return .failed(failures: failed.failures)
        } catch {
            return await pause(after: "cannot record the run", error, log: log) ? .unrecorded : .stopped
        }
    }

    /// Logs `error` and waits a second before the hook's log is read again; false when cancelled meanwhile.
    private func pause(after what: Logger.Message, _ error: any Error, log: Logger) async -> Bool {
        log.error(what, metadata: ["error": "\(error)"])
        return (try? await Task.sleep(for: .seconds(1))) != nil
    }

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

    /// ``backoffBase`` after the first failure, doubling, at most ``maximumBackoff``.
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
    /// when nothing after its cursor is in its scope. Reads; changes nothing.
    public static func pendingPayload(
        for hook: HookDefinition, database: LibraryDatabase, timeZone: TimeZone = .current
    ) throws -> (since: Int64, until: Int64, payload: [UInt8])? {
        let builder = HookPayloadBuilder(database: database, timeZone: timeZone)
        var selector = try hook.selector(in: database)
        var since = try database.hookState(named: hook.name)?.cursor ?? database.currentToken()
        var batches = HookBatches(database: database, after: since, limit: hook.batch)
        while let batch = try batches.ready() {
            guard case .changes(let entries) = batch else {
                let until = try database.currentToken()
                return (since, until, try builder.expired(hook: hook.name, since: since, until: until))
            }
            let until = entries.last!.token
            let selected = try selector.select(entries)
            if !selected.isEmpty {
                let payload = try builder.payload(hook: hook.name, since: since, until: until, changes: selected)
                return (since, until, payload)
            }
            // Nothing in this batch for the hook; the run would be made of later entries.
            since = until
        }
        return nil
    }
}
