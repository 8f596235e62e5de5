import Foundation
import PhotosCore
import PhotosIngest
import PhotosWatcher

/// Turns watcher events into scan work once the tree has been quiet for the settle period: pure
/// code, with the clock passed in, so that its rules are tested as a table.
///
/// File events are folded per path by ``ChangeCoalescer`` (a file created and deleted within the
/// settle period cancels out and costs no scan; a move pair is one move); what is left names the
/// files to look at, the source of a move included (their directories are not listed again). The
/// scan of those paths finds which file moved where by device and inode, as any scan does.
/// Events on directories change the tree's shape (folders, albums), so their root is rescanned
/// whole, as after a queue overflow. Root-level events also come back as a ``Notice`` for the root tracker.
///
/// ```swift
/// var settler = EventSettler(roots: WatchedRoots(["/p"]), rules: IgnoreRules(), settle: .milliseconds(200))
/// settler.record(FileEvent(path: "/p/a.jpg", kind: .closedWrite), at: t0)
/// settler.take(at: t0 + .milliseconds(100))  // nil: not quiet long enough
/// settler.take(at: t0 + .milliseconds(200))  // files ["/p": ["/p/a.jpg"]]
/// ```
public struct EventSettler: Sendable {
    /// What an event says about a whole root, for the root tracker and the status.
    public enum Notice: Sendable, Hashable {
        /// Events under the root were lost: it is rescanned whole.
        case overflow(root: String)
        /// The root itself was unmounted or removed: offline (its assets stay) until it returns.
        case offline(root: String, reason: String)
        /// A directory under the root is beyond the inotify watch budget: the root is polled.
        case polling(root: String, reason: String)
    }

    /// The roots events are sorted into.
    public let roots: WatchedRoots
    /// Names to ignore (temporary and hidden files wait for the rename that names them).
    public let rules: IgnoreRules
    /// How long the tree must be quiet before what is pending is due.
    public let settle: Duration
    /// How long to wait, at least, while a file was created or written and not yet closed: a
    /// scan that reads it mid-write finds it still changing and waits half a second to look again
    /// (with `--settle 0` that was the p99 of close() → library). A move whose arrival has not come
    /// waits as long: the kernel queues both ends of a rename at once, but the watcher may hand
    /// them on one at a time, and a departure scanned alone loses its photo's asset (the arrival
    /// is then a new photo).
    public let writeGrace: Duration

    private var coalescer = ChangeCoalescer()
    /// Moves seen leaving a path, by cookie, until their arrival (or the settle period) comes.
    private var movedFrom: [UInt32: String] = [:]
    /// Roots to rescan whole.
    private var pendingRoots: Set<String> = []
    private var lastEvent: ContinuousClock.Instant?
    /// Files created or written whose `closedWrite` has not come yet.
    private var writing: Set<String> = []

    /// A settler with nothing pending.
    public init(roots: WatchedRoots, rules: IgnoreRules, settle: Duration, writeGrace: Duration = .milliseconds(100)) {
        self.roots = roots
        self.rules = rules
        self.settle = settle
        self.writeGrace = writeGrace
    }

    /// Changes waiting for the tree to settle (the status file's `queueDepth`).
    public var queueDepth: Int { coalescer.pending.count + movedFrom.count }

    /// Whether anything waits to be scanned.
    public var hasPending: Bool { !pendingRoots.isEmpty || !coalescer.pending.isEmpty || !movedFrom.isEmpty }

    /// Whether a file being written, or a move's arrival, holds the work back: the `closedWrite`
    /// or the arrival makes ``dueAt`` earlier, so a sleeper until ``dueAt`` should look again soon.
    public var isAwaitingEvents: Bool { hasPending && (!writing.isEmpty || !movedFrom.isEmpty) }

