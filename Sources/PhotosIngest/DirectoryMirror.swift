import Foundation
import PhotosCore
import PhotosStore

/// Mirrors a root's directory tree as collections: the root and every directory holding
/// directories with media are folders (collection lists); every directory holding media is an
/// album, and so is every directory the library made for an album (created inside a
/// directory-backed folder), empty or not. A directory holding both media and such directories is a folder whose first child is
/// an album of the same name with its own media.
///
/// Collections are matched to directories by path, then by device and inode, so a renamed
/// directory keeps its collection (and its identifier) with the new title.
///
/// A directory that could not be listed (`unreadable`) keeps its collections and everything
/// below them as they were: nothing under it was seen, so nothing under it is known to have changed.
///
/// Every placement is one pass, ``place(_:in:mediaDirectories:arrivals:)``, over the directories
/// whose files changed, the whole tree being the set of all of them:
///
/// - A scan's batches pass the directories whose media they committed, with the directories known
///   to hold media (then ``committed(token:)``). The first batch looks at every directory; a later
///   one only at the directories whose collections its files change and the siblings these shift,
///   because the mirror remembers what it placed: a batch of a scan of thousands of directories
///   costs what its own directories cost, not what the tree costs.
/// - The end of a scan passes every directory, the store saying which hold media: the whole tree
///   is settled, and collections whose directory is gone or holds no media are deleted.
/// - The daemon passes the directories its events named, the store saying what they hold: when
///   none gains its first media or loses its last, only their albums' members change and the tree
///   is not even listed; otherwise it is crawled and settled whole.
///
/// ```swift
/// var mirror = DirectoryMirror(root: "/p", directories: tree.directories)
/// try mirror.place(["/p/2024"], in: transaction, mediaDirectories: ["/p/2024"])  // a batch
/// try mirror.place(nil, in: transaction)  // the whole tree, settled
/// ```
struct DirectoryMirror {
    let root: String
    /// Lists the tree when a pass first needs it: the readable directories, the root first, and the
    /// unreadable ones; nil when the root cannot be read.
    private let list: () -> (directories: [CrawledDirectory], unreadable: [CrawledDirectory])?
    /// The directories indexed for passes, made by the first that needs them (a scan of an unchanged
    /// tree makes none, nor does a daemon's pass that changes only members).
    private var layout: Layout?

    /// What the last pass placed, while it is known to be what the library holds; nil before the
    /// first batch, and whenever another writer may have changed the library since.
    private var placed: Placement?
    /// The newest change-log token a batch's pass found, until its transaction commits.
    private var checkedToken: Int64?
    /// What the last pass looked at (tests count it).
    private(set) var lastPass = Pass(wholeTree: false, directories: 0)
    /// Whether every collection under the root is one this mirror's batches placed: the first
    /// batch's pass found none in the library to take, and each later one went on from the one
    /// before (no other writer between). When every file under the root came with those batches (a
    /// first scan), a settling pass would find each collection where they left it, with its members.
    private(set) var placedEverything = false
    /// Whether a batch's pass has run.
    private var passedABatch = false

    /// A pass's work: over the whole tree or not, and how many directories it placed collections for.
    struct Pass: Equatable {
        var wholeTree: Bool
        var directories: Int
    }

    /// The mirror of a crawled tree (a scan's).
    init(root: String, directories: [CrawledDirectory], unreadable: [CrawledDirectory] = []) {
        self.root = root
        list = { (directories, unreadable) }
    }

    /// A mirror that crawls its tree only when a pass needs it (the daemon's); `crawl` answers nil
    /// when the root cannot be read, and then nothing is placed.
    init(root: String, crawl: @escaping () -> CrawledTree?) {
        self.root = root
        list = { crawl().map { ($0.directories, $0.unreadable.map(\.directory)) } }
    }

