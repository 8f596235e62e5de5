/// Something that watches directory trees and reports changes as ``FileEvent``s.
///
/// ``InotifyMonitor`` is the real one; tests of later stages (settling, ingest) use a fake that
/// replays scripted events, for what cannot be caused for real without root (a kernel queue
/// overflow, the system's watch limit).
///
/// ```swift
/// func follow(_ monitor: some FileMonitor) async {
///     for await event in monitor.events where event.kind == .closedWrite { print(event.path) }
/// }
/// ```
public protocol FileMonitor: AnyObject, Sendable {
    /// What happens under the roots, until the monitor stops.
    var events: AsyncStream<FileEvent> { get }
    /// Watches a directory tree.
    func addRoot(_ path: String) throws(WatchError)
    /// Watches a directory tree, returning once its root is watched; the rest is watched as the
    /// returned walk goes on (``InotifyMonitor/startRoot(_:)``).
    func startRoot(_ path: String) throws(WatchError) -> RootWalk
    /// Stops watching a root added with ``addRoot(_:)``; its events stop. A root that is not
    /// one (never added, or inside another root) changes nothing.
    func removeRoot(_ path: String)
    /// Stops watching and finishes ``events``.
    func stop()
    /// The roots being watched.
    var roots: [String] { get }
    /// How many watches are held now.
    var watchCount: Int { get }
    /// Directories not watched for lack of budget.
    var unwatchedDirectories: [String] { get }
}

extension FileMonitor {
    /// Monitors whose roots never change (test doubles replaying events) need not remove any.
    public func removeRoot(_ path: String) {}

    /// ``addRoot(_:)``, after which the walk has ended: a monitor that watches a tree at once.
    public func startRoot(_ path: String) throws(WatchError) -> RootWalk {
        try addRoot(path)
        return .ended(root: path)
    }
}
