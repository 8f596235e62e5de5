import Foundation
import PhotosCore
import PhotosLinux
import Synchronization

/// Listings of directories as sidecar rules read them, reused while a directory has not changed.
///
/// Deleting or moving a thousand photos of one folder plans each photo's sidecars, and listing the
/// folder for each made the plan quadratic (a quarter of `photos rm`'s time at 1,000 files). A
/// listing is reused while the directory has its device, inode and modification time, and only if
/// it was taken a while after that time: a name added within the file system's timestamp tick of
/// the listing would leave the time unchanged (git's rule for "racily clean" index entries).
final class DirectoryListings: Sendable {
    /// A directory's names, indexed for sidecar lookups.
    struct Listing: Sendable {
        /// `.xmp` names by their lowercased base (`IMG_1.JPG.xmp` under `img_1.jpg`).
        let sidecarsByBase: [String: [String]]
        /// Other names by their pairing name (`IMG_1.JPG` under `img_1`).
        let mediaByStem: [String: [String]]
    }

    private struct Cached {
        let device: UInt64
        let inode: UInt64
        let modified: timespec
        let listing: Listing
    }

    /// The listings of this process.
    static let shared = DirectoryListings()

    /// How long after a directory's last change a listing must be taken to be reused, in seconds.
    static let settled = 0.05
    /// Directories kept; past it the cache starts again.
    static let capacity = 256

    private let cache = Mutex<[String: Cached]>([:])

    /// The listing of `directory`, from the cache when it is still true; nil when it cannot be read.
    func listing(of directory: String) -> Listing? {
        var info = stat()
        guard PathBytes.withCString(directory, { stat($0, &info) }) == 0 else { return nil }
        if let cached = cache.withLock({ $0[directory] }), cached.device == UInt64(info.st_dev),
            cached.inode == UInt64(info.st_ino), cached.modified.tv_sec == info.st_mtim.tv_sec,
            cached.modified.tv_nsec == info.st_mtim.tv_nsec
        {
            return cached.listing
        }
        guard let entries = try? FileOperations.names(in: directory) else { return nil }
        var sidecars: [String: [String]] = [:]
        var media: [String: [String]] = [:]
        for name in entries {
            let lowered = name.lowercased()
            if lowered.hasSuffix(".xmp") {
                sidecars[String(lowered.dropLast(4)), default: []].append(name)
            } else {
                media[PairingName.of(name), default: []].append(name)
            }
        }
        let listing = Listing(sidecarsByBase: sidecars, mediaByStem: media)
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        if Date().timeIntervalSince1970 - modified > Self.settled {
            cache.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll() }
                cache[directory] = Cached(
                    device: UInt64(info.st_dev), inode: UInt64(info.st_ino), modified: info.st_mtim, listing: listing)
            }
        }
        return listing
    }
}