    /// The tree's directories as a pass walks them, each named by its index in ``directories``.
    private struct Layout {
        /// Every directory, the readable ones first, then the unreadable ones.
        let directories: [CrawledDirectory]
        /// Where the unreadable directories begin in ``directories``.
        let firstUnreadable: Int
        /// The paths under unreadable directories, whose collections no directory may take by inode.
        let frozen: FrozenPaths
        /// Each directory's index, by path.
        let indexes: [String: Int]
        /// Each directory's parent, if crawled.
        let parents: [Int?]
        /// Each directory's children, in path order.
        let children: [[Int]]
        /// Each directory's place in path order: parents before their children, siblings in order.
        let ranks: [Int]

        init(_ crawled: [CrawledDirectory], unreadable: [CrawledDirectory]) {
            let all = crawled + unreadable
            directories = all
            firstUnreadable = crawled.count
            frozen = FrozenPaths(unreadable.map(\.path))
            let indexes = Dictionary(all.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
            self.indexes = indexes
            let parents = all.map { directory in directory.parent.flatMap { indexes[$0] } }
            self.parents = parents
            var ranks = [Int](repeating: 0, count: all.count)
            var children = [[Int]](repeating: [], count: all.count)
            for (rank, index) in all.indices.sorted(by: { all[$0].path < all[$1].path }).enumerated() {
                ranks[index] = rank
                if let parent = parents[index] { children[parent].append(index) }
            }
            self.ranks = ranks
            self.children = children
        }

        func isUnreadable(_ index: Int) -> Bool { index >= firstUnreadable }
    }

    /// The layout, made once the tree is listed.
    private mutating func madeLayout() -> Layout? {
        if layout == nil, let tree = list() { layout = Layout(tree.directories, unreadable: tree.unreadable) }
        return layout
    }

    /// Places the collections of `directories` (nil: every directory of the tree) and of those whose
    /// places they shift, and sets the members of their albums.
    ///
    /// `mediaDirectories` are the directories holding media as a scan tracks them while its batches
    /// commit (what the store had, and what each batch adds), rather than reading every file under
    /// the root again. They only grow, so such a pass only adds: an album for a directory with its
    /// first media, the folders above it, new places for the siblings these shift. When the
    /// library's newest change is this mirror's last batch, it starts from what that batch placed;
    /// otherwise from nothing, over every directory. Call ``committed(token:)`` once the transaction
    /// has committed.
    ///
    /// Without `mediaDirectories` the store says what each directory holds, and the pass settles:
    /// collections whose directory is gone or holds no media are deleted (what went is settled so
    /// at the end of a scan, which then finds the same collections in the same places).
    ///
    /// `arrivals` are the files the transaction committed, by directory: appended to their album
    /// when it needs nothing else, without reading the directory.
    mutating func place(
        _ directories: Set<String>?, in transaction: LibraryTransaction, mediaDirectories: Set<String>? = nil,
        arrivals: [String: [String]] = [:]
    ) throws {
        let members = Members(of: directories, arrivals: arrivals)
        guard let media = mediaDirectories else {
            placed = nil
            if let directories, try placeMembersAlone(directories, members: members, transaction) { return }
            try settle(transaction)
            return
        }
        // Directories the library made for albums are albums too, photos or not, so that a batch
        // places their siblings where the settling pass will.
        let known = media.union(try transaction.directoriesMadeByLibrary(under: root))
        let newest = try transaction.newestChangeToken()
        checkedToken = newest
        // Until the transaction commits, what is placed is not known to be in the library. (Moved
        // out, not copied: one reference, so the batch changes it in place.)
        var state = placed
        placed = nil
        guard let tree = madeLayout() else { return }
        let remembered = state?.token == newest && directories != nil
        if !remembered {
            let pool = try pool(tree, transaction)
            placedEverything = !passedABatch && pool.isEmpty
            state = Placement(tree, pool: pool)
        }
        passedABatch = true
        try pass(
            tree, &state!, changed: remembered ? directories : nil, mediaDirectories: known, members: members,
            transaction)
        state!.token = nil
        placed = state
    }

