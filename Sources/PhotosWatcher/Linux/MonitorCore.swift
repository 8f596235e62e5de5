import Glibc
import PhotosLinux
import Synchronization

/// What the monitor knows, guarded by one `Mutex`: the reader thread and callers of
/// ``InotifyMonitor/addRoot(_:)`` take turns.
struct MonitorState: Sendable {
    /// A directory event that waits a moment for the events that complete it: a rename away
    /// (`IN_MOVED_FROM` with `IN_ISDIR`) for its `IN_MOVED_TO`, an unmount for those of the
    /// directories above it.
    struct Pending: Sendable {
        var path: String
        var root: String
        var at: ContinuousClock.Instant
    }

    var table = WatchTable()
    var roots: Set<String> = []
    /// Directories refused for the budget; their subtrees are not watched either.
    var unwatched: Set<String> = []
    var pendingMoves: [UInt32: Pending] = [:]
    /// Watched directories whose file system was unmounted, inside a root.
    var pendingUnmounts: [String: Pending] = [:]
    /// Roots whose `.overflow` the consumer is owed: events for them were dropped.
    var overflowedRoots: Set<String> = []
    /// Roots reported as unmounted, whose final `IN_IGNORED` needs no `.watchRemoved`.
    var unmountedRoots: Set<String> = []
    var reader: SystemThread?
    var isStopped = false

    /// Whether the reader must wake on a timer: to pair or expire a directory move, to report an
    /// unmount, or to retry delivering an owed overflow.
    var hasTimedWork: Bool { !pendingMoves.isEmpty || !pendingUnmounts.isEmpty || !overflowedRoots.isEmpty }
}

/// The part of a monitor its reader thread shares: descriptors, state and the stream's
/// continuation. The public ``InotifyMonitor`` owns one; the thread keeps it alive while it runs.
final class MonitorCore: Sendable {
    let handles: InotifyHandles
    let state = Mutex(MonitorState())
    let continuation: AsyncStream<FileEvent>.Continuation
    /// The most watches this monitor takes (``WatchBudget/available`` when it started).
    let maxWatches: Int

    /// How long a directory's `IN_MOVED_FROM` waits for its `IN_MOVED_TO` before the directory
    /// counts as moved out of the watched trees. The kernel queues both within one `rename`, so
    /// the pair is normally in the same `read`.
    static let moveTimeout = Duration.milliseconds(10)
    /// The size of the read buffer: room for about 2,000 events with short names.
    static let bufferSize = 64 * 1024

    init(handles: InotifyHandles, maxWatches: Int, continuation: AsyncStream<FileEvent>.Continuation) {
        self.handles = handles
        self.maxWatches = maxWatches
        self.continuation = continuation
    }

    // MARK: - Reader thread

