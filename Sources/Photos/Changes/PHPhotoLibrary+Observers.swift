import Dispatch
import Foundation
import PhotosCore
import PhotosStore
import Synchronization

extension PHPhotoLibrary {
    /// Registers an observer for every committed change of this library, by this process or any
    /// other (the daemon ingesting files above all). It is held weakly, as in PhotoKit.
    public func register(_ observer: any PHPhotoLibraryChangeObserver) {
        observers.register(observer, library: self)
    }

    /// Stops telling an observer about changes.
    public func unregisterChangeObserver(_ observer: any PHPhotoLibraryChangeObserver) {
        observers.unregister(observer)
    }
}

/// Delivers change-log entries to a library's observers, one call per entry, in token order.
///
/// It reads the log through the store's one change feed (``LibraryDatabase/changeFeed(after:)``),
/// from one task that runs while an observer is registered and is cancelled when the last one goes.
/// The feed wakes at once for this process's commits and through inotify for other processes'; when
/// nobody writes, nothing runs. Observers are called on one serial queue, after any change block
/// of this process that is under way has finished (its files are in place), and held weakly.
final class ObserverCenter: Sendable {
    private struct Entry {
        weak var observer: (any PHPhotoLibraryChangeObserver)?
    }

    private struct State {
        var observers: [Entry] = []
        /// The task following the feed, while anyone is registered.
        var follower: Task<Void, Never>?
        /// Which follower is current: a follower cancelled or replaced delivers nothing more.
        var generation = 0
    }

    private let state = Mutex(State())
    /// The follower runs here, and calls the observers here, in order: on a serial dispatch queue
    /// of its own, not on Swift's cooperative pool, which has a thread per core that an app's (or a
    /// test run's) blocking work can hold for seconds. Entries read together are delivered in one
    /// go, without a hop between them.
    private let executor = QueueTaskExecutor(queue: DispatchQueue(label: "photos.library.observers"))

    /// How long the follower waits before reading again after the library could not be read: the
    /// feed stops at a failure, and an unreadable library (a disk gone, a damaged file) sends no
    /// commits to wake it. Doubles per failure up to the last value.
    static let retryDelays: [Duration] = [.milliseconds(100), .milliseconds(400), .seconds(2)]

    func register(_ observer: any PHPhotoLibraryChangeObserver, library: PHPhotoLibrary) {
        // A library that cannot be read now: the follower starts from the first token it can read.
        let start = Self.newestToken(library, while: "registering a change observer")
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            state.observers.append(Entry(observer: observer))
            guard state.follower == nil else { return }
            state.generation += 1
            let generation = state.generation
            let database = library.database
            let center = Weak(self)
            let library = Weak(library)
            state.follower = Task.detached(executorPreference: executor) {
                await Self.follow(database, from: start, generation: generation, center: center, library: library)
            }
        }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        let follower = state.withLock { state -> Task<Void, Never>? in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            guard state.observers.isEmpty else { return nil }
            defer {
                state.follower = nil
                state.generation += 1
            }
            return state.follower
        }
        follower?.cancel()
    }

    deinit {
        state.withLock { $0.follower?.cancel() }
    }

    /// The newest token, or nil (reported) when the library cannot be read.
    private static func newestToken(_ library: PHPhotoLibrary, while action: String) -> Int64? {
        do {
            return try library.database.currentToken()
        } catch {
            library.storeFailed(error, while: action)
            return nil
        }
    }

    /// The follower: reads the feed from `start` and delivers each entry, until cancelled, until
    /// the library or the center is gone, or until no observer is left. The center and the library
    /// are held only while an entry is delivered, never while the feed waits.
    private static func follow(
        _ database: LibraryDatabase, from start: Int64?, generation: Int,
        center: Weak<ObserverCenter>, library: Weak<PHPhotoLibrary>
    ) async {
        var token = start
        var failures = 0
        while !Task.isCancelled {
            do {
                let from = try token ?? database.currentToken()
                token = from
                for try await entry in database.changeFeed(after: from) {
                    guard let center = center.object, let library = library.object,
                        center.deliver(entry, generation: generation, library: library)
                    else { return }
                    token = entry.token
                    failures = 0
                }
                return  // The feed ends only when the task is cancelled.
            } catch {
                guard let library = library.object else { return }
                if let error = error as? StoreError, error.code == .historyExpired {
                    // The observers fell further behind than the history kept (a burst of more
                    // than `changeHistoryLimit` commits while they were busy): they go on from the
                    // library as it is now. A fetch result's change details still bring it up to
                    // date, by fetching again.
                    library.configuration.logger.warning(
                        "change observers fell behind the history kept; going on from the newest change",
                        metadata: ["library.path": "\(database.path ?? "memory")", "change.token": "\(token ?? 0)"])
                    token = nil
                    continue
                }
                library.storeFailed(error, while: "reading changes for observers")
                let delay = retryDelays[min(failures, retryDelays.count - 1)]
                failures += 1
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// Calls every observer with one entry; false when this follower should stop (it was
    /// replaced, or every observer is gone).
    private func deliver(_ entry: LibraryChange, generation: Int, library: PHPhotoLibrary) -> Bool {
        // A change block of this process commits on the change queue, then puts its files in place
        // there: waiting for what runs there now means observers find the files of the assets they
        // are told about. (Nothing on the change queue waits for the follower's queue.)
        library.changeQueue.sync {}
        let observers = state.withLock { state -> [any PHPhotoLibraryChangeObserver]? in
            guard state.generation == generation else { return nil }
            state.observers.removeAll { $0.observer == nil }
            guard !state.observers.isEmpty else {
                // Every observer went without unregistering: stop until one registers.
                state.follower = nil
                state.generation += 1
                return nil
            }
            return state.observers.compactMap(\.observer)
        }
        guard let observers else { return false }
        let change = PHChange(entry: entry, library: library)
        for observer in observers { observer.photoLibraryDidChange(change) }
        return true
    }
}

/// A reference that does not keep its object alive, to hand to a task.
struct Weak<Object: AnyObject & Sendable>: Sendable {
    weak var object: Object?

    init(_ object: Object) { self.object = object }
}

/// A task executor running jobs on a serial dispatch queue.
final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
