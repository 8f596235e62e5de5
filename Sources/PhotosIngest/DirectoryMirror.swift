import Foundation
import PhotosCore
import PhotosStore

/// Mirrors a root's directory tree as collections: the root and every directory holding
/// directories with media are folders (collection lists); every directory holding media is an
/// album. A directory holding both media and such directories is a folder whose first child is
/// an album of the same name with its own media.
///
/// Collections are matched to directories by path, then by device and inode, so a renamed
/// directory keeps its collection (and its identifier) with the new title.
///
/// A directory that could not be listed (`unreadable`) keeps its collections and everything
/// below them as they were: nothing under it was seen, so nothing under it is known to have changed.
///
/// A scan places what each batch brings as the batch commits (``place(in:mediaDirectories:touched:)``,
/// then ``committed(token:)``) and settles the whole tree once at the end (``apply(in:)``). The
/// first batch looks at every directory; a later one only at the directories whose collections its
/// files change, because the mirror remembers what it placed: a batch of a scan of thousands of
/// directories costs what its own directories cost, not what the tree costs.
struct DirectoryMirror {
    let root: String
    /// The readable directories, the root first.
    private let crawled: [CrawledDirectory]
    /// The directories that could not be listed.
    private let unreadable: [CrawledDirectory]
    /// The directories indexed for a pass, made by the first (a scan of an unchanged tree makes none).
    private var layout: Layout?

    /// What the last pass placed, while it is known to be what the library holds; nil before the
    /// first batch, and whenever another writer may have changed the library since.
    private var placed: Placement?
    /// The newest change-log token a batch's pass found, until its transaction commits.
    private var checkedToken: Int64?
    /// Always pass over the whole tree, as every batch once did (tests compare the two).
    var placesWholeTree = false
    /// What the last pass looked at (tests count it).
    private(set) var lastPass = Pass(wholeTree: false, directories: 0)

    /// A pass's work: over the whole tree or not, and how many directories it placed collections for.
    struct Pass: Equatable {
        var wholeTree: Bool
        var directories: Int
    }

    init(root: String, directories: [CrawledDirectory], unreadable: [CrawledDirectory] = []) {
        self.root = root
        crawled = directories
        self.unreadable = unreadable
    }

    /// The tree's directories as a pass walks them, each named by its index in ``directories``.
    private struct Layout {
        /// Every directory, the readable ones first, then the unreadable ones: the order a pass over
        /// the whole tree finds them in.
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
        /// Every directory in path order: parents before their children, siblings in order.
        let pathOrder: [Int]
        /// Each directory's place in ``pathOrder``.
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
            let pathOrder = all.indices.sorted { all[$0].path < all[$1].path }
            self.pathOrder = pathOrder
            var ranks = [Int](repeating: 0, count: all.count)
            var children = [[Int]](repeating: [], count: all.count)
            for (rank, index) in pathOrder.enumerated() {
                ranks[index] = rank
                if let parent = parents[index] { children[parent].append(index) }
            }
            self.ranks = ranks
            self.children = children
        }

