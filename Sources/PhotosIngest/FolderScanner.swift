import Dispatch
import Foundation
import Glibc
import PhotosCore
import PhotosMetadata
import PhotosStore
import Synchronization

/// Makes a library match directories on disk: crawl, compare with the store, read what is new or
/// changed, commit in batches, mirror the directory tree as folders and albums.
///
/// ```swift
/// let scanner = FolderScanner(database: try LibraryDatabase(path: "library.sqlite"))
/// let report = try scanner.scan(roots: ["/home/me/Pictures"])
/// print(report.ingested, report.rejected)
/// ```
///
/// Identity is kept across runs: a file at a known path is not read again unless its size or
/// modification time changed (a rescan costs a `stat` per file), and a file that moved keeps its
/// asset (matched by device and inode). A root that cannot be read is marked offline and its
/// assets are kept; so are the assets, albums and folders under a directory that exists but cannot
/// be listed (permissions, a stale mount): they stay, unavailable, until it can be read again.
/// Only a directory that is gone (`ENOENT`) takes its assets with it.
public final class FolderScanner: Sendable {
    /// The library being written.
    public let database: LibraryDatabase
    let extractor: MetadataExtractor
    let crawler: Crawler
    /// Files read and committed per transaction.
    let batchSize: Int
    /// How often, and after how long, a file that changed while it was read is read again.
    let retryAttempts = 3
    let retryDelay = 0.5

    /// How long a file must have been left alone before it is taken as complete, in seconds.
    /// A one-off scan cannot know whether a writer is about to append, so it waits half a second
    /// for recently modified files; the daemon, which saw the writer close the file and waited for
    /// the tree to settle, passes 0.
    let quietTime: Double

    /// A scanner writing to `database`; file dates without an offset are read in `timeZone`.
    /// `directoryReader` lists directories (tests pass one that fails where they say).
    public init(
        database: LibraryDatabase, timeZone: TimeZone = .current, rules: IgnoreRules = IgnoreRules(),
        batchSize: Int = 500, quietTime: Double = 0.5,
        directoryReader: @escaping Crawler.DirectoryReader = Crawler.readDirectory
    ) {
        self.database = database
        self.quietTime = quietTime
        extractor = MetadataExtractor(timeZone: timeZone)
        crawler = Crawler(rules: rules, reader: directoryReader)
        self.batchSize = batchSize
    }

