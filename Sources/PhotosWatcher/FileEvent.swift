/// What happened to a path under a watched root.
///
/// The first seven kinds are the kernel's inotify events for an entry of a watched directory. The
/// last four come from the monitor itself and concern a whole root or directory: the consumer
/// recrawls, marks a root offline, or polls what could not be watched.
public enum FileEventKind: Sendable, Hashable {
    /// The entry appeared (`IN_CREATE`), or was already there when its directory appeared and was
    /// scanned: a file found that way may get no ``closedWrite`` (nor does a hard link), so settle
    /// `created` on a quiet period too.
    case created
    /// A file opened for writing was closed (`IN_CLOSE_WRITE`): the usual "it is complete" signal.
    case closedWrite
    /// The file's content was written (`IN_MODIFY`); many arrive while a file is being written.
    case modified
    /// The entry was removed (`IN_DELETE`).
    case deleted
    /// The entry was renamed away from this path (`IN_MOVED_FROM`). A ``movedTo(cookie:)`` with the
    /// same cookie names where it went; without one, it left the watched trees.
    case movedFrom(cookie: UInt32)
    /// An entry was renamed to this path (`IN_MOVED_TO`). Without a ``movedFrom(cookie:)`` with the
    /// same cookie, it came from outside the watched trees.
    case movedTo(cookie: UInt32)
    /// Permissions, ownership, timestamps or extended attributes changed (`IN_ATTRIB`).
    case attributes
    /// Events under this root were lost (`IN_Q_OVERFLOW`, or the consumer fell behind the stream's
    /// buffer): recrawl the root. The event's path is the root.
    case overflow
    /// The file system holding this root was unmounted (`IN_UNMOUNT`): the root is offline and no
    /// longer watched. The event's path is the root.
    case rootUnmounted
    /// The kernel dropped this directory's watch. For a root (`IN_IGNORED` after it was deleted
    /// or moved away), the root is gone and no longer watched. For a directory inside a root, a
    /// file system mounted there was unmounted (`IN_UNMOUNT`): what was under it is unreachable,
    /// not deleted; the directory now showing at that path is watched instead, so recrawl it.
    case watchRemoved
    /// This directory, and everything under it, is not watched: the ``WatchBudget`` is spent.
    /// Poll it instead. The event's path is the directory.
    case budgetExhausted
}

/// One change under a watched root, as the ``InotifyMonitor`` reports it.
///
/// ```swift
/// for await event in monitor.events {
///     switch event.kind {
///     case .closedWrite: settler.fileCompleted(event.path)
///     case .overflow: crawler.recrawl(root: event.path)
///     default: break
///     }
/// }
/// ```
public struct FileEvent: Sendable, Hashable, CustomStringConvertible {
    /// The absolute path of the entry (for root-level kinds, the root or directory concerned).
    ///
    /// Built from the watched directory's path and the name the kernel gave; a name that is not
    /// valid UTF-8 is decoded with replacement characters.
    public var path: String
    /// What happened.
    public var kind: FileEventKind
    /// Whether the entry is a directory (`IN_ISDIR`).
    public var isDirectory: Bool

    /// Creates an event.
    public init(path: String, kind: FileEventKind, isDirectory: Bool = false) {
        self.path = path
        self.kind = kind
        self.isDirectory = isDirectory
    }

    /// `"closedWrite /photos/a.jpg"`, `"created /photos/2024 (directory)"`.
    public var description: String {
        let name: String
        switch kind {
        case .created: name = "created"
        case .closedWrite: name = "closedWrite"
        case .modified: name = "modified"
        case .deleted: name = "deleted"
        case .movedFrom(let cookie): name = "movedFrom(\(cookie))"
        case .movedTo(let cookie): name = "movedTo(\(cookie))"
        case .attributes: name = "attributes"
        case .overflow: name = "overflow"
        case .rootUnmounted: name = "rootUnmounted"
        case .watchRemoved: name = "watchRemoved"
        case .budgetExhausted: name = "budgetExhausted"
        }
        return "\(name) \(path)\(isDirectory ? " (directory)" : "")"
    }
}
