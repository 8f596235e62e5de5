/// What a scan did, for the summary line and for scripts.
public struct ScanReport: Sendable, Hashable, Codable {
    /// Files found under the roots (after ignore rules).
    public var seen = 0
    /// Files read for the first time and added as assets.
    public var ingested = 0
    /// Files whose content changed and were read again.
    public var updated = 0
    /// Files found at a new path, identity kept.
    public var moved = 0
    /// Files that left the disk, and with them their assets.
    public var removed = 0
    /// Deleted assets brought back from "Recently Deleted": a file of theirs is back at its path,
    /// restored from the Trash by any tool.
    public var restored = 0
    /// Files that look like media but could not be read (see `photos rejected`).
    public var rejected = 0
    /// Of ``rejected``, those rejected before and unchanged since (not read again): a daemon's
    /// totals count a file once, not at every rescan. Not part of the JSON report.
    public var rejectedBefore = 0
    /// Files not read again because size and modification time did not change.
    public var unchanged = 0
    /// Files that are not media (text, PDF, sidecars), left alone.
    public var skipped = 0
    /// Files that kept changing while they were read: still being written, left for later.
    public var stillChanging: [String] = []
    /// Roots that could not be read: their assets are kept, marked offline.
    public var offlineRoots: [String] = []
    /// Directories under the roots that exist but could not be listed (permissions, a stale
    /// mount): their assets, albums and folders are kept, unavailable, until they read again.
    public var unreadableDirectories: [UnreadableDirectory] = []
    /// XMP sidecars the library has not synced as they are now (new beside a photo it knows,
    /// changed since the last sync, moved here with their photo, or copied with it and naming the
    /// original's identifier, which its sync replaces with the copy's): what the caller merges into
    /// their assets (`SidecarSync.syncChangedSidecar(at:mayWrite:)`). Not part of the JSON report.
    public var sidecarsToSync: [String] = []
    /// Files of known assets this scan found moved, at their new paths: an asset's state that never
    /// reached a sidecar (an edit made while its photo was away from the path the library knew) is
    /// written beside them where the root allows (`SidecarSync.syncMovedPhotos(at:mayWrite:)`). Not
    /// part of the JSON report.
    public var movedFiles: [String] = []
    /// Photos whose assets took in another asset this scan (a file moved beside its partner): the
    /// state they took is written to their sidecars where the root allows
    /// (`SidecarSync.syncJoinedPhotos(at:mayWrite:)`), so that a rebuild finds it there. Not part of
    /// the JSON report.
    public var joinedPhotos: [String] = []

    /// Paths of files gone from a root, by root, that a scan of several roots keeps until it has
    /// compared the last: a later root may hold them, moved. Empty once the scan returns.
    var departuresHeld: [String: Set<String>] = [:]

    /// An empty report.
    public init() {}

    /// Adds another scan's report: the scan of several roots, one at a time.
    mutating func add(_ other: ScanReport) {
        seen += other.seen
        unchanged += other.unchanged
        skipped += other.skipped
        offlineRoots += other.offlineRoots
        addChanges(of: other)
    }

    /// Adds what a later look at some paths of the same scan changed, not what it found unchanged
    /// (counted once already).
    mutating func addChanges(of later: ScanReport) {
        departuresHeld.merge(later.departuresHeld) { $0.union($1) }
        ingested += later.ingested
        updated += later.updated
        moved += later.moved
        removed += later.removed
        restored += later.restored
        rejected += later.rejected
        rejectedBefore += later.rejectedBefore
        stillChanging += later.stillChanging
        unreadableDirectories += later.unreadableDirectories
        sidecarsToSync += later.sidecarsToSync
        movedFiles += later.movedFiles
        joinedPhotos += later.joinedPhotos
    }

    /// After another pass over a root's tree, added to `before` (the report before that pass;
    /// `start`, before the first): the files found and skipped are the last pass's (the tree as it
    /// is now), those found unchanged the earlier passes' (the last pass found unchanged what they
    /// read), and what each pass changed adds up.
    mutating func countingLastPassTree(start: ScanReport, before: ScanReport) {
        seen = start.seen + seen - before.seen
        skipped = start.skipped + skipped - before.skipped
        unchanged = before.unchanged
    }

    private enum CodingKeys: String, CodingKey {
        case seen, ingested, updated, moved, removed, restored, rejected, unchanged, skipped, stillChanging
        case offlineRoots, unreadableDirectories
    }
}

/// How far a scan has got, for progress output: told after each directory is compared.
public struct ScanProgress: Sendable, Hashable {
    /// The root being scanned.
    public var root: String
    /// Directories compared so far, of `directories` in this root.
    public var directoriesDone: Int
    /// The readable directories of this root.
    public var directories: Int
    /// Files seen under the roots so far.
    public var seen: Int
    /// Files read so far in this root (unchanged files are not read).
    public var read: Int
    /// Files ingested so far.
    public var ingested: Int
    /// Files rejected so far.
    public var rejected: Int
}