    /// Scans each root once and returns what changed. `progress` is called as files are read.
    public func scan(roots: [String], progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> ScanReport {
        var report = ScanReport()
        for root in roots.map(Self.normalize) {
            guard let tree = crawler.crawl(root) else {
                report.offlineRoots.append(root)
                try database.write { try $0.setRoot(root, offline: true) }
                continue
            }
            try scan(root: root, tree: tree, report: &report, progress: progress)
        }
        return report
    }

    static func normalize(_ path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        if url.path != "/" && url.path.hasSuffix("/") { url = url.deletingLastPathComponent() }
        return url.path
    }

    private func scan(
        root: String, tree: CrawledTree, report: inout ScanReport, progress: (@Sendable (ScanProgress) -> Void)?
    ) throws {
        let unreadable = tree.unreadable.map(\.error)
        report.unreadableDirectories += unreadable
        let frozen = FrozenPaths(unreadable.map(\.path))
        var (stored, rejected) = try database.write { transaction in
            (try transaction.storedFiles(under: root), try transaction.rejectedFiles(under: root))
        }.value
        // What was under an unreadable directory was not seen, not deleted: leave it as it is.
        stored.removeAll { frozen.contains($0.path) }
        rejected = rejected.filter { !frozen.contains($0.key) }
        var mirror = DirectoryMirror(
            root: root, directories: tree.directories, unreadable: tree.unreadable.map(\.directory))
        // The directories holding media as the store has them while batches commit: what it had,
        // and what each batch adds (files that went are deleted at the end).
        var mediaDirectories = Set(stored.filter(\.isPrimary).map(\.directory))
        try reconcile(
            root: root, files: tree.files, stored: stored, rejected: rejected, report: &report, progress: progress,
            place: { transaction, arrivals in
                let touched = Set(arrivals.keys)
                mediaDirectories.formUnion(touched)
                try mirror.place(in: transaction, mediaDirectories: mediaDirectories, touched: touched)
            },
            committed: { mirror.committed(token: $0) }
        ) { transaction, filesChanged in
            try transaction.setUnreadableDirectories(unreadable.map(\.record), under: root)
            // Albums and folders change only when files do (a renamed directory moves its files).
            let mirrored = try transaction.directoryCollection(at: root) != nil
            if filesChanged || !mirrored { try mirror.apply(in: transaction) }
        }
    }

    /// Scans some directories of a root, not what is below them: what the daemon does when files
    /// change in directories it knows. Folders and albums are rebuilt only when one of these
    /// directories gained its first media or lost its last; otherwise only their albums' members
    /// are updated. Moves between the directories keep identity, as in a full scan.
    public func scan(root: String, directories: Set<String>) throws -> ScanReport {
        let root = Self.normalize(root)
        var report = ScanReport()
        var files: [CrawledFile] = []
        var unreadable: [UnreadableDirectory] = []
        for directory in directories.sorted() {
            switch crawler.crawlFiles(in: directory) {
            case .success(let found): files += found
            case .failure(let error): unreadable.append(UnreadableDirectory(path: directory, code: error.code))
            }
        }
        report.unreadableDirectories = unreadable
        let unreadablePaths = Set(unreadable.map(\.path))
        let (stored, rejected, known, online) = try database.write { transaction in
            var stored: [StoredFile] = []
            var rejected: [String: RejectedFile] = [:]
            var known: [String] = []
            let online = try transaction.isOnlineRoot(root)
            for directory in directories {
                known += try transaction.unreadableDirectories(under: directory).filter { $0 == directory }
                // An unreadable directory's files were not seen, not deleted: leave them as they are.
                if unreadablePaths.contains(directory) { continue }
                stored += try transaction.storedFiles(inDirectory: directory)
                for (path, file) in try transaction.rejectedFiles(under: directory)
                where PathName.directory(of: path) == directory {
                    rejected[path] = file
                }
            }
            return (stored, rejected, known, online)
        }.value
        // A directory readable again may hold a whole subtree kept while it was not: scan the root.
        if known.contains(where: { !unreadablePaths.contains($0) }) {
            return try scan(roots: [root])
        }
        try reconcile(
            directories: directories, of: root, files: files, stored: stored, rejected: rejected, online: online,
            unreadable: unreadable, report: &report)
        return report
    }

    /// Looks at some files of a root alone, the paths the daemon's events named (arrived, changed,
    /// moved or deleted files), without listing the rest of their directories: a photo arriving in
    /// a folder of thousands costs what it costs in an empty one. What only a listing can tell (an
    /// ignore marker in the directory, a file or directory that cannot be read, a directory the
    /// store knows unreadable) sends those directories to ``scan(root:directories:)``. Moves between
    /// the paths keep identity, as in any scan.
    public func scan(root: String, files paths: Set<String>) throws -> ScanReport {
        let root = Self.normalize(root)
        let directories = Set(paths.map(PathName.directory(of:)))
        if directories.contains(where: crawler.isExcludedByMarker(directory:)) {
            return try scan(root: root, directories: directories)
        }
        var files: [CrawledFile] = []
        for path in paths.sorted() {
            switch crawler.crawlFile(at: path) {
            case .success(let file?): files.append(file)
            case .success(nil): continue
            case .failure: return try scan(root: root, directories: directories)
            }
        }
        let (stored, rejected, unreadable, online) = try database.write { transaction in
            var unreadable: [String] = []
            for directory in directories { unreadable += try transaction.unreadableDirectories(under: directory) }
            return (
                try transaction.storedFiles(atPaths: paths), try transaction.rejectedFiles(atPaths: paths),
                unreadable, try transaction.isOnlineRoot(root)
            )
        }.value
        guard unreadable.isEmpty else { return try scan(root: root, directories: directories) }
        var report = ScanReport()
        try reconcile(
            directories: directories, of: root, files: files, stored: stored, rejected: rejected, online: online,
            unreadable: [], report: &report)
        return report
    }

    /// Reconciles what was found in some directories of a root (all their files, or some) with the
    /// store's rows for the same. Each batch places the albums of the files it commits; the last
    /// transaction marks `unreadable` directories and settles what moves and deletions changed,
    /// and is left out when it has nothing to do (files that only arrived or changed were placed by
    /// their batches: the daemon's path from close() to the hooks).
    private func reconcile(
        directories: Set<String>, of root: String, files: [CrawledFile], stored: [StoredFile],
        rejected: [String: RejectedFile], online: Bool, unreadable: [UnreadableDirectory], report: inout ScanReport
    ) throws {
        try reconcile(
            root: root, files: files, stored: stored, rejected: rejected, report: &report, progress: nil,
            finishAlways: !online || !unreadable.isEmpty,
            place: { transaction, arrivals in
                try placeDirectories(Set(arrivals.keys), root: root, arrivals: arrivals, transaction)
            }
        ) { transaction, filesChanged in
            for directory in unreadable { try transaction.markUnreadable(directory.record) }
            guard filesChanged else { return }
            try placeDirectories(directories, root: root, transaction)
        }
    }

    /// Brings the albums of some directories up to date with the store's files in them: their
    /// members when the albums exist and stay, and the root's folders and albums from a crawl of
    /// the root when a directory gained its first media or lost its last. Files that just arrived
    /// (`arrivals`, by directory) and are newer than everything in their album are appended to it
    /// without listing the directory.
    private func placeDirectories(
        _ directories: Set<String>, root: String, arrivals: [String: [String]] = [:], _ transaction: LibraryTransaction
    ) throws {
        var structural = false
        for directory in directories.sorted() {
            let album = try transaction.directoryAlbum(at: directory)
            if let album, let paths = arrivals[directory], try transaction.appendArrivals(atPaths: paths, toAlbum: album) {
                continue
            }
            let hasMedia = try transaction.primaryAssets(inDirectory: directory)
            switch (album, hasMedia.isEmpty) {
            case (let album?, false):
                try transaction.setMembers(ofCollection: album, to: hasMedia)
            case (nil, true):
                continue
            default:
                structural = true
            }
        }
        if structural, let tree = crawler.crawl(root) {
            try DirectoryMirror(
                root: root, directories: tree.directories, unreadable: tree.unreadable.map(\.directory)
            ).apply(in: transaction)
        }
    }

    /// Compares files on disk with what the store has for them, reads what is new or changed, and
    /// commits it in batches. Each batch's transaction lets `place` put the directories whose media
    /// it committed in their albums (`arrivals`: those files' paths, by directory), so that a file's
    /// asset, its album and folder, and its membership are one change; `finish` brings collections up to date in the last
    /// transaction, after moves and deletions; without `finishAlways`, only when there were some, or
    /// when a batch removed files' resources (a file no longer media) without placing them.
    /// `committed` is told the change-log token of each batch's transaction once it has committed.
    private func reconcile(
        root: String, files: [CrawledFile], stored: [StoredFile], rejected: [String: RejectedFile],
        report: inout ScanReport, progress: (@Sendable (ScanProgress) -> Void)?, finishAlways: Bool = true,
        place: (LibraryTransaction, _ arrivals: [String: [String]]) throws -> Void,
        committed: (_ token: Int64?) -> Void = { _ in },
        finish: (LibraryTransaction, _ filesChanged: Bool) throws -> Void
    ) throws {
        let storedByPath = Dictionary(stored.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var plan = ScanPlan(rejectedPaths: Set(rejected.keys))
        report.seen += files.count
        var seenPaths = Set<String>()
        for file in files {
            seenPaths.insert(file.path)
            if let known = storedByPath[file.path] {
                if known.fileSize == file.size && known.modificationTime == file.modificationTime {
                    report.unchanged += 1
                } else {
                    plan.changed.append((file, known))
                }
            } else if let rejection = rejected[file.path], rejection.fileSize == file.size,
                rejection.modificationTime == file.modificationTime
            {
                report.rejected += 1
            } else {
                plan.added.append(file)
            }
        }
        // A new path with the inode of a path that vanished is the same file, moved.
        var vanished = stored.filter { !seenPaths.contains($0.path) }
        var vanishedByInode: [Inode: Int] = [:]
        for (index, file) in vanished.enumerated() {
            if let device = file.device, let inode = file.inode { vanishedByInode[Inode(device, inode)] = index }
        }
        // Across devices a move is a copy and a delete: then the name, size and modification time
        // (which `mv` keeps) identify the file.
        var vanishedBySignature: [Signature: Int] = [:]
        for (index, file) in vanished.enumerated() {
            vanishedBySignature[Signature(file.path, file.fileSize, file.modificationTime)] = index
        }
        var stillAdded: [CrawledFile] = []
        var movedIndexes = Set<Int>()
        for file in plan.added {
            let match = vanishedByInode[Inode(file.device, file.inode)].flatMap {
                vanished[$0].fileSize == file.size ? $0 : nil
            } ?? vanishedBySignature[Signature(file.path, file.size, file.modificationTime)]
            if let index = match, !movedIndexes.contains(index) {
                movedIndexes.insert(index)
                plan.moved.append((file, vanished[index]))
            } else {
                stillAdded.append(file)
            }
        }
        plan.added = stillAdded
        vanished = vanished.enumerated().filter { !movedIndexes.contains($0.offset) }.map(\.element)

        plan.changedByPath = Dictionary(plan.changed.map { ($0.0.path, $0.1) }, uniquingKeysWith: { first, _ in first })

        // Read what is new or changed, both cores at a time, and commit in batches.
        let toRead = (plan.added + plan.changed.map(\.0)).sorted { $0.path < $1.path }
        let batches = Self.batches(toRead, size: batchSize)
        var done = 0
        var unplaced = false
        // Batch k commits (one core) while batch k+1 is read (the other).
        var outcomes = batches.isEmpty ? [] : read(batches[0])
        for (index, batch) in batches.enumerated() {
            let next = Mutex<[Outcome]?>(nil)
            let reading = DispatchGroup()
            if index + 1 < batches.count {
                let upcoming = batches[index + 1]
                DispatchQueue.global().async(group: reading) {
                    let result = self.read(upcoming)
                    next.withLock { $0 = result }
                }
            }
            let (removed, token) = try commit(
                batch: batch, outcomes: outcomes, plan: plan, report: &report, place: place)
            committed(token)
            unplaced = unplaced || removed
            reading.wait()
            outcomes = next.withLock { $0 } ?? []
            done += batch.count
            progress?(
                ScanProgress(
                    root: root, done: done, total: toRead.count, seen: report.seen, ingested: report.ingested,
                    rejected: report.rejected))
        }
        // Files still being written are read again a little later, a few times; what is still
        // changing after that is left for the next scan (or the daemon's next event).
        for attempt in 1...retryAttempts where !report.stillChanging.isEmpty {
            Thread.sleep(forTimeInterval: retryDelay * Double(attempt))
            let pending = Set(report.stillChanging)
            report.stillChanging = []
            let again = (plan.added + plan.changed.map(\.0)).compactMap { file -> CrawledFile? in
                guard pending.contains(file.path), case .success(let info) = Crawler.lstatus(file.path) else {
                    return nil
                }
                var fresh = file
                fresh.size = Int64(info.st_size)
                fresh.modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
                return fresh
            }
            let (removed, token) = try commit(
                batch: again, outcomes: read(again), plan: plan, report: &report, place: place)
            committed(token)
            unplaced = unplaced || removed
        }
        let gone = rejected.keys.filter { !seenPaths.contains($0) }
        if !finishAlways && !unplaced && plan.moved.isEmpty && vanished.isEmpty && gone.isEmpty {
            return
        }
        try database.write { transaction in
            for (file, known) in plan.moved {
                try transaction.moveResource(known, to: file.path, name: file.name)
            }
            try transaction.deleteResources(vanished)
            try transaction.forgetRejections(gone)
            try transaction.setRoot(root, offline: false)
            try finish(transaction, !toRead.isEmpty || !plan.moved.isEmpty || !vanished.isEmpty)
        }
        report.moved += plan.moved.count
        report.removed += vanished.count
    }

    /// Hashes the files whose size another file shares and that have no hash yet, so that
    /// `duplicateGroups()` can tell identical content. Done on demand, not during a scan: it reads
    /// whole files.
    public func updateContentHashes() throws {
        let pending = try database.write { try $0.resourcesNeedingHash() }.value
        guard !pending.isEmpty else { return }
        let hashes = Mutex<[Int64: String]>([:])
        DispatchQueue.concurrentPerform(iterations: pending.count) { index in
            if let hash = ContentHash.of(path: pending[index].path) {
                hashes.withLock { $0[pending[index].id] = hash }
            }
        }
        let computed = hashes.withLock { $0 }
        try database.write { transaction in
            for (id, hash) in computed { try transaction.setContentHash(hash, forResource: id) }
        }
    }

    /// What reading one file gave.
    enum Outcome: Sendable {
        case media(FileMetadata)
        case rejected(MetadataError)
        case notMedia
        /// The file's size or modification time changed while it was read: it is still being written.
        case changing
    }

    private func read(_ files: [CrawledFile]) -> [Outcome] {
        let results = Mutex<[Int: Outcome]>([:])
        let extractor = self.extractor
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let outcome: Outcome
            do throws(MetadataError) {
                outcome = .media(try extractor.extract(path: file.path))
            } catch {
                // A file that does not claim to be media (notes.txt, a PDF, a sidecar) is not a rejection.
                outcome = error.code == .notMedia && !AssetFactory.claimsMedia(file.name) ? .notMedia : .rejected(error)
            }
            results.withLock { $0[index] = Self.stillTheSame(file, quietTime: quietTime) ? outcome : .changing }
        }
        return results.withLock { results in files.indices.map { results[$0]! } }
    }

    /// Whether a file has settled: it still has the size and modification time it was crawled
    /// with, and was not modified in the last `quietTime` seconds (a writer may be about to append).
    static func stillTheSame(_ file: CrawledFile, quietTime: Double) -> Bool {
        guard case .success(let info) = Crawler.lstatus(file.path) else { return false }
        let modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
        let age = Date().timeIntervalSince1970 - modificationTime
        return Int64(info.st_size) == file.size && modificationTime == file.modificationTime
            && !(age > -1 && age < quietTime)
    }


    /// Batches of about `size` files that never split a directory, so a Live Photo's halves or a
    /// RAW+JPEG pair are grouped in the same transaction.
    static func batches(_ files: [CrawledFile], size: Int) -> [[CrawledFile]] {
        var batches: [[CrawledFile]] = []
        var current: [CrawledFile] = []
        for file in files {
            if current.count >= size, current.last?.directory != file.directory {
                batches.append(current)
                current = []
            }
            current.append(file)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Commits one batch; `removed` is true when it removed resources of known files (no longer
    /// media) that `place` was not asked to account for; `token` is its change-log entry's, if any.
    private func commit(
        batch: [CrawledFile], outcomes: [Outcome], plan: ScanPlan, report: inout ScanReport,
        place: (LibraryTransaction, _ arrivals: [String: [String]]) throws -> Void
    ) throws -> (removed: Bool, token: Int64?) {
        var unplaced = false
        let changedByPath = plan.changedByPath
        var counts = ScanReport()
        let token = try database.write { transaction in
            var fine: [String] = []
            var media: [String: [(CrawledFile, FileMetadata)]] = [:]
            for (file, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .changing:
                    counts.stillChanging.append(file.path)
                case .notMedia:
                    counts.skipped += 1
                    if let known = changedByPath[file.path] {
                        try transaction.deleteResources([known])
                        unplaced = true
                    }
                case .rejected(let error):
                    counts.rejected += 1
                    try transaction.reject(
                        RejectedFile(
                            path: file.path, code: error.code.description, reason: error.message, fileSize: file.size,
                            modificationTime: file.modificationTime, rejectedDate: Date().timeIntervalSince1970))
                    if let known = changedByPath[file.path] {
                        try transaction.deleteResources([known])
                        unplaced = true
                    }
                case .media(let metadata):
                    fine.append(file.path)
                    media[file.directory, default: []].append((file, metadata))
                    if changedByPath[file.path] != nil { counts.updated += 1 } else { counts.ingested += 1 }
                }
            }
            var bursts = Set<String>()
            for (directory, files) in media.sorted(by: { $0.key < $1.key }) {
                bursts.formUnion(
                    try AssetGrouping(
                        directory: directory, fresh: files, transaction: transaction, timeZone: extractor.timeZone
                    ).apply())
            }
            try transaction.pickBurstRepresentatives(bursts)
            try transaction.forgetRejections(fine.filter(plan.rejectedPaths.contains))
            if !media.isEmpty { try place(transaction, media.mapValues { $0.map(\.0.path) }) }
        }.token
        report.stillChanging += counts.stillChanging
        report.skipped += counts.skipped
        report.rejected += counts.rejected
        report.updated += counts.updated
        report.ingested += counts.ingested
        return (unplaced, token)
    }
}

/// A file's identity on disk.
struct Inode: Hashable {
    let device: Int64
    let inode: Int64
    init(_ device: Int64, _ inode: Int64) {
        self.device = device
        self.inode = inode
    }
}

/// A file's name, size and modification time.
struct Signature: Hashable {
    let name: Substring
    let size: Int64
    let modificationTime: Double?
    init(_ path: String, _ size: Int64, _ modificationTime: Double?) {
        name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        self.size = size
        self.modificationTime = modificationTime
    }
}

/// The paths under unreadable directories: seen by no crawl, so neither deleted nor changed.
struct FrozenPaths {
    let directories: [String]
    init(_ directories: [String]) { self.directories = directories }

    /// Whether `path` is one of the directories or lies under one.
    func contains(_ path: String) -> Bool {
        directories.contains { path == $0 || path.hasPrefix($0 + "/") }
    }
}

extension UnreadableDirectory {
    /// The store's record of it.
    var record: UnreadableDirectoryRecord { UnreadableDirectoryRecord(path: path, code: code, reason: reason) }
}

extension StoredFile {
    /// Whether the file is its asset's photo or video: what puts the asset in its directory's album.
    var isPrimary: Bool { type == PHAssetResourceType.photo.rawValue || type == PHAssetResourceType.video.rawValue }

    /// The directory holding the file.
    var directory: String { (path as NSString).deletingLastPathComponent }
}

/// What a scan of one root has to do.
struct ScanPlan {
    /// Paths the store holds rejections for: a file there that reads as media now is forgotten.
    var rejectedPaths: Set<String> = []
    var added: [CrawledFile] = []
    var changed: [(CrawledFile, StoredFile)] = []
    /// What the store had of each changed file, by path: looked up for every file of every batch.
    var changedByPath: [String: StoredFile] = [:]
    var moved: [(CrawledFile, StoredFile)] = []
}
