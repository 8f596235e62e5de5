import Dispatch
import Synchronization

extension LibraryDatabase {
    /// Calls `handler` whenever the library file may have a new commit, by any process, until the
    /// follower returned is cancelled or released: the database's one ``CommitSignal``, shared by
    /// every follower in this process (one inotify instance and watch, however many change feeds,
    /// observers, hooks and services follow).
    ///
    /// The handler runs on the signal's serial queue, after those of the followers before it: it
    /// must return at once (yield to a stream, count, signal a semaphore). Follow before reading
    /// the log, so that a commit landing between the read and the wait after it still wakes the
    /// wait. An in-memory library has no file to watch: its followers get the signal's timer.
    ///
    /// ```swift
    /// let (wakeups, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    /// let follower = database.followCommits { continuation.yield() }
    /// defer { follower.cancel() }
    /// for await _ in wakeups { print(try database.changes(after: token)) }
    /// ```
    public func followCommits(_ handler: @escaping @Sendable () -> Void) -> CommitFollower {
        switch engine {
        case .sqlite: commitFollowers.follow(path: path, handler)
        case .postgreSQL(let library): commitFollowers.follow(library.address, library.commits, handler)
        }
    }

    /// Whether only this process can write the library (one in memory): its own commits are all
    /// there is to follow.
    var isPrivate: Bool {
        guard case .sqlite = engine else { return false }
        return path == nil
    }

    /// What the shared commit signal uses now, or nil when nothing follows this database's commits.
    public var commitSignalMechanism: CommitSignal.Mechanism? { commitFollowers.mechanism }
}

/// One follower of a database's commits (``LibraryDatabase/followCommits(_:)``). Cancelling it, or
/// releasing it, stops its handler; the last one gone closes the signal's inotify descriptor.
public final class CommitFollower: Sendable {
    private let end: Mutex<(@Sendable () -> Void)?>

    init(end: @escaping @Sendable () -> Void) {
        self.end = Mutex(end)
    }

    /// Stops the handler: a call already under way finishes; none starts after it returns, unless
    /// the signal had already begun calling the followers. Calling it again does nothing.
    public func cancel() {
        let end = self.end.withLock { end in
            defer { end = nil }
            return end
        }
        end?()
    }

    deinit { cancel() }
}

/// The followers of one database's commits and the ``CommitSignal`` they share: made when the
/// first follows, cancelled when the last goes (so that a database nobody follows holds no inotify
/// descriptor).
final class CommitFollowers: Sendable {
    private struct State {
        var signal: CommitSignal?
        var listener: PostgreSQLFollower?
        var handlers: [Int: @Sendable () -> Void] = [:]
        var next = 0
    }

    private let state = Mutex(State())
    /// The signal's queue: the followers' handlers run here, one at a time.
    private let queue = DispatchQueue(label: "photos.commit-signal")

    /// Adds `handler` to the followers of the library at `path`, starting the signal for the first.
    func follow(path: String?, _ handler: @escaping @Sendable () -> Void) -> CommitFollower {
        let subscription = state.withLock { state in
            state.next += 1
            state.handlers[state.next] = handler
            if state.signal == nil {
                state.signal = CommitSignal(path: path, queue: queue) { [weak self] in self?.signalled() }
            }
            return state.next
        }
        return CommitFollower { [self] in unfollow(subscription) }
    }

    /// What the signal uses, while there is one.
    /// ``follow(path:_:)`` for a library kept in PostgreSQL: the first follower starts one LISTEN on
    /// its commits' channel, which every host's commit notifies.
    func follow(
        _ address: PostgreSQLAddress, _ commits: PostgreSQLCommits, _ handler: @escaping @Sendable () -> Void
    ) -> CommitFollower {
        let subscription = state.withLock { state in
            state.next += 1
            state.handlers[state.next] = handler
            if state.listener == nil {
                state.listener = PostgreSQLFollower(address, commits) { [weak self] in self?.signalled() }
            }
            return state.next
        }
        return CommitFollower { [self] in unfollow(subscription) }
    }

    var mechanism: CommitSignal.Mechanism? {
        state.withLock { $0.listener != nil ? .notify : $0.signal?.mechanism }
    }

    /// Calls every follower's handler (outside the lock: a handler may follow or cancel).
    private func signalled() {
        let handlers = state.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler() }
    }

    /// Removes a follower; the last one cancels the signal.
    private func unfollow(_ subscription: Int) {
        let (signal, listener) = state.withLock { state -> (CommitSignal?, PostgreSQLFollower?) in
            guard state.handlers.removeValue(forKey: subscription) != nil, state.handlers.isEmpty else {
                return (nil, nil)
            }
            defer { (state.signal, state.listener) = (nil, nil) }
            return (state.signal, state.listener)
        }
        signal?.cancel()
        listener?.cancel()
    }
}

/// One LISTEN on a PostgreSQL library's commits for this process's followers: `handler` runs for
/// each commit any host notifies. Where the server cannot be reached the follower tries again,
/// a second apart, and runs the handler once it listens again (commits made meanwhile are in the
/// log, which the followers read).
final class PostgreSQLFollower: Sendable {
    private let task: Task<Void, Never>

    init(_ address: PostgreSQLAddress, _ commits: PostgreSQLCommits, handler: @escaping @Sendable () -> Void) {
        task = Task.detached {
            while !Task.isCancelled {
                do {
                    let listener = try await PostgreSQLCommitListener.start(address, commits)
                    handler()
                    await withTaskCancellationHandler {
                        for await _ in listener.tokens { handler() }
                    } onCancel: {
                        listener.stop()
                    }
                    listener.stop()
                } catch {
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    /// Stops listening.
    func cancel() { task.cancel() }

    deinit { cancel() }
}
