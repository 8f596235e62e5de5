import PhotosCore
import PhotosWatcher
import Synchronization

/// The watch walks still going on in roots just followed, for the scans that list those roots
/// meanwhile: the ``RootTracker`` adds each walk it starts, the ``ScanRunner`` hands those of the
/// roots it scans whole to ``PhotosIngest/FolderScanner/scan(roots:progress:watching:)``. A walk
/// leaves once it has ended.
public final class RootWalks: Sendable {
    private let walks = Mutex<[String: RootWalk]>([:])

    /// No walk yet.
    public init() {}

    /// `walk` watches `root` (as the roots name it) until it ends.
    func add(_ walk: RootWalk, for root: String) {
        walks.withLock { $0[root] = walk }
        walk.whenEnded { [weak self] in
            self?.walks.withLock { if $0[root] === walk { $0[root] = nil } }
        }
    }

    /// The walks going on in these roots, by root.
    func going(in roots: some Sequence<String>) -> [String: any WatchProgress] {
        walks.withLock { walks in
            var going: [String: any WatchProgress] = [:]
            for root in roots { if let walk = walks[root] { going[root] = walk } }
            return going
        }
    }
}
