/// How far a watcher has come in a tree it started watching: what lets a scan start listing before
/// the whole tree is watched and still miss nothing.
///
/// A directory listed after its watch was added misses no change: what changes in it afterwards is
/// an event, what changed before is in the listing. So a startup scan waits, directory by
/// directory, only until that directory is watched, while the watcher goes on through the rest of
/// the tree (inotify's watches cost the kernel a walk of each directory's cached entries: a
/// quarter of a startup at 200,000 files, spent at once instead of before the scan).
///
/// ```swift
/// for directory in directories {
///     progress.waitUntilWatched(directory)
///     list(directory)   // whatever changes in it from here on is an event
/// }
/// ```
public protocol WatchProgress: Sendable {
    /// Returns once changes in `directory` (given as the watcher names it: under the root as it
    /// was given) reach the watcher, or once the walk has ended, after which this walk will not
    /// watch it (gone, hidden, beyond the watch budget).
    func waitUntilWatched(_ directory: String)

    /// Returns once the walk has ended.
    func waitUntilEnded()
}
