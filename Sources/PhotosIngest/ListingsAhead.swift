import Dispatch
import PhotosCore
import PhotosLinux
import Synchronization

/// The files of a scan's directories, in the scan's order, listed ahead of it on a thread of its
/// own, each once the watcher watches it when a ``PhotosCore/WatchProgress`` is given.
///
/// Listing a directory and looking up each of its files is the kernel's work; comparing them with
/// the store's rows is the scan's. A rescan of an unchanged tree did both on one thread, one after
/// the other (at 200,000 files: 0.32 s in the kernel, 0.26 s in the scan); here they overlap, on
/// the two cores a scan has. The lister stays at most `limit` files ahead (and one directory,
/// however large): what the scan holds grows by that much, never with the tree. Each side waits
/// only when the other is that far ahead or behind, so a tree of many small directories does not
/// cost a hand-over per directory.
///
/// ```swift
/// let listings = ListingsAhead(directories, crawler: crawler, limit: 1024)
/// defer { listings.stop() }
/// for directory in directories { let files = listings.next() /* ... */ }
/// ```
final class ListingsAhead: Sendable {
    typealias Listing = Result<DirectoryContents, DirectoryReadError>

    private let directories: [String]
    private let crawler: Crawler
    private let limit: Int
    private let watching: (any WatchProgress)?
    private struct State {
        /// Listings made, from ``taken`` on not yet given to the scan (taken ones are dropped in
        /// batches, so that taking one costs no shift of the rest).
        var listed: [(listing: Listing, files: Int)] = []
        var taken = 0
        var next = 0
        var filesAhead = 0
        var listerWaits = false
        var scanWaits = false
        var stopped = false
        /// No thread could be had: ``next()`` lists on the caller's.
        var listsInline = false
    }
    private let state = Mutex(State())
    /// Signalled when a listing arrives for a scan waiting for one.
    private let listingArrived = DispatchSemaphore(value: 0)
    /// Signalled when the scan took enough for a lister waiting for room.
    private let roomMade = DispatchSemaphore(value: 0)

    /// Starts listing `directories` in order, at most `limit` files ahead of the scan; with
    /// `watching`, each only once it is watched.
    init(_ directories: [String], crawler: Crawler, limit: Int, watching: (any WatchProgress)? = nil) {
        self.directories = directories
        self.crawler = crawler
        self.limit = max(1, limit)
        self.watching = watching
        guard !directories.isEmpty else { return }
        do {
            try SystemThread(name: "photosd-list") { [self] in listAll() }.detach()
        } catch {
            // No thread to be had (the kernel's limit): each directory is listed when it is asked for.
            state.withLock { $0.listsInline = true }
        }
    }

    /// The next directory's files and subdirectories, as ``Crawler/crawlContents(in:)`` gives
    /// them. Call once per directory, in order.
    func next() -> Listing {
        while true {
            enum Step {
                case listInline(Int)
                case take(Listing, wakeLister: Bool)
                case wait
            }
            let step = state.withLock { state -> Step in
                if state.listsInline {
                    defer { state.next += 1 }
                    return .listInline(state.next)
                }
                guard state.taken < state.listed.count else {
                    state.scanWaits = true
                    return .wait
                }
                let (listing, files) = state.listed[state.taken]
                // The slot lets go of the files at once: the scan holds them now.
                state.listed[state.taken] = (.success(DirectoryContents()), 0)
                state.taken += 1
                if state.taken >= 64 && 2 * state.taken >= state.listed.count {
                    state.listed.removeFirst(state.taken)
                    state.taken = 0
                }
                state.filesAhead -= files
                let wake = state.listerWaits && state.filesAhead < limit
                if wake { state.listerWaits = false }
                return .take(listing, wakeLister: wake)
            }
            switch step {
            case .listInline(let index):
                return list(directories[index])
            case .take(let listing, let wakeLister):
                if wakeLister { roomMade.signal() }
                return listing
            case .wait:
                listingArrived.wait()
            }
        }
    }

    /// The files listed and not yet taken: what the scan holds ahead of the directory it compares.
    var filesListedAhead: Int { state.withLock { $0.filesAhead } }

    /// Ends the listing early (the scan failed, or stopped): the thread lists nothing more.
    func stop() {
        let wake = state.withLock { state in
            state.stopped = true
            defer { state.listerWaits = false }
            return state.listerWaits
        }
        if wake { roomMade.signal() }
    }

    private func list(_ directory: String) -> Listing {
        watching?.waitUntilWatched(directory)
        return crawler.crawlContents(in: directory)
    }

    private func listAll() {
        for directory in directories {
            while true {
                let go = state.withLock { state -> Bool? in
                    if state.stopped { return nil }
                    if state.filesAhead < limit { return true }
                    state.listerWaits = true
                    return false
                }
                guard let go else { return }
                if go { break }
                roomMade.wait()
            }
            let listing = list(directory)
            let files = (try? listing.get())?.files.count ?? 0
            let wakeScan = state.withLock { state in
                state.listed.append((listing, files))
                state.filesAhead += files
                defer { state.scanWaits = false }
                return state.scanWaits
            }
            if wakeScan { listingArrived.signal() }
        }
    }
}
