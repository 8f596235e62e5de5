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

    /// Registers an observer told each time the library's persistent change history grows (SDK
    /// 27): after every committed change, by this process or any other, in commit order. It then
    /// reads what changed with ``fetchPersistentChanges(since:)``. Held weakly, as in PhotoKit.
    ///
    /// The same follower of the change log serves it as the ``PHPhotoLibraryChangeObserver``s: one
    /// feed, one watch on the library's folder, however many observers of either kind. A type that
    /// adopts both protocols says which it registers, as with Apple's SDK:
    /// `library.register(self as any PHPhotoLibraryPersistentChangesObserver)`.
    public func register(_ observer: any PHPhotoLibraryPersistentChangesObserver) {
        observers.register(persistent: observer, library: self)
    }

    /// Stops telling a persistent-changes observer that the history grew.
    public func unregisterPersistentChangesObserver(_ observer: any PHPhotoLibraryPersistentChangesObserver) {
        observers.unregister(persistent: observer)
    }
}

/// Delivers change-log entries to a library's observers, one call per entry, in token order: a
/// ``PHChange`` to each ``PHPhotoLibraryChangeObserver``, and the news that the history grew to each
/// ``PHPhotoLibraryPersistentChangesObserver``, in the order they registered.
///
/// It reads the log through the store's one change feed (``LibraryDatabase/changeFeed(after:)``),
/// from one task that runs while an observer is registered and is cancelled when the last one goes.
/// The feed wakes at once for this process's commits and through inotify for other processes'; when
/// nobody writes, nothing runs. Observers are called on one serial queue, after any change block
/// of this process that is under way has finished (its files are in place), and held weakly.
final class ObserverCenter: Sendable {
    /// One registration: of a change observer or of a persistent-changes observer.
    ///
    /// `@unchecked Sendable`: observers need not be `Sendable` (PhotoKit's protocols are not). The
    /// center only compares them by identity under `state`'s lock and calls them on its one serial
    /// queue, one call at a time.
    private struct Entry: @unchecked Sendable {
        weak var observer: (any PHPhotoLibraryChangeObserver)?
        weak var persistent: (any PHPhotoLibraryPersistentChangesObserver)?

        /// Whether the object registered has gone without unregistering.
        var isGone: Bool { observer == nil && persistent == nil }
    }

    /// A registered observer held for one delivery (`@unchecked Sendable` as ``Entry`` is).
    private enum Held: @unchecked Sendable {
        case change(any PHPhotoLibraryChangeObserver)
        case persistent(any PHPhotoLibraryPersistentChangesObserver)
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
        add(Entry(observer: observer), library: library) { $0.observer === observer }
    }

    func register(persistent observer: any PHPhotoLibraryPersistentChangesObserver, library: PHPhotoLibrary) {
        add(Entry(persistent: observer), library: library) { $0.persistent === observer }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        remove { $0.observer === observer }
    }

    func unregister(persistent observer: any PHPhotoLibraryPersistentChangesObserver) {
        remove { $0.persistent === observer }
    }

    /// Registers `entry` in place of an earlier registration of the same object (`same`), and
    /// starts the follower if it is not running.
    private func add(_ entry: Entry, library: PHPhotoLibrary, same: (Entry) -> Bool) {
        // A library that cannot be read now: the follower starts from the first token it can read.
        let start = Self.newestToken(library, while: "registering a change observer")
        state.withLock { state in
            state.observers.removeAll { $0.isGone || same($0) }
            state.observers.append(entry)
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

    /// Removes the registrations `matching` says; the last one gone stops the follower.
    private func remove(matching: (Entry) -> Bool) {
        let follower = state.withLock { state -> Task<Void, Never>? in
            state.observers.removeAll { $0.isGone || matching($0) }
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
                        metadata: ["library.path": "\(database.location)", "change.token": "\(token ?? 0)"])
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
        let observers = state.withLock { state -> [Held]? in
            guard state.generation == generation else { return nil }
            state.observers.removeAll(where: \.isGone)
            guard !state.observers.isEmpty else {
                // Every observer went without unregistering: stop until one registers.
                state.follower = nil
                state.generation += 1
                return nil
            }
            return state.observers.compactMap { entry in
                entry.observer.map(Held.change) ?? entry.persistent.map(Held.persistent)
            }
        }
        guard let observers else { return false }
        let change = PHChange(entry: entry, library: library)
        for observer in observers {
            switch observer {
            case .change(let observer): observer.photoLibraryDidChange(change)
            case .persistent(let observer): observer.photoLibraryPersistentChangesDidUpdate(library)
            }
        }
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
