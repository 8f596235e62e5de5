import Dispatch
import PhotosCore
import Synchronization

/// A root's subdirectories being watched on a thread of their own (``InotifyMonitor/startRoot(_:)``):
/// which are watched so far, and a wait for one of them or for the end.
///
/// ```swift
/// let walk = try monitor.startRoot("/home/me/Pictures")
/// walk.waitUntilWatched("/home/me/Pictures/2024")   // its changes are events from here on
/// walk.waitUntilEnded()
/// ```
public final class RootWalk: WatchProgress, Sendable {
    /// The root, as the monitor names it.
    public let root: String

    private struct State {
        var watched: Set<String>
        var ended = false
        /// Threads waiting for a directory, each woken once.
        var waiters: [(directory: String?, wake: DispatchSemaphore)] = []
        /// Run once at the end, on the walk's thread.
        var whenEnded: [@Sendable () -> Void] = []
    }
    private let state: Mutex<State>

    init(root: String) {
        self.root = root
        state = Mutex(State(watched: [root]))
    }

    /// A walk that has ended: what a monitor without a background walk returns once its
    /// ``FileMonitor/addRoot(_:)`` is done.
    public static func ended(root: String) -> RootWalk {
        let walk = RootWalk(root: root)
        walk.end()
        return walk
    }

    /// Returns once `directory` is watched (its changes are events from then on), or once the
    /// walk has ended.
    public func waitUntilWatched(_ directory: String) {
        wait(for: directory)
    }

    /// Returns once the walk has ended: every directory it could watch is watched.
    public func waitUntilEnded() {
        wait(for: nil)
    }

    /// Whether the walk has ended.
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// Runs `body` once the walk has ended: at once, on this thread, when it has; else on the
    /// walk's thread as it ends.
    public func whenEnded(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.ended { return true }
            state.whenEnded.append(body)
            return false
        }
        if now { body() }
    }

    private func wait(for directory: String?) {
        let wake = DispatchSemaphore(value: 0)
        let waits = state.withLock { state -> Bool in
            if state.ended { return false }
            if let directory, state.watched.contains(directory) { return false }
            state.waiters.append((directory, wake))
            return true
        }
        if waits { wake.wait() }
    }

    /// Records directories now watched (the children of one directory, together), and wakes whoever
    /// waits for one of them.
    func watched(_ directories: [String]) {
        guard !directories.isEmpty else { return }
        let woken = state.withLock { state -> [DispatchSemaphore] in
            state.watched.formUnion(directories)
            guard !state.waiters.isEmpty else { return [] }
            var woken: [DispatchSemaphore] = []
            state.waiters.removeAll { waiter in
                guard let directory = waiter.directory, state.watched.contains(directory) else { return false }
                woken.append(waiter.wake)
                return true
            }
            return woken
        }
        for wake in woken { wake.signal() }
    }

    /// The walk is over: what waits for its end runs (what is added meanwhile too), then it has
    /// ended and every waiter is woken.
    func end() {
        while true {
            let bodies = state.withLock { state in
                defer { state.whenEnded = [] }
                if state.whenEnded.isEmpty { state.ended = true }
                return state.whenEnded
            }
            if bodies.isEmpty { break }
            for body in bodies { body() }
        }
        let woken = state.withLock { state in
            // What it watched is the monitor's to know from now on.
            state.watched = []
            defer { state.waiters = [] }
            return state.waiters.map(\.wake)
        }
        for wake in woken { wake.signal() }
    }
}
