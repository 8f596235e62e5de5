import Dispatch
import Foundation
import Glibc
import PhotosCore
import PhotosLinux
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
    /// The zone file dates with no UTC offset are read in.
    public var timeZone: TimeZone { extractor.timeZone }
    let crawler: Crawler
    /// Files read and committed per transaction.
    let batchSize: Int
    /// How many files a whole-root scan lists ahead of the directory it compares (``ListingsAhead``).
    let listingAhead: Int
    /// How often, and after how long, a file that changed while it was read is read again.
    let retryAttempts = 3
    let retryDelay = 0.5

    /// How long a file must have been left alone before it is taken as complete, in seconds.
    /// A one-off scan cannot know whether a writer is about to append, so it waits half a second
    /// for recently modified files; the daemon, which saw the writer close the file and waited for
    /// the tree to settle, passes 0.
    let quietTime: Double

    /// Files an import placed, by their path in the root, with the drop folder's path they came
    /// from: the assets they make carry it in their change (``PhotosCore/ImportOrigin``).
    let origins: [String: String]
    /// What files are known to say, read a moment ago from the same bytes (an import read each file
    /// to plan it, then linked or copied and verified it): not read again.
    let known: [String: FileMetadata]

    /// What scans did, for the process's metrics.
    let metrics = ScanMetrics()

    /// The most files and rows the last scan held at once (tests count them).
    public var lastFootprint: ScanFootprint { footprints.withLock { $0 } }
    private let footprints = Mutex(ScanFootprint())

    func noteFootprint(_ footprint: ScanFootprint) { footprints.withLock { $0 = footprint } }

    private let stopping = Atomic<Bool>(false)

    /// Asks the scans of this scanner to stop (photosd stopping): a scan going on commits the batch
    /// it is reading and throws ``ScanStopped``; later scans stop at their first batch. What was
    /// not compared yet is left as the library had it (nothing counts as gone), for the next scan.
    public func requestStop() { stopping.store(true, ordering: .relaxed) }

    /// The files live imports are placing under their final names and will scan themselves (the
    /// `import` entries of the file journal whose process runs): another scan leaves them to it, so
    /// that their assets arrive once, with their origin. An import's process that stopped leaves its
    /// files to any scan.
    /// What a scan leaves to live imports, read now: the paths of ``filesBeingImported(_:)`` but
    /// this scan's own (an import's scan has their origins).
    func pathsLeftToImports() throws -> Set<String> {
        try database.scanReader(filesBeingImported)
    }

    /// The paths live imports are placing, this scan's own aside.
    func filesBeingImported(_ reader: ScanReader) throws -> Set<String> {
        let entries = try reader.importDestinations()
        guard !entries.isEmpty else { return [] }
        return Set(
            entries.filter { origins[$0.destination] == nil && FileOperations.processIsAlive($0.owner) }
                .map(\.destination))
    }

    /// A scanner writing to `database`; file dates without an offset are read in `timeZone`.
    /// `directoryReader` lists directories (tests pass one that fails where they say); `origins`
    /// names the drop-folder file each file an import placed came from; `listingAhead` bounds the
    /// files a whole-root scan lists ahead of the directory it compares.
    public init(
        database: LibraryDatabase, timeZone: TimeZone = .current, rules: IgnoreRules = IgnoreRules(),
        batchSize: Int = 1000, listingAhead: Int = 1024, quietTime: Double = 0.5,
        directoryReader: @escaping Crawler.DirectoryReader = Crawler.readDirectory, origins: [String: String] = [:],
        known: [String: FileMetadata] = [:]
    ) {
        self.database = database
        self.quietTime = quietTime
        self.origins = origins
        self.known = known
        extractor = MetadataExtractor(timeZone: timeZone)
        crawler = Crawler(rules: rules, reader: directoryReader)
        self.batchSize = batchSize
        self.listingAhead = listingAhead
    }

    /// Scans each root once and returns what changed. `progress` is called as files are read.
    ///
    /// A root is walked a directory at a time, each compared with the store's rows for its files
    /// alone: what the scan holds at once is a directory's files, a batch being read and one being
    /// committed, and what changed (moves, files gone), however large the tree.
    ///
    /// `watching`: the watch walks still going on in some of these roots, by root as given (a
    /// daemon's startup): each directory's files are listed once it is watched, so that what
    /// changes in it afterwards is an event, while the walk goes on through the rest. A
    /// subdirectory made meanwhile, after the crawl and before its parent's watch, is found in its
    /// parent's listing, and the root is scanned again once the walk has ended.
    public func scan(
        roots: [String], progress: (@Sendable (ScanProgress) -> Void)? = nil,
        watching: [String: any WatchProgress] = [:]
    ) throws -> ScanReport {
        try scan(roots: roots, files: [:], progress: progress, watching: watching)
    }

    /// Scans `roots` whole, then the `files` of other roots (``scan(files:)``), as one scan: a photo
    /// moved from any of these roots to another keeps its asset (the daemon's work when one root
    /// needs a rescan, after a directory changed, while files changed in others).
    public func scan(
        roots: [String], files byRoot: [String: Set<String>], progress: (@Sendable (ScanProgress) -> Void)? = nil,
        watching: [String: any WatchProgress] = [:]
    ) throws -> ScanReport {
        var report = try scan(roots: roots, progress: progress, watching: watching, holdingLast: !byRoot.isEmpty)
        let partial = byRoot.keys.sorted()
        for (index, root) in partial.enumerated() {
            report.add(try scan(root: root, files: byRoot[root]!, holding: index < partial.count - 1))
        }
        try settleDepartures(&report)
        return report
    }

    /// ``scan(roots:progress:watching:)`` but for the files gone, which are kept in the report
    /// (``ScanReport/departuresHeld``) where a later root may hold them: every root's but the last's,
    /// and the last's too when `holdingLast`.
    private func scan(
        roots: [String], progress: (@Sendable (ScanProgress) -> Void)?, watching: [String: any WatchProgress],
        holdingLast: Bool
    ) throws -> ScanReport {
        var report = ScanReport()
        for (index, given) in roots.enumerated() {
            let root = Self.normalize(given)
            // A photo gone from this root may be in a later one, moved: it keeps its asset there.
            let holding = holdingLast || index < roots.count - 1
            // A root named otherwise than the watcher names it (a symbolic link) waits for the whole walk.
            var walk = watching[given]
            if root != given, let whole = walk {
                whole.waitUntilEnded()
                walk = nil
            }
            var passes = 0
            let start = report
            while true {
                guard let tree = crawler.crawl(root) else {
                    report.offlineRoots.append(root)
                    // A root the library knows is offline; a path it never read (mistyped, or a
                    // file) is not made one, which would stay offline in every listing after.
                    try database.write { try $0.markRootOffline(root) }
                    break
                }
                let before = report
                var appeared = false
                report = try scan(
                    root: root, tree: tree, report: report, progress: progress, watching: walk, holding: holding,
                    appeared: &appeared)
                if passes > 0 { report.countingLastPassTree(start: start, before: before) }
                passes += 1
                guard appeared, passes < 3 else { break }
                walk?.waitUntilEnded()
                walk = nil
            }
        }
        return report
    }

    /// Removes what a scan of several roots found gone from one and kept (``ScanReport/departuresHeld``)
    /// in case a later root held it, moved: the files no root claimed, by a look at their paths
    /// alone, which also settles their directories' albums.
    private func settleDepartures(_ report: inout ScanReport) throws {
        let held = report.departuresHeld
        report.departuresHeld = [:]
        for (root, paths) in held.sorted(by: { $0.key < $1.key }) {
            report.addChanges(of: try scan(root: root, files: paths))
        }
    }

    /// A root as scans name it: absolute, standardized, its symbolic links resolved, no trailing `/`.
    public static func normalize(_ path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        if url.path != "/" && url.path.hasSuffix("/") { url = url.deletingLastPathComponent() }
        return url.path
    }

    /// `appeared`: set when a directory's listing holds a subdirectory the crawl did not find (made
    /// since), under a walk (`watching`) that may have watched it too late for the crawl.
    private func scan(
        root: String, tree: CrawledTree, report: ScanReport, progress: (@Sendable (ScanProgress) -> Void)?,
        watching: (any WatchProgress)? = nil, holding: Bool, appeared: inout Bool
    ) throws -> ScanReport {
        var report = report
        var unreadable = tree.unreadable.map(\.error)
        report.unreadableDirectories += unreadable
        let ranges = Self.ranges(of: tree)
        let directories = tree.directories.map(\.path).sorted()
        // What a library copied from a file holds under the root for no host is this host's to
        // compare, before its rows are read (a batch would make this host's rows beside them).
        if database.host != nil { try database.write { try $0.claimRoot(root) } }
        let (hadFiles, held, heldNothing, elsewhere) = try database.scanReader { reader in
            // A root the store has no file under (a first scan) has no directory with media in it.
            let hadFiles = try reader.hasFiles(under: root)
            return (
                hadFiles, hadFiles ? try directories.filter { try reader.holdsMedia(in: ranges[$0]!) } : [],
                try !hadFiles && !reader.hasRejections(under: root), try reader.onlineRoots(besides: root)
            )
        }
        var mirror = DirectoryMirror(
            root: root, directories: tree.directories, unreadable: tree.unreadable.map(\.directory))
        // The directories holding media as the store has them while batches commit: what it had,
        // and what each batch adds (files that went are deleted at the end).
        var mediaDirectories = Set(held)
        let lookahead = MoveSources.Lookahead(
            crawled: Set(directories), frozen: FrozenPaths(unreadable.map(\.path)), rules: crawler.rules)
        var reconciliation = Reconciliation(
            scanner: self, root: root, report: report,
            sources: MoveSources(root: root, lookahead: hadFiles ? lookahead : nil, elsewhere: elsewhere),
            rootHadFiles: hadFiles, holdsDepartures: holding,
            place: { transaction, arrivals in
                let touched = Set(arrivals.keys)
                mediaDirectories.formUnion(touched)
                try mirror.place(touched, in: transaction, mediaDirectories: mediaDirectories, arrivals: arrivals)
            },
            committed: { mirror.committed(token: $0) })
        var compared = 0
        func reportProgress() {
            guard let progress else { return }
            let report = reconciliation.report
            progress(
                ScanProgress(
                    root: root, directoriesDone: compared, directories: directories.count, seen: report.seen,
                    read: reconciliation.filesRead, ingested: report.ingested, rejected: report.rejected))
        }
        let listings = ListingsAhead(directories, crawler: crawler, limit: listingAhead, watching: watching)
        defer { listings.stop() }
        let crawled = watching == nil ? [] : Set(directories).union(tree.unreadable.map(\.directory.path))
        // Where each statement is a round trip, the rows of up to 64 directories listed are read in
        // one statement (of one snapshot, taken after their listings, as one directory's is). Where
        // the store held nothing under the root (a first scan), a directory not compared yet has no
        // rows either (batches commit only directories compared): none are read, and the
        // directories compared until the next batch is due share one read (of the running imports
        // and the Trash). A read each was a tenth of the bench tree's committing thread; a fixed 64
        // a read made the first batch wait.
        let perRead = database.dialect.statementsAreRoundTrips ? 64 : 1
        var next = 0
        while next < directories.count {
            var listed: [(directory: String, files: [CrawledFile])] = []
            var listedFiles = 0
            while next < directories.count,
                listed.count < perRead || (heldNothing && listedFiles < reconciliation.filesUntilBatch)
            {
                let directory = directories[next]
                next += 1
                let listing = listings.next()
                reconciliation.heldAhead = listings.filesListedAhead
                switch listing {
                case .success(let found):
                    listed.append((directory, found.files))
                    listedFiles += found.files.count
                    if watching != nil, found.subdirectories.contains(where: { !crawled.contains($0) }) {
                        appeared = true
                    }
                case .failure(let error):
                    // Readable a moment ago: what it holds is kept as it is, as under any unreadable directory.
                    let failed = UnreadableDirectory(path: directory, code: error.code)
                    unreadable.append(failed)
                    reconciliation.report.unreadableDirectories.append(failed)
                    reconciliation.sources.lookahead?.frozen = FrozenPaths(unreadable.map(\.path))
                }
            }
            guard !listed.isEmpty else { continue }
            try database.scanReader { reader in
                var reader = reader
                let rows =
                    heldNothing
                    ? listed.map { _ in DirectoryRows(stored: [], rejected: [:]) }
                    : try reader.readDirectories(listed.map { ranges[$0.directory]! })
                for ((directory, files), rows) in zip(listed, rows) {
                    try reconciliation.compare(
                        ScanUnit(files: files, rows: rows, isWholeDirectory: true), reader: reader)
                    reconciliation.sources.lookahead?.compared.insert(directory)
                    // Directory by directory, also where several share a read.
                    compared += 1
                    if listed.count > 1 { reportProgress() }
                }
            }
            try reconciliation.flush()
            reportProgress()
            if stopping.load(ordering: .relaxed) {
                try reconciliation.stop()
                throw ScanStopped()
            }
        }
        let failed = unreadable
        return try reconciliation.finish(finishAlways: true) { transaction, filesChanged in
            try transaction.setUnreadableDirectories(failed.map(\.record), under: root)
            // Albums and folders change only when files do (a renamed directory moves its files).
            let mirrored = try transaction.directoryCollection(at: root) != nil
            // A first scan whose batches placed every collection, with no directory unreadable,
            // leaves a settling pass nothing to find (it read every file and album again: 5% of
            // the bench tree's scan).
            let settled = heldNothing && failed.isEmpty && mirror.placedEverything
            if !mirrored || (filesChanged && !settled) { try mirror.place(nil, in: transaction) }
        }
    }

    /// Each readable directory's ranges of paths, stepping over its subdirectories (readable or
    /// not) as the crawl found them.
    static func ranges(of tree: CrawledTree) -> [String: DirectoryRanges] {
        var children: [String: [String]] = [:]
        for directory in tree.directories + tree.unreadable.map(\.directory) {
            if let parent = directory.parent { children[parent, default: []].append(directory.path) }
        }
        return Dictionary(
            tree.directories.map {
                ($0.path, DirectoryRanges(directory: $0.path, subdirectories: children[$0.path] ?? []))
            },
            uniquingKeysWith: { first, _ in first })
    }

    /// Scans some directories of a root, not what is below them: what the daemon does when files
    /// change in directories it knows. Folders and albums are rebuilt only when one of these
    /// directories gained its first media or lost its last; otherwise only their albums' members
    /// are updated. Moves between the directories keep identity, as in a full scan.
    public func scan(root: String, directories: Set<String>) throws -> ScanReport {
        try scan(root: root, directories: directories, holding: false)
    }

    /// ``scan(root:directories:)``, keeping the files found gone when `holding` (another root is
    /// still to be looked at).
    private func scan(root: String, directories: Set<String>, holding: Bool) throws -> ScanReport {
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
        // Read before the stored rows: a file a live import places is left to it, on disk and in the
        // store, even when the import commits and finishes before this scan's compare.
        let leftToImports = try pathsLeftToImports()
        let (stored, rejected, known, online) = try database.write { transaction in
            var stored: [StoredFile] = []
            var rejected: [String: RejectedFile] = [:]
            var known: [String] = []
            // What a library copied from a file holds here for no host is this host's to compare.
            try transaction.claimRoot(root)
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
            return try scan(roots: [root], progress: nil, watching: [:], holdingLast: holding)
        }
        try reconcile(
            directories: directories, of: root, files: files, stored: stored, rejected: rejected, online: online,
            unreadable: unreadable, leftToImports: leftToImports, holding: holding, report: &report)
        return report
    }

    /// Looks at some files of a root alone, the paths the daemon's events named (arrived, changed,
    /// moved or deleted files), without listing the rest of their directories: a photo arriving in
    /// a folder of thousands costs what it costs in an empty one. What only a listing can tell (an
    /// ignore marker in the directory, a file or directory that cannot be read, a directory the
    /// store knows unreadable) sends those directories to ``scan(root:directories:)``. Moves between
    /// the paths keep identity, as in any scan.
    public func scan(root: String, files paths: Set<String>) throws -> ScanReport {
        try scan(files: [root: paths])
    }

    /// ``scan(root:files:)`` of the files of several roots (what the daemon's events named in each),
    /// one root after the other: a photo moved from one root to another keeps its asset, its albums
    /// and its favorite, whichever root is looked at first.
    public func scan(files byRoot: [String: Set<String>]) throws -> ScanReport {
        try scan(roots: [], files: byRoot)
    }

    /// ``scan(root:files:)``, keeping the files found gone when `holding` (another root is still to
    /// be looked at).
    private func scan(root: String, files paths: Set<String>, holding: Bool) throws -> ScanReport {
        let root = Self.normalize(root)
        let directories = Set(paths.map(PathName.directory(of:)))
        if directories.contains(where: crawler.isExcludedByMarker(directory:)) {
            return try scan(root: root, directories: directories, holding: holding)
        }
        var files: [CrawledFile] = []
        for path in paths.sorted() {
            switch crawler.crawlFile(at: path) {
            case .success(let file?): files.append(file)
            case .success(nil): continue
            case .failure: return try scan(root: root, directories: directories, holding: holding)
            }
        }
        // The paths live imports place are read with the stored rows, in the same snapshot: a file
        // an import places is left to it, on disk and in the store, even when the import commits
        // and finishes before this scan's compare.
        let (leftToImports, rows) = try database.scanReader { reader in
            (try filesBeingImported(reader), try reader.filesAt(paths, directories: directories, root: root))
        }
        let (stored, rejected, unreadable, online) = rows
        guard unreadable.isEmpty else { return try scan(root: root, directories: directories, holding: holding) }
        var report = ScanReport()
        try reconcile(
            directories: directories, of: root, files: files, stored: stored, rejected: rejected, online: online,
            unreadable: [], leftToImports: leftToImports, holding: holding, report: &report)
        return report
    }

    /// Reconciles what was found in some directories of a root (all their files, or some) with the
    /// store's rows for the same. Each batch places the albums of the files it commits; the last
    /// transaction marks `unreadable` directories and settles what moves and deletions changed,
    /// and is left out when it has nothing to do (files that only arrived or changed were placed by
    /// their batches: the daemon's path from close() to the hooks). Both go through the root's
    /// ``DirectoryMirror``, which lists the tree only when a directory gains its first media or
    /// loses its last.
    private func reconcile(
        directories: Set<String>, of root: String, files: [CrawledFile], stored: [StoredFile],
        rejected: [String: RejectedFile], online: Bool, unreadable: [UnreadableDirectory], leftToImports: Set<String>,
        holding: Bool, report: inout ScanReport
    ) throws {
        var mirror = DirectoryMirror(root: root) { [crawler] in crawler.crawl(root) }
        var reconciliation = Reconciliation(
            scanner: self, root: root, report: report, sources: MoveSources(root: root, lookahead: nil),
            holdsDepartures: holding,
            place: { transaction, arrivals in try mirror.place(Set(arrivals.keys), in: transaction, arrivals: arrivals)
            })
        reconciliation.leftToImports = leftToImports
        try database.scanReader { reader in
            // A file new here may have left another root.
            reconciliation.sources = MoveSources(
                root: root, lookahead: nil, elsewhere: try reader.onlineRoots(besides: root))
            try reconciliation.compare(
                ScanUnit(files: files, rows: DirectoryRows(stored: stored, rejected: rejected)), reader: reader)
        }
        report = try reconciliation.finish(finishAlways: !online || !unreadable.isEmpty) { transaction, filesChanged in
            for directory in unreadable { try transaction.markUnreadable(directory.record) }
            guard filesChanged else { return }
            try mirror.place(directories, in: transaction)
        }
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
        /// The file was gone from its path once read (its writer renamed or removed it, as editors and
        /// exiftool do with their temporary files): nothing to commit and nothing to wait for; where
        /// it went is the watcher's next event, or the next scan's.
        case vanished
    }

    func read(_ files: [CrawledFile]) -> [Outcome] {
        let results = Mutex<[Int: Outcome]>([:])
        let (extractor, known) = (self.extractor, self.known)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let outcome: Outcome
            do throws(MetadataError) {
                if let metadata = known[file.path] {
                    outcome = .media(metadata)
                } else {
                    outcome = .media(try extractor.extract(path: file.path))
                }
            } catch {
                // A file that does not claim to be media (notes.txt, a PDF, a sidecar) is not a rejection.
                outcome =
                    error.code == .notMedia && !MediaSniffer.nameClaimsMedia(file.name) ? .notMedia : .rejected(error)
            }
            let settled: Outcome
            switch Self.settlement(of: file, quietTime: quietTime) {
            case .settled: settled = outcome
            case .changing: settled = .changing
            case .gone: settled = .vanished
            }
            results.withLock { $0[index] = settled }
        }
        return results.withLock { results in files.indices.map { results[$0]! } }
    }

    /// Whether a file read a moment ago has settled.
    enum Settlement: Equatable {
        /// It still has the size and modification time it was crawled with, and was not modified
        /// in the last `quietTime` seconds (a writer may be about to append).
        case settled
        /// It changed, or changed too recently: read it again later.
        case changing
        /// Nothing is at its path any more (`ENOENT`, `ENOTDIR`): waiting for it would only delay what follows.
        case gone
    }

    static func settlement(of file: CrawledFile, quietTime: Double) -> Settlement {
        let info: stat
        switch Crawler.lstatus(file.path) {
        case .success(let found): info = found
        case .failure(let error): return UnreadableDirectory.meansGone(error.code) ? .gone : .changing
        }
        let modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
        let age = Date().timeIntervalSince1970 - modificationTime
        let same =
            Int64(info.st_size) == file.size && modificationTime == file.modificationTime
            && !(age > -1 && age < quietTime)
        return same ? .settled : .changing
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

/// A scan stopped before its end because its process is stopping (``FolderScanner/requestStop()``).
public struct ScanStopped: Error, CustomStringConvertible {
    /// What the log says of the stop.
    public var description: String { "the scan was stopped before its end; the next one finishes it" }
}