    /// When what is pending is due, if anything is: the settle period after the last event (at
    /// least ``writeGrace`` while a file being written has not been closed, or a move's arrival
    /// has not come).
    public var dueAt: ContinuousClock.Instant? {
        guard hasPending, let lastEvent else { return nil }
        return lastEvent + (writing.isEmpty && movedFrom.isEmpty ? settle : max(settle, writeGrace))
    }

    /// Folds an event that arrived at `now` into what is pending.
    @discardableResult
    public mutating func record(_ event: FileEvent, at now: ContinuousClock.Instant) -> Notice? {
        guard let root = roots.root(of: event.path) else { return nil }
        lastEvent = now
        switch event.kind {
        case .overflow:
            pendingRoots.insert(root)
            return .overflow(root: root)
        case .rootUnmounted, .watchRemoved:
            // A file system unmounted inside a root only changes what is under it: rescan. The
            // root itself going away makes it offline (its assets stay) until it returns.
            pendingRoots.insert(root)
            return event.path == root ? .offline(root: root, reason: "unmounted or removed") : nil
        case .budgetExhausted:
            return .polling(root: root, reason: "\(event.path) is beyond the inotify watch budget")
        default:
            break
        }
        if !event.isDirectory && rules.isIgnoredName(PathName.name(of: event.path)) {
            // Remembered so that the rename giving the file its final name is a move from here.
            if case .movedFrom(let cookie) = event.kind { movedFrom[cookie] = event.path }
            return nil
        }
        if !event.isDirectory {
            switch event.kind {
            case .created, .modified: writing.insert(event.path)
            case .closedWrite, .deleted, .movedFrom: writing.remove(event.path)
            default: break
            }
        }
        switch event.kind {
        case .created: coalescer.record(.created, at: event.path)
        case .closedWrite, .modified, .attributes: coalescer.record(.updated, at: event.path)
        case .deleted: coalescer.record(.deleted, at: event.path)
        case .movedFrom(let cookie): movedFrom[cookie] = event.path
        case .movedTo(let cookie):
            if let source = movedFrom.removeValue(forKey: cookie) {
                coalescer.move(from: source, to: event.path)
            } else {
                coalescer.record(.created, at: event.path)
            }
        default: break
        }
        // The tree's shape changed: folders and albums may too.
        if event.isDirectory { pendingRoots.insert(root) }
        return nil
    }

    /// Asks for `roots` to be rescanned whole once quiet again (files still being written).
    public mutating func recheck(roots again: [String], at now: ContinuousClock.Instant) {
        guard !again.isEmpty else { return }
        pendingRoots.formUnion(again)
        lastEvent = now
    }

    /// The work due at `now`, and an empty queue; nil while the tree is not yet quiet or nothing
    /// is pending.
    public mutating func take(at now: ContinuousClock.Instant) -> ScanWork? {
        guard let dueAt, now >= dueAt else { return nil }
        // A move whose arrival never came left the watched trees: its source is gone, and is looked
        // at whatever came to that path after it. Recorded now as a deletion, it would cancel a file
        // put there since (a photo deleted to the Trash, then a copy under its name, or trash-cli
        // restoring it at once), as though that file had been created first and then moved away.
        let departed = Set(movedFrom.values)
        movedFrom = [:]
        // A file created and never closed (a hard link, a file found in a new directory) is
        // scanned after the grace; if it is still being written, the scan says so.
        writing = []
        var files: [String: Set<String>] = [:]
        for path in coalescer.drain().union(departed) {
            if let root = roots.root(of: path) { files[root, default: []].insert(path) }
        }
        // A root removed by a reload while its rescan waited is not scanned: it is no longer watched.
        let work = ScanWork(roots: pendingRoots.intersection(roots.paths), files: files, reasons: ["changes"])
        pendingRoots = []
        // Everything pending may have cancelled out (created, then deleted).
        return work.isEmpty ? nil : ScanWork(roots: work.roots, files: work.partialFiles, reasons: work.reasons)
    }
}