    /// The reader thread's loop: wait in `poll` for events or the wake-up, read, handle, repeat.
    func runReader() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.bufferSize, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        var descriptors = [
            pollfd(fd: handles.inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: handles.wakeUp, events: Int16(POLLIN), revents: 0),
        ]
        let failure = Int16(POLLERR | POLLHUP | POLLNVAL)
        while true {
            let timeout: Int32 = state.withLock { $0.hasTimedWork } ? 10 : -1
            guard (try? Syscall.poll(&descriptors, timeout: timeout)) != nil else { break }
            if descriptors[1].revents != 0 || descriptors[0].revents & failure != 0 { break }
            var events: [RawInotifyEvent] = []
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                let count: Int?
                do { count = try Inotify.read(fd: handles.inotify, into: buffer) } catch { break }
                if let count {
                    events = InotifyEventParser.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
            }
            let now = ContinuousClock.now
            state.withLock { state in
                for event in events { handle(event, at: now, in: &state) }
                expirePending(at: now, in: &state)
                flushOverflow(in: &state)
            }
        }
        continuation.finish()
    }

    /// Turns one kernel event into stream events and watch-table changes.
    func handle(_ event: RawInotifyEvent, at now: ContinuousClock.Instant, in state: inout MonitorState) {
        if event.has(IN_Q_OVERFLOW) {
            kernelQueueOverflowed(in: &state)
            return
        }
        guard let watch = state.table[event.wd] else { return }  // a watch already dropped
        let isRoot = watch.path == watch.root && state.roots.contains(watch.root)

        if event.has(IN_IGNORED) {
            watchWasDropped(event.wd, watch, isRoot: isRoot, in: &state)
            return
        }
        if event.has(IN_UNMOUNT) {
            if isRoot {
                if state.unmountedRoots.insert(watch.root).inserted {
                    emit(
                        FileEvent(path: watch.root, kind: .rootUnmounted, isDirectory: true), root: watch.root,
                        in: &state)
                }
            } else {
                // Every watched directory of that file system gets one; only the mount point is
                // reported, once they are all in (see expirePending).
                state.pendingUnmounts[watch.path] = MonitorState.Pending(path: watch.path, root: watch.root, at: now)
            }
            return
        }
        if event.has(IN_MOVE_SELF) {
            // A watched directory renamed: its parent's IN_MOVED_FROM says where from. Only a root
            // has no watched parent; once moved, its paths are wrong, so it stops being watched.
            if isRoot {
                dropRoot(watch.root, in: &state)
                emit(FileEvent(path: watch.root, kind: .watchRemoved, isDirectory: true), root: watch.root, in: &state)
            }
            return
        }
        if event.has(IN_DELETE_SELF) { return }  // the parent reports it; IN_IGNORED follows

        let isDirectory = event.has(IN_ISDIR)
        guard let name = event.name else {
            // Events about a watched directory itself also reach its parent's watch, with a name,
            // except for a root, which has no watched parent.
            if isRoot && event.has(IN_ATTRIB) {
                emit(FileEvent(path: watch.root, kind: .attributes, isDirectory: true), root: watch.root, in: &state)
            }
            return
        }
        let path = DirectoryListing.joined(watch.path, name)
        let root = watch.root

        if event.has(IN_CREATE) {
            emit(FileEvent(path: path, kind: .created, isDirectory: isDirectory), root: root, in: &state)
            if isDirectory && !name.hasPrefix(".") {
                watchTree(from: path, root: root, reportingNewContents: true, in: &state)
            }
        } else if event.has(IN_MOVED_FROM) {
            emit(
                FileEvent(path: path, kind: .movedFrom(cookie: event.cookie), isDirectory: isDirectory), root: root,
                in: &state)
            if isDirectory {
                state.pendingMoves[event.cookie] = MonitorState.Pending(path: path, root: root, at: now)
            }
        } else if event.has(IN_MOVED_TO) {
            emit(
                FileEvent(path: path, kind: .movedTo(cookie: event.cookie), isDirectory: isDirectory), root: root,
                in: &state)
            if isDirectory {
                directoryMovedIn(path, named: name, cookie: event.cookie, root: root, in: &state)
            }
        } else if event.has(IN_DELETE) {
            emit(FileEvent(path: path, kind: .deleted, isDirectory: isDirectory), root: root, in: &state)
            if isDirectory { state.unwatched = state.unwatched.filter { !$0.isWithin(path) } }
        } else if event.has(IN_CLOSE_WRITE) {
            emit(FileEvent(path: path, kind: .closedWrite, isDirectory: isDirectory), root: root, in: &state)
        } else if event.has(IN_MODIFY) {
            emit(FileEvent(path: path, kind: .modified, isDirectory: isDirectory), root: root, in: &state)
        } else if event.has(IN_ATTRIB) {
            emit(FileEvent(path: path, kind: .attributes, isDirectory: isDirectory), root: root, in: &state)
        }
    }

    /// A directory arrived by rename: from elsewhere in the trees (its `IN_MOVED_FROM` is pending
    /// with the same cookie) its watches move with it; from outside, it is watched and scanned.
    private func directoryMovedIn(
        _ path: String, named name: String, cookie: UInt32, root: String, in state: inout MonitorState
    ) {
        let origin = state.pendingMoves.removeValue(forKey: cookie)
        let isHidden = name.hasPrefix(".")
        if let origin,
            state.table.descriptor(for: origin.path) != nil
                || state.unwatched.contains(where: { $0.isWithin(origin.path) })
        {
            if isHidden {
                dropSubtree(origin.path, in: &state)
            } else {
                state.table.moveSubtree(from: origin.path, to: path, root: root)
                state.unwatched = Set(
                    state.unwatched.map { $0.isWithin(origin.path) ? $0.replacingPrefix(origin.path, with: path) : $0 })
                // A directory renamed while it was being walked (just created, or during
                // addRoot) may have subdirectories whose watch failed under the old path.
                if state.table.descriptor(for: path) != nil {
                    watchTree(from: path, root: root, reportingNewContents: true, in: &state)
                }
            }
        } else if !isHidden {
            watchTree(from: path, root: root, reportingNewContents: true, in: &state)
        }
    }

    /// `IN_IGNORED`: the kernel dropped a watch (deleted, unmounted, or removed by this monitor).
    private func watchWasDropped(
        _ wd: Int32, _ watch: WatchTable.Watch, isRoot: Bool, in state: inout MonitorState
    ) {
        state.table.remove(wd)
        guard isRoot else { return }
        let wasUnmounted = state.unmountedRoots.remove(watch.root) != nil
        dropRoot(watch.root, in: &state)
        if !wasUnmounted {
            emit(FileEvent(path: watch.root, kind: .watchRemoved, isDirectory: true), root: watch.root, in: &state)
        }
    }

    /// `IN_Q_OVERFLOW`: events were lost for every root. Watches are brought back in line with
    /// the disk first (directories created or renamed meanwhile), then each root is marked for a
    /// recrawl, so that a consumer who recrawls on `.overflow` misses nothing.
    private func kernelQueueOverflowed(in state: inout MonitorState) {
        state.pendingMoves.removeAll()
        for root in state.roots.sorted() {
            resync(root: root, in: &state)
            state.overflowedRoots.insert(root)
        }
        flushOverflow(in: &state)
    }

    /// Settles what waited for its companion events.
    ///
    /// A directory moved away whose arrival never came left the watched trees: it is no longer
    /// watched. A file system unmounted inside a root (a memory card mounted on `Photos/card`) is reported
    /// as `.watchRemoved` for its mount point, the top-most directory unmounted, whose contents
    /// are now unreachable rather than deleted; the directory underneath is watched in its place.
    private func expirePending(at now: ContinuousClock.Instant, in state: inout MonitorState) {
        for (cookie, move) in state.pendingMoves where now - move.at >= Self.moveTimeout {
            state.pendingMoves[cookie] = nil
            dropSubtree(move.path, in: &state)
        }
        guard let newest = state.pendingUnmounts.values.map(\.at).max(), now - newest >= Self.moveTimeout else {
            return
        }
        let unmounts = state.pendingUnmounts.values
        state.pendingUnmounts.removeAll()
        for unmount in unmounts.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            // A whole root unmounted was reported as `.rootUnmounted` already.
            guard state.roots.contains(unmount.root), !state.unmountedRoots.contains(unmount.root) else { continue }
            let isMountPoint = !unmounts.contains { $0.path != unmount.path && unmount.path.isWithin($0.path) }
            guard isMountPoint else { continue }
            emit(FileEvent(path: unmount.path, kind: .watchRemoved, isDirectory: true), root: unmount.root, in: &state)
            watchTree(from: unmount.path, root: unmount.root, reportingNewContents: false, in: &state)
        }
    }

    // MARK: - Delivering

    /// Hands `event` to the stream. When the consumer is too far behind and the buffer drops it,
    /// the root is owed an `.overflow`; until that is delivered, the root's further events are
    /// dropped too, since the recrawl it triggers covers them.
    func emit(_ event: FileEvent, root: String, in state: inout MonitorState) {
        if state.overflowedRoots.contains(root) {
            flushOverflow(in: &state)
            if state.overflowedRoots.contains(root) { return }
        }
        if case .dropped = continuation.yield(event) {
            state.overflowedRoots.insert(root)
        }
    }

    /// Delivers the owed `.overflow` events that fit in the buffer now.
    func flushOverflow(in state: inout MonitorState) {
        for root in state.overflowedRoots.sorted() {
            switch continuation.yield(FileEvent(path: root, kind: .overflow, isDirectory: true)) {
            case .enqueued, .terminated: state.overflowedRoots.remove(root)
            case .dropped: return
            @unknown default: return
            }
        }
    }

    // MARK: - Watching

    enum WatchOutcome {
        case watched(Int32, isNew: Bool)
        case refused
        case failed(WatchError)
    }

    /// Watches one directory within the budget. `isNew` is false when this path was already watched
    /// (as the same inode), so its entries have been seen before.
    func watch(_ path: String, root: String, isRoot: Bool = false, in state: inout MonitorState) -> WatchOutcome {
        if state.table.descriptor(for: path) == nil && state.table.count >= maxWatches { return .refused }
        let wd: Int32
        do {
            wd = try Inotify.addWatch(
                fd: handles.inotify, path: path, mask: isRoot ? Inotify.rootMask : Inotify.directoryMask)
        } catch  where error.code == .watchLimitReached {
            return .refused
        } catch {
            return .failed(error)
        }
        let existing = state.table[wd]
        state.table.insert(wd, path: path, root: root)
        state.unwatched.remove(path)
        return .watched(wd, isNew: existing?.path != path)
    }

    /// Records that `path` (and so its subtree) is not watched for lack of budget, and says so.
    func refuse(_ path: String, root: String, in state: inout MonitorState) {
        state.unwatched.insert(path)
        emit(FileEvent(path: path, kind: .budgetExhausted, isDirectory: true), root: root, in: &state)
    }

    /// Watches `start` and the directories under it, breadth first so that shallow directories
    /// get the budget first; dot-directories and symbolic links are skipped. Returns the
    /// descriptors reached.
    ///
    /// With `reportingNewContents`, the entries of every directory this walk newly watches are
    /// reported `.created` (as tracker-miners does): a directory that appears already full
    /// (`mkdir -p a/b/c && touch a/b/c/x`, `mv ~/Downloads/trip .`) had its entries created before
    /// any watch could see them. Directories already watched were reported when they were watched,
    /// but are still walked: one renamed while it was being watched may hide unwatched ones.
    @discardableResult
    func watchTree(
        from start: String, root: String, reportingNewContents: Bool, in state: inout MonitorState
    ) -> Set<Int32> {
        var reached: Set<Int32> = []
        var queue = [start]
        var next = 0
        var linkCounting: [UInt64: Bool] = [:]
        while next < queue.count {
            let directory = queue[next]
            next += 1
            let report: Bool
            switch watch(directory, root: root, isRoot: directory == root, in: &state) {
            case .refused:
                refuse(directory, root: root, in: &state)
                continue
            case .failed:
                continue  // gone already, or unreadable: its parent's events say what happened
            case .watched(let wd, let isNew):
                // The same inode twice in one walk: a bind mount loop.
                guard reached.insert(wd).inserted else { continue }
                report = reportingNewContents && isNew
            }
            // A walk that reports nothing wants only directories: none is in a directory that holds none.
            if !report, directory != root, DirectoryListing.holdsNoDirectories(directory, devices: &linkCounting) {
                continue
            }
            for entry in DirectoryListing.entries(of: directory, directoriesOnly: !report) {
                let path = DirectoryListing.joined(directory, entry.name)
                if report {
                    emit(FileEvent(path: path, kind: .created, isDirectory: entry.isDirectory), root: root, in: &state)
                }
                if entry.isDirectory && !entry.isHidden { queue.append(path) }
            }
        }
        return reached
    }

    /// Re-walks a root after lost events: watches what appeared, fixes renamed paths (watching an
    /// inode again returns its descriptor, now recorded at its new path), and drops watches that
    /// the walk no longer reaches.
    func resync(root: String, in state: inout MonitorState) {
        state.unwatched = state.unwatched.filter { !$0.isWithin(root) }
        let reached = watchTree(from: root, root: root, reportingNewContents: false, in: &state)
        if !reached.contains(where: { state.table[$0]?.path == root }) {
            dropRoot(root, in: &state)
            emit(FileEvent(path: root, kind: .watchRemoved, isDirectory: true), root: root, in: &state)
            return
        }
        for wd in state.table.descriptors(ofRoot: root) where !reached.contains(wd) {
            Inotify.removeWatch(fd: handles.inotify, wd: wd)
            state.table.remove(wd)
        }
    }

    /// Stops watching `path` and everything under it (moved out of the trees, or hidden).
    func dropSubtree(_ path: String, in state: inout MonitorState) {
        for wd in state.table.subtree(of: path) {
            Inotify.removeWatch(fd: handles.inotify, wd: wd)
            state.table.remove(wd)
        }
        state.unwatched = state.unwatched.filter { !$0.isWithin(path) }
    }

    /// Forgets a root and stops watching all of it.
    func dropRoot(_ root: String, in state: inout MonitorState) {
        for wd in state.table.descriptors(ofRoot: root) {
            Inotify.removeWatch(fd: handles.inotify, wd: wd)
            state.table.remove(wd)
        }
        state.roots.remove(root)
        state.unwatched = state.unwatched.filter { !$0.isWithin(root) }
        state.pendingMoves = state.pendingMoves.filter { $0.value.root != root }
        state.pendingUnmounts = state.pendingUnmounts.filter { $0.value.root != root }
    }
}
