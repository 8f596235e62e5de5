import Foundation
import PhotosCore
@testable import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// A scan's batches place only the collections their files change: the first batch looks at the
/// whole tree, a later one at its own directories and the siblings they shift, and writes exactly
/// what a pass over the whole tree would have written (which every batch once made: a scan of
/// thousands of directories spent a fifth of its time there). Both are the same pass, over all
/// directories or some: a mirror that remembers nothing passes over the whole tree.
@Suite struct DirectoryMirrorTests {
    /// Directories made up in memory: the mirror reads only paths, parents and inodes.
    struct Directories {
        let root = "/pictures"
        var all: [CrawledDirectory] = []
        var nextInode: Int64 = 1

        init() { all = [CrawledDirectory(path: root, parent: nil, device: 1, inode: 0)] }

        @discardableResult
        mutating func add(_ relative: String) -> String {
            var parent = root
            for name in relative.split(separator: "/") {
                let path = parent + "/" + name
                if !all.contains(where: { $0.path == path }) {
                    all.append(CrawledDirectory(path: path, parent: parent, device: 1, inode: nextInode))
                    nextInode += 1
                }
                parent = path
            }
            return parent
        }

        func path(_ relative: String) -> String { root + "/" + relative }
    }

    /// One batch's transaction, as the scanner makes it: the batch's media, then its places.
    static func batch(
        _ mirror: inout DirectoryMirror, _ database: LibraryDatabase, media: inout Set<String>, touched: Set<String>
    ) throws -> Int64? {
        media.formUnion(touched)
        let known = media
        let token = try database.write { transaction in
            try mirror.place(touched, in: transaction, mediaDirectories: known)
        }.token
        mirror.committed(token: token)
        return token
    }