        func isUnreadable(_ index: Int) -> Bool { index >= firstUnreadable }
    }

    /// The layout, made once.
    private mutating func madeLayout() -> Layout {
        if let layout { return layout }
        let made = Layout(crawled, unreadable: unreadable)
        layout = made
        return made
    }

    /// Makes the collections match the tree and the store's files under the root, members of
    /// every album included; collections whose directory is gone are deleted.
    ///
    /// Each directory's media are read on their own (``DirectoryRanges``), so what this holds is
    /// the albums' members, never the files of the whole tree.
    func apply(in transaction: LibraryTransaction) throws {
        let tree = layout ?? Layout(crawled, unreadable: unreadable)
        var assetsByDirectory: [String: [Int64]] = [:]
        for index in tree.directories.indices where !tree.isUnreadable(index) {
            let directory = tree.directories[index].path
            let ranges = DirectoryRanges(
                directory: directory, subdirectories: tree.children[index].map { tree.directories[$0].path })
            let assets = try transaction.primaryAssets(in: ranges)
            if !assets.isEmpty { assetsByDirectory[directory] = assets }
        }
        // Every album's members are compared: read them all at once, not album by album.
        let members = try transaction.membersOfDirectoryAlbums(under: root)
        _ = try placeWholeTree(
            tree, mediaDirectories: Set(assetsByDirectory.keys), removingStale: true, members: members, transaction
        ) { directory in assetsByDirectory[directory] ?? [] }
    }

    /// What one batch of a scan needs in its own transaction, so that the assets it commits arrive
    /// with their album: the collections of `mediaDirectories` (the directories known to hold media
    /// now, which the scanner tracks, not reading every file under the root again), and the members
    /// of the albums of `touched` (the directories whose files the batch committed). Nothing is
    /// deleted: what went is settled by ``apply(in:)`` at the end of the scan, which then finds the
    /// same collections in the same places.
    ///
    /// When the library's newest change is this mirror's last batch, only the directories this
    /// batch changes are looked at (``placeChanges(_:mediaDirectories:touched:_:)``), with the same
    /// outcome, change for change, as a pass over the whole tree; otherwise the whole tree is.
    /// Call ``committed(token:)`` once the transaction has committed.
    mutating func place(
        in transaction: LibraryTransaction, mediaDirectories: Set<String>, touched: Set<String>
    ) throws {
        let newest = try transaction.newestChangeToken()
        checkedToken = newest
        // Until the transaction commits, what is placed is not known to be in the library. (Moved
        // out, not copied: one reference, so the batch changes it in place.)
        var state = placed
        placed = nil
        let layout = madeLayout()
        if state?.token == newest, !placesWholeTree {
            try placeChanges(layout, &state!, mediaDirectories: mediaDirectories, touched: touched, transaction)
            placed = state
        } else {
            let whole = try placeWholeTree(
                layout, mediaDirectories: mediaDirectories, removingStale: false, transaction
            ) { touched.contains($0) ? try transaction.primaryAssets(inDirectory: $0) : nil }
            placed = whole.state
            lastPass = Pass(wholeTree: true, directories: whole.looked)
        }
        placed?.token = nil
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

    /// What a pass placed: which directories hold collections and which those are, as the library
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
    }

    /// The one way collections are placed over the whole tree, for a whole scan and for a batch
    /// alike. `ordered` gives an album's assets in order, or nil to leave its members as they are;
    /// `members`, when given, are the albums' members now (by album id).
    private func placeWholeTree(
        _ tree: Layout, mediaDirectories: Set<String>, removingStale: Bool, members: [Int64: [Int64]]? = nil,
        _ transaction: LibraryTransaction, ordered: (String) throws -> [Int64]?
    ) throws -> (state: Placement, looked: Int) {
        let pool = CollectionPool(try transaction.directoryCollections(under: root), frozen: tree.frozen)

        // Which directories become lists and albums, children first (the reverse of path order). An
        // unreadable directory keeps the collections it had.
        var isList = [Bool](repeating: false, count: tree.directories.count)
        var hasCollection = isList
        for index in tree.pathOrder.reversed() {
            let path = tree.directories[index].path
            if tree.isUnreadable(index) {
                isList[index] = pool.holds(path, list: true)
                hasCollection[index] = pool.holds(path, list: nil)
                continue
            }
            isList[index] = path == root || tree.children[index].contains { hasCollection[$0] }
            hasCollection[index] = isList[index] || mediaDirectories.contains(path)
        }

        var state = Placement(isList: isList, hasCollection: hasCollection, pool: pool)
        var positions: [Int64?: Int] = [:]
        func next(in parent: CollectionRecord?) -> Int {
            defer { positions[parent?.id, default: 0] += 1 }
            return positions[parent?.id, default: 0]
        }
        var looked = 0
        for index in tree.pathOrder where hasCollection[index] {
            looked += 1
            let directory = tree.directories[index]
            let title = PathName.name(of: directory.path)
            let parentList = tree.parents[index].flatMap { state.lists[$0] }
            if tree.isUnreadable(index) {
                // Kept as it was (members too), only placed among its siblings.
                for list in [true, false] {
                    guard let found = state.pool.take(directory, list: list) else { continue }
                    let parent = list ? parentList : (isList[index] ? state.lists[index] : parentList)
                    let record = try upsert(
                        found, directory: directory, list: list, title: found.title ?? title, parent: parent,
                        position: next(in: parent), transaction)
                    if list { state.lists[index] = record } else { state.albums[index] = record }
                }
                continue
            }
            if isList[index] {
                state.lists[index] = try upsert(
                    state.pool.take(directory, list: true), directory: directory, list: true, title: title,
                    parent: parentList, position: next(in: parentList), transaction)
            }
            if mediaDirectories.contains(directory.path) {
                let parent = isList[index] ? state.lists[index] : parentList
                let found = state.pool.take(directory, list: false)
                let album = try upsert(
                    found, directory: directory, list: false, title: title, parent: parent,
                    position: next(in: parent), transaction)
                state.albums[index] = album
                if let assets = try ordered(directory.path) {
                    // Members the read of the whole tree's found in place need no write (nor a read each).
                    let inPlace = found != nil && members.map { ($0[album.id!] ?? []) == assets } == true
                    if !inPlace { try setMembers(of: album, new: found == nil, to: assets, transaction) }
                }
            }
        }
        guard removingStale else { return (state, looked) }
        // What lies below an unreadable directory was not seen: it stays as it was.
        let stale = state.pool.untaken.filter { $0.path.map(tree.frozen.contains) != true }
        // Deepest first, so a folder is not deleted before what it holds is accounted for.
        for collection in stale.sorted(by: { ($0.path ?? "").count > ($1.path ?? "").count }) {
            if try transaction.collection(id: collection.id!) != nil { try transaction.deleteCollection(collection) }
        }
        return (state, looked)
    }

    /// Places what a batch changed, given what the previous passes placed (`state`, true of the
    /// library): the albums of `touched` directories that hold media for the first time, the
    /// folders above them that become folders, and the siblings whose places these shift; and the
    /// members of the `touched` albums. Collections only appear during a scan's batches (the
    /// directories holding media only grow), so nothing else can change.
    ///
    /// Each collection it writes is written as the pass over the whole tree would write it, in the
    /// same order (by path, a folder before its album), so the batch records the same changes.
    private mutating func placeChanges(
        _ tree: Layout, _ state: inout Placement, mediaDirectories: Set<String>, touched: Set<String>,
        _ transaction: LibraryTransaction
    ) throws {
        // Folders whose children (their own album first) need their places worked out again.
        var folders = Set<Int>()
        var visit = Set<Int>()
        for path in touched {
            guard let index = tree.indexes[path], !tree.isUnreadable(index), mediaDirectories.contains(path) else {
                continue
            }
            visit.insert(index)
            guard state.albums[index] == nil else { continue }
            if state.isList[index] {
                // A folder's new album comes first in it.
                folders.insert(index)
                continue
            }
            // A new album among its parent's children; the folders above that were none become folders.
            state.hasCollection[index] = true
            var child = index
            while let parent = tree.parents[child] {
                folders.insert(parent)
                if state.isList[parent] { break }
                state.isList[parent] = true
                state.hasCollection[parent] = true
                child = parent
            }
        }

        // The place of every child of those folders, in the order a whole pass counts them.
        var places: [Slot: Int] = [:]
        for folder in folders {
            var position = 0
            func count(_ index: Int, list: Bool) {
                places[Slot(index: index, list: list)] = position
                position += 1
                visit.insert(index)
            }
            if mediaDirectories.contains(tree.directories[folder].path) { count(folder, list: false) }
            let folderID = state.lists[folder]?.id
            for child in tree.children[folder] {
                if tree.isUnreadable(child) {
                    // Only what it kept, where the whole pass put it.
                    if let list = state.lists[child], folderID != nil, list.parentId == folderID {
                        count(child, list: true)
                    }
                    if let album = state.albums[child], folderID != nil, album.parentId == folderID {
                        count(child, list: false)
                    }
                } else if state.hasCollection[child] {
                    count(child, list: state.isList[child])
                }
            }
        }

        for index in visit.sorted(by: { tree.ranks[$0] < tree.ranks[$1] }) {
            let directory = tree.directories[index]
            let title = PathName.name(of: directory.path)
            let parentList = tree.parents[index].flatMap { state.lists[$0] }
            if tree.isUnreadable(index) {
                for list in [true, false] {
                    guard let found = list ? state.lists[index] : state.albums[index],
                        let position = places[Slot(index: index, list: list)]
                    else { continue }
                    let parent = list ? parentList : (state.isList[index] ? state.lists[index] : parentList)
                    let record = try upsert(
                        found, directory: directory, list: list, title: found.title ?? title, parent: parent,
                        position: position, transaction)
                    if list { state.lists[index] = record } else { state.albums[index] = record }
                }
                continue
            }
            // A collection already placed, whose place is not worked out again, stays where it is.
            if state.isList[index], state.lists[index] == nil || places[Slot(index: index, list: true)] != nil {
                let found = state.lists[index] ?? state.pool.take(directory, list: true)
                state.lists[index] = try upsert(
                    found, directory: directory, list: true, title: title, parent: parentList,
                    position: places[Slot(index: index, list: true)] ?? found?.position ?? 0, transaction)
            }
            guard mediaDirectories.contains(directory.path) else { continue }
            var new = false
            if state.albums[index] == nil || places[Slot(index: index, list: false)] != nil {
                let found = state.albums[index] ?? state.pool.take(directory, list: false)
                new = found == nil
                let parent = state.isList[index] ? state.lists[index] : parentList
                state.albums[index] = try upsert(
                    found, directory: directory, list: false, title: title, parent: parent,
                    position: places[Slot(index: index, list: false)] ?? found?.position ?? 0, transaction)
            }
            if touched.contains(directory.path), let album = state.albums[index] {
                let assets = try transaction.primaryAssets(inDirectory: directory.path)
                try setMembers(of: album, new: new, to: assets, transaction)
            }
        }
        lastPass = Pass(wholeTree: false, directories: visit.count)
    }

    /// A directory's folder (`list`) or album.
    private struct Slot: Hashable {
        var index: Int
        var list: Bool
    }

    /// An album's members: an album inserted in this transaction has none yet to compare with.
    private func setMembers(
        of album: CollectionRecord, new: Bool, to assetIDs: [Int64], _ transaction: LibraryTransaction
    ) throws {
        if new {
            try transaction.setMembers(ofNewCollection: album, to: assetIDs)
        } else {
            try transaction.setMembers(ofCollection: album, to: assetIDs)
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
