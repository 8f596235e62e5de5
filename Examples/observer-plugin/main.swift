// An in-process observer plugin: the PhotoKit way to follow a library, with no daemon hook at all.
//
//   PHOTOS_LIBRARY=/srv/photos/library.sqlite swift run observer-plugin [--count N]
//
// It registers a PHPhotoLibraryChangeObserver, keeps a fetch result of favorites up to date with
// PHFetchResultChangeDetails, and prints a line for each change: whoever made it (photosd ingesting
// a file, `photos`, another program), it arrives here. With --count N it exits once N favorites have
// come, gone or changed. (Count objects, not calls: like PhotoKit, the library may coalesce commits
// that land close together into one PHChange.)
import Foundation
import Photos

final class FavoritesPlugin: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var favorites: PHFetchResult<PHAsset>
    private var remaining: Int?
    let done = DispatchSemaphore(value: 0)

    init(count: Int?) {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "favorite == YES")
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        favorites = PHAsset.fetchAssets(with: options)
        remaining = count
        super.init()
    }

    /// Registers with the library, then says so (a change committed after this line reaches it).
    func start() {
        PHPhotoLibrary.shared().register(self)
        print("watching \(favorites.count) favorites")
        fflush(stdout)
    }

    // Called in order on a background queue, once per commit or once for several close together.
    func photoLibraryDidChange(_ changeInstance: PHChange) {
        if handle(changeInstance) { done.signal() }
    }

    /// Updates the favorites; true once as many favorites as asked for have come, gone or changed.
    private func handle(_ changeInstance: PHChange) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let details = changeInstance.changeDetails(for: favorites) else { return false }
        favorites = details.fetchResultAfterChanges
        for asset in details.insertedObjects {
            let date = asset.creationDate.map { ISO8601DateFormatter().string(from: $0) } ?? "undated"
            print("favorite: \(asset.localIdentifier) \(date)")
        }
        for asset in details.removedObjects {
            print("no longer a favorite: \(asset.localIdentifier)")
        }
        print("favorites now: \(favorites.count)")
        fflush(stdout)
        guard let left = remaining else { return false }
        let changed =
            details.insertedObjects.count + details.removedObjects.count
            + details.changedObjects.count
        remaining = left - changed
        return left - changed <= 0
    }
}

// A parent that started us with SIGTERM and SIGINT blocked (a Swift program's Process does)
// could not stop us: let them end the wait.
var terminationSignals = sigset_t()
sigemptyset(&terminationSignals)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&terminationSignals, signal) }
pthread_sigmask(SIG_UNBLOCK, &terminationSignals, nil)

let arguments = CommandLine.arguments
let count = arguments.firstIndex(of: "--count").flatMap { Int(arguments[$0 + 1]) }
let plugin = FavoritesPlugin(count: count)
plugin.start()
plugin.done.wait()
// The process ends here, and its observer with it.
fflush(stdout)
exit(0)
