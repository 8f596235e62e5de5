import Foundation
import PhotosLinux
import Synchronization

/// Watches directory trees with inotify and reports what changes in them as ``FileEvent``s.
///
/// Only directories are watched, one watch each, recursively: a directory created or moved into a
/// tree is watched at once and its contents are reported as `.created` (so `mkdir -p a/b/c && touch
/// a/b/c/x` loses nothing), a directory renamed inside the trees keeps its watches under its new
/// path, and one deleted or moved out stops being watched. Dot-directories are not watched. Watches
/// stay within a ``WatchBudget``; directories beyond it are reported `.budgetExhausted` and listed
/// in ``unwatchedDirectories``.
///
/// A dedicated thread (not one of Swift's cooperative pool) waits in `poll` on the inotify
/// descriptor and an `eventfd` that ``stop()`` signals. Events go through ``events``, a stream with
/// a bounded buffer: when the consumer falls that far behind, the affected root gets an `.overflow`
/// instead of a silent loss, as when the kernel's own queue overflows. Recrawl the root then.
///
/// ```swift
/// let monitor = try InotifyMonitor()
/// try monitor.addRoot("/home/me/Pictures")
/// for await event in monitor.events {
///     print(event)                      // "closedWrite /home/me/Pictures/2024/IMG_0001.jpg"
/// }
/// // elsewhere, at shutdown:
/// monitor.stop()                        // the loop above ends
/// ```
public final class InotifyMonitor: FileMonitor {
    /// What happens under the roots, in order, from the moment the monitor is created.
    ///
    /// One consumer: iterate it once. The stream finishes when the monitor stops.
    public let events: AsyncStream<FileEvent>

    let core: MonitorCore

    /// Called with each directory a walk is about to list for subdirectories (tests pause a
    /// walk there).
    let beforeListing = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// The stream's default buffer, in events.
    public static let defaultBufferSize = 4096

    /// Starts a monitor with no roots, and its reader thread.
    ///
    /// - Parameters:
    ///   - budget: the watches it may take; ``WatchBudget/system()`` by default.
    ///   - bufferSize: how many events wait for the consumer; beyond that, new events are dropped
    ///     and their root gets an `.overflow` as soon as there is room for it.
    /// - Throws: ``WatchError`` when the process has no descriptor or thread left.
    public init(
        budget: WatchBudget = .system(), bufferSize: Int = InotifyMonitor.defaultBufferSize
    ) throws(WatchError) {
        precondition(bufferSize > 0, "an event buffer needs room for at least one event")
        let (stream, continuation) = AsyncStream.makeStream(
            of: FileEvent.self, bufferingPolicy: .bufferingOldest(bufferSize))
        events = stream
        core = MonitorCore(handles: try InotifyHandles(), maxWatches: budget.available, continuation: continuation)
        let reader: SystemThread
        do {
            reader = try SystemThread(name: "photosd-inotify") { [core] in core.runReader() }
        } catch {
            throw WatchError(code: .systemCallFailed, message: "cannot start the inotify reader thread", cause: error)
        }
        core.state.withLock { $0.reader = reader }
    }

    deinit { stop() }

    /// Watches `path` and every directory under it, except dot-directories and what the budget
    /// does not allow (reported as `.budgetExhausted`).
    ///
    /// Existing files are not reported: a crawl does that. A root inside a root already watched
    /// is already covered; a root that contains watched roots takes them over. A root given as a
    /// symbolic link is followed; links below it are not.
    ///
    /// - Throws: ``WatchError``: `.notFound`, `.notADirectory`, `.permissionDenied` for the root
    ///   itself, `.watchLimitReached` when not even the root fits in the budget.
    public func addRoot(_ path: String) throws(WatchError) {
        guard let root = try watchRoot(path) else { return }
        walk(root, recordingIn: nil)
    }

    /// Watches `path` as ``addRoot(_:)`` does, but returns once the root itself is watched: the
    /// directories under it are watched on a thread of their own, shallow ones first and each
    /// directory's in name order (the order a scan lists them in), while a scan may list those
    /// already watched (``RootWalk/waitUntilWatched(_:)``).
    ///
    /// - Throws: what ``addRoot(_:)`` throws, for the root itself.
    public func startRoot(_ path: String) throws(WatchError) -> RootWalk {
        let normalized = path.normalizedPath(relativeTo: FileManager.default.currentDirectoryPath)
        guard let root = try watchRoot(path) else { return .ended(root: normalized) }
        let walk = RootWalk(root: root)
        let body: @Sendable () -> Void = { [self] in
            self.walk(root, recordingIn: walk)
            walk.end()
        }
        do {
            try SystemThread(name: "photosd-watch", body).detach()
        } catch {
            body()  // No thread to be had: the walk is done before returning.
        }
        return walk
    }