    @Test func aLaterBatchLooksOnlyAtTheDirectoriesItChanges() throws {
        var tree = Directories()
        let first = (0..<5).map { tree.add("2024/Day \($0)") }
        let others = (0..<40).map { tree.add("Archive/\($0 / 10)/Roll \($0)") }
        let fresh = tree.add("2024/Day 5")
        let database = try LibraryDatabase()
        var mirror = DirectoryMirror(root: tree.root, directories: tree.all)
        var media = Set<String>()

        _ = try Self.batch(&mirror, database, media: &media, touched: Set(first + others))
        // The first batch looks at everything: the root, 2024, Archive and its 4 folders, 45 albums.
        #expect(mirror.lastPass == .init(wholeTree: true, directories: 52))

        // More files in a known album: that album alone.
        _ = try Self.batch(&mirror, database, media: &media, touched: [first[2]])
        #expect(mirror.lastPass == .init(wholeTree: false, directories: 1))

        // A new album in 2024: 2024's children, not the 40 albums in Archive.
        _ = try Self.batch(&mirror, database, media: &media, touched: [fresh])
        #expect(mirror.lastPass == .init(wholeTree: false, directories: 6))

        // Another writer commits in between: what the mirror remembers may be stale, so the whole
        // tree is looked at again.
        try database.write { transaction in
            let album = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: "Best", createdDate: 0)
            try transaction.insertCollection(album)
        }
        _ = try Self.batch(&mirror, database, media: &media, touched: [first[0]])
        #expect(mirror.lastPass == .init(wholeTree: true, directories: 53))
        _ = try Self.batch(&mirror, database, media: &media, touched: [first[1]])
        #expect(mirror.lastPass == .init(wholeTree: false, directories: 1))
    }

    /// Two scans of random trees (renamed, unreadable and new directories in the second), batch by
    /// batch, with a fresh mirror for every batch (a pass over the whole tree) and with one mirror
    /// for the scan (passes over the batches' directories): the same change-log entries, in the same
    /// order, and the same collections. And after each batch of the second way, a fresh pass over
    /// the same tree finds nothing to change (``scans(seed:freshMirrorEachBatch:)``).
    @Test(arguments: 0..<100)
    func batchesWriteWhatAPassOverTheWholeTreeWrites(seed: UInt64) throws {
        let whole = try Self.scans(seed: seed, freshMirrorEachBatch: true)
        let changes = try Self.scans(seed: seed, freshMirrorEachBatch: false)
        #expect(whole.collections == changes.collections)
        #expect(whole.entries.count == changes.entries.count)
        for (old, new) in zip(whole.entries, changes.entries) {
            #expect(old == new)
        }
    }

    /// What the two scans of a seed write: every entry's collection changes and every directory
    /// collection, identifiers replaced by row ids (the same when collections are made in the same order).
    /// With one mirror for the scan, each batch is followed by a fresh mirror's pass over the whole
    /// tree, which must find every collection where the batch left it: no write, no change recorded.
    static func scans(seed: UInt64, freshMirrorEachBatch: Bool) throws -> (entries: [String], collections: [String]) {
        var random = SplitMix64(seed: seed)
        var tree = Directories()
        let names = ["A", "A b", "A-c", "Ab", "B", "a", "b 2", "B.x"]
        func grow(_ parent: String, depth: Int) {
            for name in names.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                let relative = parent.isEmpty ? name : parent + "/" + name
                tree.add(relative)
                if depth < 3, Bool.random(using: &random) { grow(relative, depth: depth + 1) }
            }
        }
        grow("", depth: 0)
        let database = try LibraryDatabase()
        var entries: [String] = []
        var tokens: [Int64] = []

        func scan(_ directories: [CrawledDirectory], unreadable: [CrawledDirectory], media: Set<String>) throws {
            func freshMirror() -> DirectoryMirror {
                DirectoryMirror(root: tree.root, directories: directories, unreadable: unreadable)
            }
            var mirror = freshMirror()
            var media = media
            let candidates = directories.map(\.path)
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let touched = Set(
                    (0..<Int.random(in: 1...4, using: &random)).map { _ in
                        candidates.randomElement(using: &random)!
                    })
                if freshMirrorEachBatch { mirror = freshMirror() }
                if let token = try batch(&mirror, database, media: &media, touched: touched) { tokens.append(token) }
                if !freshMirrorEachBatch {
                    let before = try rows(database, under: tree.root)
                    var fresh = freshMirror()
                    let known = media
                    let token = try database.write { transaction in
                        try fresh.place(touched, in: transaction, mediaDirectories: known)
                    }.token
                    #expect(fresh.lastPass.wholeTree)
                    #expect(token == nil, "a fresh pass over the whole tree recorded a change after a batch")
                    #expect(try rows(database, under: tree.root) == before)
                }
                // Now and then another writer: a user album, or a directory album retitled.
                if Int.random(in: 0..<5, using: &random) == 0 {
                    let retitle = Bool.random(using: &random)
                    tokens.append(
                        try database.write { transaction in
                            if retitle, var album = try transaction.directoryCollections(under: tree.root).first {
                                album.title = "Renamed"
                                try transaction.updateCollection(album, properties: ["localizedTitle"])
                            } else {
                                let album = CollectionRecord(
                                    localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                                    type: PHAssetCollectionType.album.rawValue,
                                    subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "Best",
                                    createdDate: 0)
                                try transaction.insertCollection(album)
                            }
                        }.token!)
                }
            }
        }

        // The first scan; the second starts from the albums it made, as from the files the store has.
        try scan(tree.all, unreadable: [], media: [])
        let stored = Set(
            try database.write { try $0.directoryCollections(under: tree.root) }.value.compactMap {
                $0.isList ? nil : $0.path
            })

        // The second: a directory renamed (same inode), one unreadable (kept with what is below it),
        // new ones.
        var second = tree.all
        var unreadable: [CrawledDirectory] = []
        if second.count > 2 {
            let renamed = second[Int.random(in: 1..<second.count, using: &random)].path
            let newPath = renamed + " (renamed)"
            func moved(_ path: String) -> String {
                path == renamed || path.hasPrefix(renamed + "/") ? newPath + path.dropFirst(renamed.count) : path
            }
            second = second.map { directory in
                var directory = directory
                directory.path = moved(directory.path)
                directory.parent = directory.parent.map(moved)
                return directory
            }
        }
        // Unreadable: a directory that has collections, which keep their places among new siblings.
        let collections = try database.write { try $0.directoryCollections(under: tree.root) }.value
        let collected = Set(collections.compactMap(\.path))
        let candidates = second.filter { $0.path != tree.root && collected.contains($0.path) }
        if let gone = candidates.randomElement(using: &random) {
            unreadable = [gone]
            second.removeAll { $0.path == gone.path || $0.path.hasPrefix(gone.path + "/") }
        }
        tree.all = second
        grow("", depth: 1)
        // New directories, some sorting before their siblings ("0"), some after ("z").
        for parent in second.shuffled(using: &random).prefix(4) {
            let relative = parent.path == tree.root ? "" : String(parent.path.dropFirst(tree.root.count + 1)) + "/"
            tree.add(relative + (Bool.random(using: &random) ? "0 New" : "z New"))
        }
        try scan(tree.all, unreadable: unreadable, media: stored)

        for token in tokens {
            let entry = try #require(try database.changes(after: token - 1).first)
            entries.append(try Self.describe(entry, database))
        }
        let placed = try database.write { try $0.directoryCollections(under: tree.root) }.value.sorted {
            $0.id! < $1.id!
        }.map {
            "\($0.id!) \($0.isList ? "folder" : "album") \($0.path ?? "") \($0.title ?? "")"
                + " in \($0.parentId ?? 0) at \($0.position)"
        }
        return (entries, placed)
    }

    /// A first scan places its collections batch by batch and settles nothing at its end: every
    /// file came with its batches, and the collections from none. A settling pass over the library
    /// afterwards writes nothing (the corpus twice, nested, in batches of five files).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFirstScanLeavesASettlingPassNothingToDo() throws {
        let tree = try Tree()
        let corpus = try #require(Corpus.root)
        for place in ["a", "b/c"] {
            let destination = tree.root.appendingPathComponent(place)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: corpus, to: destination)
        }
        let database = tree.library.database
        let report = try FolderScanner(database: database, batchSize: 5, quietTime: 0).scan(roots: [tree.root.path])
        #expect(report.ingested > 150, "\(report)")
        let albums = try Self.rows(database, under: tree.root.path)
        #expect(albums.count > 20)

        let root = tree.root.path
        var settling = DirectoryMirror(root: root) { Crawler().crawl(root) }
        let token = try database.write { try settling.place(nil, in: $0) }.token
        #expect(token == nil, "the settling pass found something to change")
        #expect(try Self.rows(database, under: root) == albums)
    }

    /// Where the library had a collection for the tree before its first scan (here an album of a
    /// directory gone from disk), the scan settles: the album goes.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFirstScanSettlesCollectionsTheLibraryHadBefore() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Trip/a.jpg")
        let gone = tree.root.appendingPathComponent("Gone").path
        try tree.library.database.write { transaction in
            let album = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: "Gone", path: gone, createdDate: 0)
            _ = try transaction.insertCollection(album, in: nil)
        }
        #expect(try tree.scan().ingested == 1)
        let paths = try Self.rows(tree.library.database, under: tree.root.path)
        #expect(tree.album(at: "Trip") != nil)
        #expect(!paths.contains { $0.contains(gone) }, "\(paths)")
    }

    /// Every directory collection as stored, every column.
    static func rows(_ database: LibraryDatabase, under root: String) throws -> [String] {
        try database.write { try $0.directoryCollections(under: root) }.value.map { "\($0)" }.sorted()
    }

    /// An entry with row ids for identifiers.
    static func describe(_ entry: LibraryChange, _ database: LibraryDatabase) throws -> String {
        func id(_ identifier: String) throws -> String {
            let record = try database.write { try $0.collection(withLocalIdentifier: identifier) }.value
            return record.map { "#\($0.id!)" } ?? "gone"
        }
        func describe(_ changes: ObjectChanges) throws -> String {
            let updated = try changes.updated.map { "\(try id($0))\(changes.changedProperties[$0] ?? [])" }
            return "+\(try changes.inserted.map(id)) ~\(updated) -\(try changes.deleted.map(id))"
        }
        return "albums \(try describe(entry.assetCollection)); folders \(try describe(entry.collectionList))"
    }
}