    /// Tells the mirror that a batch's transaction committed, with the token of its change-log
    /// entry (nil: it appended none). After a batch this mirror placed, what it placed is what the
    /// library holds as of that token. After a batch it did not place, which wrote an entry, another
    /// writer may have committed before it: the next batch looks at the whole tree.
    mutating func committed(token: Int64?) {
        if let checked = checkedToken {
            placed?.token = token ?? checked
        } else if token != nil {
            placed?.token = nil
        }
        checkedToken = nil
    }

    /// The store's directory collections under the root, for a pass that starts from nothing.
    private func pool(_ tree: Layout, _ transaction: LibraryTransaction) throws -> CollectionPool {
        CollectionPool(try transaction.directoryCollections(under: root), frozen: tree.frozen)
    }

    /// A pass that reads media from the store and starts from nothing placed (the daemon's): when
    /// none of `directories` gains its first media or loses its last, their albums' members are all
    /// that changes, and the tree is not listed. False when one does: the tree changes shape.
    private mutating func placeMembersAlone(
        _ directories: Set<String>, members: Members, _ transaction: LibraryTransaction
    ) throws -> Bool {
        var albums: [(CollectionRecord, [Int64])] = []
        for directory in directories.sorted() {
            let album = try transaction.directoryAlbum(at: directory)
            if let album, try members.appended(to: album, directory: directory, transaction) { continue }
            let assets = try transaction.primaryAssets(inDirectory: directory)
            switch (album, assets.isEmpty) {
            case (let album?, false): albums.append((album, assets))
            case (nil, true): continue
            default: return false
            }
        }
        for (album, assets) in albums { try transaction.setMembers(ofCollection: album, to: assets) }
        lastPass = Pass(wholeTree: false, directories: directories.count)
        return true
    }

    /// The pass over every directory with the store's media, which then deletes the collections no
    /// directory took. The tree's photos and videos are read in one statement, by directory: what
    /// this holds is the albums' members (an asset's id each), never the files of the whole tree.
    private mutating func settle(_ transaction: LibraryTransaction) throws {
        guard let tree = madeLayout() else { return }
        // One statement for the tree: a server's round trip each would cost more than their reads,
        // and SQLite's 3,000 statements for as many directories took a first scan's last 25 ms.
        // What lies in no readable directory of the tree is not an album's.
        let readablePaths = Set(
            tree.directories.indices.filter { !tree.isUnreadable($0) }.map { tree.directories[$0].path })
        let assetsByDirectory = try transaction.primaryAssets(under: root).filter { readablePaths.contains($0.key) }
        // Every album's members are compared: read them all at once, not album by album.
        let members = Members(
            of: nil, byDirectory: assetsByDirectory, current: try transaction.membersOfDirectoryAlbums(under: root))
        var state = Placement(tree, pool: try pool(tree, transaction))
        // A directory the library made for an album is an album while it exists, photos or not.
        let albumDirectories = Set(assetsByDirectory.keys).union(
            try transaction.directoriesMadeByLibrary(under: root).filter { tree.indexes[$0] != nil })
        try pass(tree, &state, changed: nil, mediaDirectories: albumDirectories, members: members, transaction)
        // What lies below an unreadable directory was not seen: it stays as it was.
        let stale = state.pool.untaken.filter { $0.path.map(tree.frozen.contains) != true }
        // Deepest first, so a folder is not deleted before what it holds is accounted for.
        for collection in stale.sorted(by: { ($0.path ?? "").count > ($1.path ?? "").count }) {
            if try transaction.collection(id: collection.id!) != nil { try transaction.deleteCollection(collection) }
        }
    }

    /// What passes placed: which directories hold collections and which those are, as the library
    /// holds them once the pass's transaction has committed.
    private struct Placement {
        var isList: [Bool]
        var hasCollection: [Bool]
        /// The folder and the album of each directory, as last written.
        var lists: [Int: CollectionRecord] = [:]
        var albums: [Int: CollectionRecord] = [:]
        /// The collections no directory took, which a directory that gains its first media may take.
        var pool: CollectionPool
        /// The newest change-log token when this was true of the library; nil until the pass commits.
        var token: Int64?