    /// Watches the root itself; nil when a root already watched covers it.
    private func watchRoot(_ path: String) throws(WatchError) -> String? {
        let root = path.normalizedPath(relativeTo: FileManager.default.currentDirectoryPath)
        let core = self.core
        let isCovered = try core.state.withLock { state throws(WatchError) -> Bool in
            if state.isStopped { throw WatchError(code: .stopped, message: "the monitor is stopped", path: root) }
            if state.roots.contains(where: { root.isWithin($0) }) { return true }
            for inner in state.roots where inner.isWithin(root) { core.dropRoot(inner, in: &state) }
            switch core.watch(root, root: root, isRoot: true, in: &state) {
            case .watched: state.roots.insert(root)
            case .refused:
                throw WatchError(code: .watchLimitReached, message: "the watch budget is spent", path: root)
            case .failed(let error): throw error
            }
            return false
        }
        return isCovered ? nil : root
    }

    /// Watches the directories under a watched root, breadth first, each directory's in name order.
    /// One directory per lock, so that the reader thread keeps draining the kernel's queue while a
    /// large tree is walked.
    private func walk(_ root: String, recordingIn progress: RootWalk?) {
        let core = self.core
        var queue = [root]
        var next = 0
        var linkCounting: [UInt64: Bool] = [:]
        while next < queue.count {
            let directory = queue[next]
            next += 1
            // Only directories are wanted here: none is in a directory that holds none.
            if directory != root, DirectoryListing.holdsNoDirectories(directory, devices: &linkCounting) { continue }
            beforeListing.withLock { $0 }?(directory)
            let children = DirectoryListing.entries(of: directory, directoriesOnly: true).filter { !$0.isHidden }
                .map { DirectoryListing.joined(directory, $0.name) }.sorted()
            var watched: [String] = []
            for child in children {
                let isWatched = core.state.withLock { state -> Bool? in
                    // The root went away meanwhile, or the monitor stopped.
                    guard !state.isStopped, state.roots.contains(root) else { return nil }
                    switch core.watch(child, root: root, in: &state) {
                    case .watched: return true
                    case .refused:
                        core.refuse(child, root: root, in: &state)
                        return false
                    case .failed: return false
                    }
                }
                guard let isWatched else { return }
                if isWatched {
                    queue.append(child)
                    watched.append(child)
                }
            }
            progress?.watched(watched)
        }
    }

    /// Stops watching the root `path` (as it was given to ``addRoot(_:)``) and every directory
    /// under it. A root inside another root shares that root's watches: removing it changes
    /// nothing, and removing the outer one leaves the inner unwatched until it is added again.
    public func removeRoot(_ path: String) {
        let root = path.normalizedPath(relativeTo: FileManager.default.currentDirectoryPath)
        let core = self.core
        core.state.withLock { state in
            guard !state.isStopped, state.roots.contains(root) else { return }
            core.dropRoot(root, in: &state)
        }
    }

    /// Stops the reader thread and finishes ``events``. Returns once the thread has ended; calling
    /// it again does nothing. Watches go when the descriptors close.
    public func stop() {
        let reader = core.state.withLock { state -> SystemThread? in
            state.isStopped = true
            defer { state.reader = nil }
            return state.reader
        }
        guard let reader else { return }
        EventCounter.signal(core.handles.wakeUp)
        if !reader.isCurrent { reader.join() }
        core.continuation.finish()
    }

    /// The roots being watched, sorted.
    public var roots: [String] { core.state.withLock { $0.roots.sorted() } }

    /// How many inotify watches the monitor holds now.
    public var watchCount: Int { core.state.withLock { $0.table.count } }

    /// The most watches the monitor will take (its budget's ``WatchBudget/available`` at start).
    public var watchLimit: Int { core.maxWatches }

    /// Directories not watched for lack of budget, sorted; nothing under them is watched either.
    /// Poll them instead.
    public var unwatchedDirectories: [String] { core.state.withLock { $0.unwatched.sorted() } }
}