        /// Nothing placed yet: the store's collections wait in `pool` for their directories.
        init(_ tree: Layout, pool: CollectionPool) {
            isList = [Bool](repeating: false, count: tree.directories.count)
            hasCollection = isList
            self.pool = pool
        }

        /// Marks that directory `index` has an album now (unreadable: the collections the store kept
        /// for it), and that the directories above it that were not folders are; adds to `recounted`
        /// the folders whose children's places this changes (nil: the top level).
        mutating func grow(_ index: Int, in tree: Layout, recounting recounted: inout Set<Int?>) {
            if tree.isUnreadable(index) {
                let path = tree.directories[index].path
                isList[index] = pool.holds(path, list: true)
                hasCollection[index] = pool.holds(path, list: nil)
                guard hasCollection[index] else { return }
                if isList[index] { recounted.insert(index) }
            } else {
                guard albums[index] == nil else { return }
                // A folder's new album comes first in it.
                if isList[index] {
                    recounted.insert(index)
                    return
                }
            }
            // A new collection among its parent's children; the directories above that were not
            // folders become folders.
            hasCollection[index] = true
            var child = index
            while let parent = tree.parents[child] {
                recounted.insert(parent)
                if isList[parent] { return }
                isList[parent] = true
                hasCollection[parent] = true
                child = parent
            }
            recounted.insert(nil)
        }
    }

    /// The pass: from what is placed (`state`), places the collections of `changed` directories
    /// (nil: every directory, `state` holding nothing yet), then of every directory whose place
    /// among its siblings these shift, in path order, a folder before its album, so that a pass over
    /// some directories writes each collection as the pass over all of them would, and the same
    /// changes are recorded; and sets the members of the albums of `changed` (``Members``).
    ///
    /// Directories only gain collections here: what a directory lost is for ``settle(_:)``, which
    /// starts from nothing.
    private mutating func pass(
        _ tree: Layout, _ state: inout Placement, changed: Set<String>?, mediaDirectories: Set<String>,
        members: Members, _ transaction: LibraryTransaction
    ) throws {
        // The folders whose children (their own album first) get their places anew; nil: the top level.
        var recounted = Set<Int?>()
        // The directories to look at.
        var visit = Set<Int>()
        let rootIndex = tree.indexes[root]
        if let changed {
            for path in changed {
                guard let index = tree.indexes[path], !tree.isUnreadable(index), mediaDirectories.contains(path) else {
                    continue
                }
                visit.insert(index)
                state.grow(index, in: tree, recounting: &recounted)
            }
        } else {
            // From nothing: the root is always a folder, and every directory with media or kept
            // collections grows its own.
            if let rootIndex {
                state.isList[rootIndex] = true
                state.hasCollection[rootIndex] = true
                recounted.insert(nil)
            }
            for index in tree.directories.indices
            where tree.isUnreadable(index) || mediaDirectories.contains(tree.directories[index].path) {
                state.grow(index, in: tree, recounting: &recounted)
            }
        }
        // Every collection of a recounted folder is looked at: its own album, and its children's.
        for key in recounted {
            guard let folder = key else {
                if let rootIndex { visit.insert(rootIndex) }
                continue
            }
            if tree.isUnreadable(folder) || mediaDirectories.contains(tree.directories[folder].path) {
                visit.insert(folder)
            }
            for child in tree.children[folder] where state.hasCollection[child] { visit.insert(child) }
        }

        var positions: [Int?: Int] = [:]
        var newAlbums: [(album: CollectionRecord, directory: String)] = []
        for index in visit.sorted(by: { tree.ranks[$0] < tree.ranks[$1] }) {
            let directory = tree.directories[index]
            let title = PathName.name(of: directory.path)
            let unreadable = tree.isUnreadable(index)
            var newAlbum = false
            for list in [true, false] {
                // A folder is among its parent's children; an album in its own folder if there is one.
                let key = list || !state.isList[index] ? tree.parents[index] : index
                // A collection whose place is not worked out again stays where it is.
                guard recounted.contains(key) else { continue }
                if !unreadable, !(list ? state.isList[index] : mediaDirectories.contains(directory.path)) { continue }
                let found = (list ? state.lists[index] : state.albums[index]) ?? state.pool.take(directory, list: list)
                // An unreadable directory keeps what it had (members too), only placed among its siblings.
                if unreadable, found == nil { continue }
                let parent = key.flatMap { state.lists[$0] }
                let record = try upsert(
                    found, directory: directory, list: list, title: unreadable ? found?.title ?? title : title,
                    parent: parent, position: positions[key, default: 0], transaction)
                positions[key, default: 0] += 1
                if list {
                    state.lists[index] = record
                } else {
                    state.albums[index] = record
                    newAlbum = found == nil
                }
            }
            if !unreadable, mediaDirectories.contains(directory.path), members.includes(directory.path),
                let album = state.albums[index]
            {
                if newAlbum, members.byDirectory == nil {
                    newAlbums.append((album, directory.path))
                } else {
                    try members.set(album, new: newAlbum, directory: directory.path, transaction)
                }
            }
        }
        // New albums' members are read after the pass, a thousand directories a statement, rather
        // than one album at a time: a round trip each where statements are, and on SQLite 2,000
        // statements of a first scan of the bench tree.
        if !newAlbums.isEmpty {
            let assets = try transaction.primaryAssets(inDirectories: newAlbums.map(\.directory))
            for (album, directory) in newAlbums {
                try transaction.setMembers(ofNewCollection: album, to: assets[directory] ?? [])
            }
        }
        lastPass = Pass(wholeTree: changed == nil, directories: visit.count)
    }

    /// How a pass sets the members of the albums it looks at.
    private struct Members {
        /// The directories whose albums get their members; nil: every album the pass looks at.
        var of: Set<String>?
        /// Files a batch committed, by directory: appended to an album that needs nothing else.
        var arrivals: [String: [String]] = [:]
        /// Each directory's assets, when read at once for the whole tree; nil: read directory by directory.
        var byDirectory: [String: [Int64]]? = nil
        /// Every album's members now, by album id, read at once with ``byDirectory``.
        var current: [Int64: [Int64]] = [:]

        func includes(_ directory: String) -> Bool { of?.contains(directory) ?? true }

        /// Whether `directory`'s arrivals were appended to `album`, which then needs nothing else.
        func appended(
            to album: CollectionRecord, directory: String, _ transaction: LibraryTransaction
        ) throws -> Bool {
            guard let paths = arrivals[directory] else { return false }
            return try transaction.appendArrivals(atPaths: paths, toAlbum: album)
        }

        /// Makes `album`'s members `directory`'s assets; an album inserted by this pass (`new`) has
        /// none yet to compare with.
        func set(
            _ album: CollectionRecord, new: Bool, directory: String, _ transaction: LibraryTransaction
        ) throws {
            if new {
                try transaction.setMembers(ofNewCollection: album, to: assets(in: directory, transaction))
                return
            }
            if try appended(to: album, directory: directory, transaction) { return }
            let assets = try assets(in: directory, transaction)
            // Members the read of the whole tree's found in place need no write (nor a read each).
            if byDirectory != nil, (current[album.id!] ?? []) == assets { return }
            try transaction.setMembers(ofCollection: album, to: assets)
        }

        private func assets(in directory: String, _ transaction: LibraryTransaction) throws -> [Int64] {
            try byDirectory.map { $0[directory] ?? [] } ?? transaction.primaryAssets(inDirectory: directory)
        }
    }

    /// Writes a directory's collection (`found`, or a new one) where it belongs: in `parent` (nil:
    /// the top level) at `position`.
    private func upsert(
        _ found: CollectionRecord?, directory: CrawledDirectory, list: Bool, title: String,
        parent parentRecord: CollectionRecord?, position: Int, _ transaction: LibraryTransaction
    ) throws -> CollectionRecord {
        let parent = parentRecord?.id
        if var record = found {
            // Only what PhotoKit shows is a change of the collection: a new place among its
            // siblings is a change of its folder's `collections` (the transaction records it), a
            // directory's new inode no change at all.
            var changed: [String] = []
            if record.title != title { changed.append("localizedTitle") }
            if record.parentId != parent { changed.append("parent") }
            if record.path != directory.path { changed.append("path") }
            if record.inode != directory.inode || record.device != directory.device || record.position != position
                || !changed.isEmpty
            {
                record.title = title
                record.path = directory.path
                record.parentId = parent
                record.position = position
                record.device = directory.device
                record.inode = directory.inode
                try transaction.updateCollection(record, properties: changed)
            }
            return record
        }
        var record = CollectionRecord(
            localIdentifier: LocalIdentifier.make(list ? .collectionList : .assetCollection), isList: list,
            type: list ? PHCollectionListType.folder.rawValue : PHAssetCollectionType.album.rawValue,
            subtype: list
                ? PHCollectionListSubtype.regularFolder.rawValue : PHAssetCollectionSubtype.albumRegular.rawValue,
            title: title, parentId: parent, position: position, path: directory.path,
            createdDate: Date().timeIntervalSince1970)
        record.device = directory.device
        record.inode = directory.inode
        record.id = try transaction.insertCollection(record, in: parentRecord)
        return record
    }
}

/// The directory collections a pass may give to directories, each to one: by path first, then by
/// device and inode (a renamed directory), never one under an unreadable directory by inode.
/// Candidates are tried in the order the store listed them.
struct CollectionPool {
    private let records: [CollectionRecord]
    private let byPath: [String: [Int]]
    private let byInode: [Inode: [Int]]
    private let frozen: FrozenPaths
    private var taken = Set<Int64>()

    /// Whether the library had no collection for the tree.
    var isEmpty: Bool { records.isEmpty }

    init(_ records: [CollectionRecord], frozen: FrozenPaths) {
        self.records = records
        self.frozen = frozen
        var byPath: [String: [Int]] = [:]
        var byInode: [Inode: [Int]] = [:]
        for (index, record) in records.enumerated() {
            if let path = record.path { byPath[path, default: []].append(index) }
            if let device = record.device, let inode = record.inode {
                byInode[Inode(device, inode), default: []].append(index)
            }
        }
        self.byPath = byPath
        self.byInode = byInode
    }

    /// Whether a collection at `path` exists, a folder or album (`list`) or either (nil), taken or not.
    func holds(_ path: String, list: Bool?) -> Bool {
        (byPath[path] ?? []).contains { list == nil || records[$0].isList == list }
    }

    /// The collection `directory` keeps, if any, which no other directory may take after it.
    mutating func take(_ directory: CrawledDirectory, list: Bool) -> CollectionRecord? {
        let match =
            (byPath[directory.path] ?? []).first { records[$0].isList == list && !taken.contains(records[$0].id!) }
            ?? (byInode[Inode(directory.device, directory.inode)] ?? []).first {
                records[$0].isList == list && !taken.contains(records[$0].id!)
                    && records[$0].path.map(frozen.contains) != true
            }
        guard let index = match else { return nil }
        taken.insert(records[index].id!)
        return records[index]
    }

    /// The collections no directory took, in the store's order.
    var untaken: [CollectionRecord] { records.filter { !taken.contains($0.id!) } }
}

/// Places directories in their albums outside a scan, as the directory mirror's pass does: for
/// changes the library makes itself that leave a directory of photos without its album (an asset
/// restored from the Trash to a directory whose album was renamed away meanwhile).
public enum DirectoryAlbumPlacement {
    /// Gives each of `directories` under `root` the album the mirror gives it (one is made, with its
    /// folders, where none is), crawling `root` only when the pass needs to.
    public static func place(_ directories: Set<String>, under root: String, in transaction: LibraryTransaction)
        throws
    {
        let crawler = Crawler()
        var mirror = DirectoryMirror(root: root) { crawler.crawl(root) }
        try mirror.place(directories, in: transaction)
    }
}
