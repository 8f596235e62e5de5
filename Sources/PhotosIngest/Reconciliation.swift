import Dispatch
import Foundation
import Glibc
import PhotosCore
import PhotosLinux
import PhotosMetadata
import PhotosStore
import Synchronization

/// The files of one directory (or of the paths a scan was given) beside what the store has for
/// them: what a scan compares, one unit at a time.
struct ScanUnit {
    var files: [CrawledFile]
    var rows: DirectoryRows
    /// Whether `files` are the whole listing of one directory (a scan of a whole root's), not some
    /// paths: then the sidecars among them are all the directory's.
    var isWholeDirectory = false
}

/// A file to read, with what the store had for it.
struct ScanItem: Sendable {
    var file: CrawledFile
    /// The store's row for the file at this path, when the file changed there.
    var known: StoredFile?
    /// Whether the store holds a rejection of this path (forgotten if the file now reads as media).
    var wasRejected: Bool
}

/// One scan's comparison of disk and store, fed unit by unit: it reads what is new or changed on
/// the other core while committing the batch before, and keeps only what changed (moves, files
/// gone, files still being written), never the files that did not.
///
/// Each batch's transaction lets `place` put the directories whose media it committed in their
/// albums (`arrivals`: those files' paths, by directory), so that a file's asset, its album and
/// folder, and its membership are one change. ``finish(finishAlways:_:)`` settles moves and
/// deletions in a last transaction.
struct Reconciliation {
    let scanner: FolderScanner
    let root: String
    var report: ScanReport
    var sources: MoveSources
    let place: (LibraryTransaction, _ arrivals: [String: [String]]) throws -> Void
    let committed: (_ token: Int64?) -> Void
    /// Whether another root of the same scan is still to be compared: the files gone from this
    /// one are then not removed but kept in the report's ``ScanReport/departuresHeld``, for that
    /// root to claim where they moved to it (``FolderScanner`` removes the rest at the end).
    let holdsDepartures: Bool

    /// Files found at a new path, with the store's row for where they were.
    private(set) var moved: [(CrawledFile, StoredFile)] = []
    /// Trashed assets whose file is back at its path (restored by any tool): they come back, not a
    /// new asset.
    private var revived: [Int64] = []
    /// Whether the store holds trashed files at all (asked once per scan).
    private var holdsTrashedFiles: Bool?
    /// Rejections of paths no longer on disk.
    private var gone: [String] = []
    /// Files at a known path that is not theirs (another inode): read as that path's file written
    /// anew at the end, or as new files where their path's file turned up at a new path.
    private var replaced: [ScanItem] = []
    /// New files at paths whose stored file moved elsewhere: read once the moves are made.
    private var newAfterMoves: [ScanItem] = []
    /// Files to read, not yet in a batch: whole directories, so a Live Photo's halves or a RAW+JPEG
    /// pair are grouped in the same transaction.
    private var pending: [ScanItem] = []
    /// The batch being read on the other core.
    private var reading: PendingRead?
    /// Files listed ahead of the directory being compared (``ListingsAhead``), held meanwhile.
    var heldAhead = 0
    /// Files that changed while they were read, to read again at the end; those still changing
    /// then are the report's `stillChanging`.
    private var changing: [ScanItem] = []
    /// Files read so far, and whether any were.
    private(set) var filesRead = 0
    private var readAny = false
    /// Birth times of unchanged files the store knew without one, by resource id, to record.
    private var learntBirthTimes: [(resourceID: Int64, birthTime: Int64)] = []
    /// Whether a batch removed resources of known files (no longer media) without placing them.
    private var unplaced = false
    /// The most files and store rows held at once so far.
    private(set) var footprint = ScanFootprint()
    /// Paths the scan found being imported before it read the store's rows (a scan of some files
    /// or directories reads the rows before its compare): left to their imports as those each
    /// compare finds are.
    var leftToImports: Set<String> = []
    /// Whether the store had files under the root when the scan began (every scan but a first
    /// one's). Where it had none, a directory no batch of this scan has written, and with no moves
    /// found, has none: its new files are grouped without asking the store what else is there.
    private let rootHadFiles: Bool
    /// The directories whose files this scan's batches have grouped into assets.
    private var grouped: Set<String> = []
    /// The sidecars' names each directory listed whole holds, for its new files' assets until they
    /// commit: a new asset takes its sidecar's state, and the listing says which are there.
    private var listedSidecars: [String: Set<String>] = [:]

    init(
        scanner: FolderScanner, root: String, report: ScanReport, sources: MoveSources, rootHadFiles: Bool = true,
        holdsDepartures: Bool = false,
        place: @escaping (LibraryTransaction, _ arrivals: [String: [String]]) throws -> Void,
        committed: @escaping (_ token: Int64?) -> Void = { _ in }
    ) {
        self.scanner = scanner
        self.holdsDepartures = holdsDepartures
        self.root = root
        self.report = report
        self.sources = sources
        self.rootHadFiles = rootHadFiles
        self.place = place
        self.committed = committed
    }

    /// Compares one unit: counts what did not change, keeps what vanished, matches new paths to
    /// vanished files (a move keeps its asset), and queues the rest to be read. `reader` answers
    /// where a new file may have moved from.
    mutating func compare(_ unit: ScanUnit, reader: ScanReader) throws {
        // Files a running import is placing: it scans them itself, with where they came from. Left
        // on both sides: not read as new, and, once the import's own scan has committed them, not
        // taken for gone either (a file the compare does not see would otherwise lose its asset).
        var unit = unit
        let importing = try scanner.filesBeingImported(reader).union(leftToImports)
        if !importing.isEmpty { unit.files.removeAll { importing.contains($0.path) } }
        let stored = unit.rows.stored
        // By the paths' bytes: two names that differ only in their Unicode normalization are two files.
        var storedByPath = [ExactPath: Int](minimumCapacity: stored.count)
        for (index, file) in stored.enumerated() where storedByPath[ExactPath(file.path)] == nil {
            storedByPath[ExactPath(file.path)] = index
        }
        // Which stored files are on disk: by index, so that each path is hashed once.
        var found = [Bool](repeating: false, count: stored.count)
        if !importing.isEmpty {
            for (index, file) in stored.enumerated() where importing.contains(file.path) { found[index] = true }
        }
        var foundPaths: Set<String> = []
        report.seen += unit.files.count
        scanner.metrics.seen.increment(by: unit.files.count)
        var added: [CrawledFile] = []
        // Sidecars are no media: never read as files, compared with what the library last synced.
        let sidecars = unit.files.filter { Self.isSidecar($0.name) }
        report.skipped += sidecars.count
        // Paths that hold another file than the one stored there (another inode).
        var replacedHere: [(file: CrawledFile, index: Int)] = []
        // Paths whose stored file moved elsewhere in this scan: a new file there is read once the
        // move is made, the path free.
        var takenPaths: Set<String> = []
        for file in unit.files where sidecars.isEmpty || !Self.isSidecar(file.name) {
            if !unit.rows.rejected.isEmpty { foundPaths.insert(file.path) }
            if let index = storedByPath[ExactPath(file.path)] {
                let known = stored[index]
                // Its file moved to a path compared before this one: what is here is another file.
                if sources.isClaimed(known) {
                    added.append(file)
                    takenPaths.insert(file.path)
                    continue
                }
                // The device is left out: a disk mounted again may have another number. The same
                // inode number born at another time is another file, given the number after it went.
                if let inode = known.inode, inode != file.inode || Self.isBornAgain(known, file) {
                    replacedHere.append((file, index))
                    continue
                }
                found[index] = true
                if known.birthTime == nil, let birth = file.birthTime {
                    learntBirthTimes.append((known.resourceID, birth))
                }
                if known.fileSize == file.size && known.modificationTime == file.modificationTime {
                    report.unchanged += 1
                } else {
                    pending.append(ScanItem(file: file, known: known, wasRejected: false))
                }
                continue
            }
            if let rejection = unit.rows.rejected[file.path], rejection.fileSize == file.size,
                rejection.modificationTime == file.modificationTime
            {
                report.rejected += 1
                report.rejectedBefore += 1
            } else {
                added.append(file)
            }
        }
        // A path that holds another file: a known file moved here (names swapped, a file moved
        // over another), and the one stored here is gone unless a path claims it; else the same
        // file written anew (an editor saving through a temporary file, a copy put in its place),
        // unless its file turns up at a new path in this scan (the folder renamed, and a copy made
        // at the old name): decided at the end, see ``replaced``.
        for (file, index) in replacedHere {
            let known = stored[index]
            if sources.isClaimed(known) {
                added.append(file)
                takenPaths.insert(file.path)
            } else if let source = try sources.claimMovedOver(for: file, reader: reader) {
                moved.append((file, source))
            } else {
                found[index] = true
                replaced.append(ScanItem(file: file, known: known, wasRejected: false))
                sources.noteReplaced(known)
            }
        }
        // What was stored and is not on disk (every row of a path stored twice, as one).
        sources.vanish(stored.filter { !found[storedByPath[ExactPath($0.path)]!] })
        gone += unit.rows.rejected.keys.filter { !foundPaths.contains($0) }
        footprint.note(
            files: unit.files.count + pending.count + (reading?.batch.count ?? 0) + heldAhead,
            rows: unit.rows.stored.count + unit.rows.rejected.count)
        // A trashed asset's file back at its path (restored by trash-cli, a file manager, `photos
        // trash restore`) brings the asset back once each of its photos and movies is back (a Live
        // Photo's movie back alone would make an asset without its still): until then it waits,
        // not a new file, the asset in Recently Deleted, where `photos trash restore` brings the
        // rest. One a committed deletion still has to move to the Trash is not a new file either.
        if !added.isEmpty, holdsTrashedFiles ?? true {
            if holdsTrashedFiles == nil { holdsTrashedFiles = try reader.holdsTrashedFiles() }
            if holdsTrashedFiles == true {
                added = try added.filter { file in
                    switch try reader.trashedFile(path: file.path, device: file.device, inode: file.inode) {
                    case nil: return true
                    case .pending: return false
                    case .restored(let assetId, let others):
                        let allBack = try others.allSatisfy { other in
                            let there = try FileOperations.identity(other.path)
                            return there?.device == other.device && there?.inode == other.inode
                        }
                        if allBack, !revived.contains(assetId) { revived.append(assetId) }
                        return false
                    }
                }
            }
        }
        // A new path with the inode of a path that vanished is the same file, moved.
        var fresh: [CrawledFile] = []
        for file in added {
            if let source = try sources.claim(for: file, reader: reader) {
                moved.append((file, source))
            } else {
                fresh.append(file)
                let item = ScanItem(file: file, known: nil, wasRejected: unit.rows.rejected[file.path] != nil)
                if takenPaths.contains(file.path) { newAfterMoves.append(item) } else { pending.append(item) }
            }
        }
        if !sidecars.isEmpty { try noteSidecars(sidecars, besideNew: fresh, reader: reader) }
        try noteBirthTimes(atLeast: 5_000)
        if unit.isWholeDirectory, let directory = fresh.first?.directory {
            listedSidecars[directory] = Set(sidecars.map(\.name))
        }
    }

    /// Whether the file at a known path has the stored file's inode number but was made at another
    /// time: another file, given the number after the stored one went.
    static func isBornAgain(_ known: StoredFile, _ file: CrawledFile) -> Bool {
        guard let born = known.birthTime, let birth = file.birthTime else { return false }
        return born != birth
    }

    /// Records the birth times learnt of unchanged files (the store knew them without one) once
    /// there are `atLeast` of them: a library kept before birth times were learns them in its
    /// next scan, a few thousand to a statement.
    private mutating func noteBirthTimes(atLeast: Int = 1) throws {
        guard learntBirthTimes.count >= atLeast else { return }
        try scanner.database.noteBirthTimes(learntBirthTimes)
        learntBirthTimes = []
    }

    /// Whether a file is an XMP sidecar, by its name: `.xmp` in any case after at least one
    /// character. Every listed file asks, so it compares the last four bytes in place rather than
    /// lowercasing a copy of the name.
    static func isSidecar(_ name: String) -> Bool {
        let bytes = name.utf8
        guard bytes.count > 4 else { return false }
        var tail = bytes.suffix(4).makeIterator()
        // An ASCII letter's lower case is its byte with 0x20 set.
        return tail.next() == UInt8(ascii: ".") && tail.next().map { $0 | 0x20 } == UInt8(ascii: "x")
            && tail.next().map { $0 | 0x20 } == UInt8(ascii: "m") && tail.next().map { $0 | 0x20 } == UInt8(ascii: "p")
    }

    /// Keeps, in the report's ``ScanReport/sidecarsToSync``, the sidecars the library has not synced
    /// as they are now: new beside a photo it knows (another tool wrote one while nobody watched),
    /// changed since the last sync, or beside a photo that moved here. A sidecar of a file this scan
    /// reads for the first time is left out: the file's ingest takes its state.
    private mutating func noteSidecars(_ sidecars: [CrawledFile], besideNew fresh: [CrawledFile], reader: ScanReader)
        throws
    {
        var freshNames = Set<String>()
        for file in fresh {
            freshNames.insert(file.name.lowercased())
            freshNames.insert(PairingName.of(file.name))
        }
        var times: [String: [String: Double?]] = [:]
        for sidecar in sidecars {
            if times[sidecar.directory] == nil {
                times[sidecar.directory] = try reader.sidecarTimes(inDirectory: sidecar.directory)
            }
            if let synced = times[sidecar.directory]?[sidecar.path], synced == sidecar.modificationTime { continue }
            if freshNames.contains(String(sidecar.name.lowercased().dropLast(4))) { continue }
            report.sidecarsToSync.append(sidecar.path)
        }
    }

    /// How many files queued make the next batch: a fifth of a batch for the first (``flush(all:)``
    /// says why), a batch after it.
    private var nextBatchSize: Int { readAny ? scanner.batchSize : max(1, scanner.batchSize / 5) }

    /// How many more files queued would make ``flush(all:)`` send a batch to be read.
    var filesUntilBatch: Int { nextBatchSize - pending.count }

    /// Sends the queued files to be read once there are a batch's worth (or whatever there is,
    /// when `all`), committing the batch read before.
    ///
    /// A scan's first batch is a fifth of the others: nothing commits while it is read, and the
    /// sooner it is read, the sooner a commit runs beside the reading of the next batch. Where
    /// commits take longer than reads (a server's round trips), a scan takes the first batch's
    /// read and then its commits, one after the other.
    mutating func flush(all: Bool = false) throws {
        let first = readAny ? nil : nextBatchSize
        guard !pending.isEmpty, all || pending.count >= nextBatchSize else { return }
        var queued = pending.sorted { $0.file.path < $1.file.path }
        pending = []
        let batches: [[ScanItem]]
        if let first, !all {
            // The first batch alone: the rest wait for a whole batch's worth.
            batches = Array(Self.batches(queued, size: first).prefix(1))
            queued.removeFirst(batches[0].count)
            pending = queued
        } else {
            batches = Self.batches(queued, size: scanner.batchSize)
        }
        for batch in batches {
            readAny = true
            // The last batch with nothing committing beside it (the daemon's few files) is read on
            // this thread: a thread of its own would only be waited for.
            let alone = all && reading == nil && batches.count == 1
            let next = PendingRead(batch, scanner: scanner, onThisThread: alone)
            let previous = reading
            reading = next
            if let previous {
                footprint.note(files: previous.batch.count + batch.count, rows: 0)
                try commit(previous.batch, previous.outcomes())
            }
        }
    }

    /// Batches of about `size` files that never split a directory, so a Live Photo's halves or a
    /// RAW+JPEG pair are grouped in the same transaction.
    static func batches(_ items: [ScanItem], size: Int) -> [[ScanItem]] {
        var batches: [[ScanItem]] = []
        var current: [ScanItem] = []
        for item in items {
            if current.count >= size, current.last?.file.directory != item.file.directory {
                batches.append(current)
                current = []
            }
            current.append(item)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Ends a scan asked to stop: the batch being read is committed (what was read is kept);
    /// nothing else is settled (no file counts as gone, no move is made), so the next scan finds
    /// the rest as it was.
    mutating func stop() throws {
        defer { scanner.noteFootprint(footprint) }
        try noteBirthTimes()
        if let last = reading {
            reading = nil
            try commit(last.batch, last.outcomes())
        }
    }

    /// Commits what is still being read, reads again what was still being written, and settles
    /// moves, deletions and forgotten rejections in a last transaction (left out when
    /// `finishAlways` is false and it has nothing to do). `finish` brings collections up to date
    /// in it (`filesChanged`: whether any file was read, moved or removed).
    mutating func finish(
        finishAlways: Bool, _ finish: (LibraryTransaction, _ filesChanged: Bool) throws -> Void
    ) throws -> ScanReport {
        defer { scanner.noteFootprint(footprint) }
        try noteBirthTimes()
        // A path whose file turned up at a new path holds a new file, read once the move is made;
        // the others hold their file written anew, read again (also with the same size and time,
        // a backup restored over it: the store learns its inode, and the next scan asks no more).
        var newAfterMoves = newAfterMoves
        for item in replaced {
            guard let known = item.known else { continue }
            if sources.isClaimed(known) {
                newAfterMoves.append(ScanItem(file: item.file, known: nil, wasRejected: false))
            } else {
                pending.append(item)
            }
        }
        replaced = []
        try flush(all: true)
        if let last = reading {
            reading = nil
            try commit(last.batch, last.outcomes())
        }
        // Files still being written are read again a little later, a few times; what is still
        // changing after that is left for the next scan (or the daemon's next event).
        for attempt in 1...scanner.retryAttempts where !changing.isEmpty {
            Thread.sleep(forTimeInterval: scanner.retryDelay * Double(attempt))
            let again = changing.compactMap { item -> ScanItem? in
                guard case .success(let info) = Crawler.lstatus(item.file.path) else { return nil }
                var fresh = item
                fresh.file.size = Int64(info.st_size)
                fresh.file.modificationTime =
                    Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
                return fresh
            }
            changing = []
            try commit(again, scanner.read(again.map(\.file)))
        }
        // What a root's scan could not read settled joins what earlier roots' could not.
        report.stillChanging += changing.map(\.file.path)
        var vanished = sources.unclaimed
        if holdsDepartures && !vanished.isEmpty {
            report.departuresHeld[root, default: []].formUnion(vanished.map(\.path))
            vanished = []
        }
        if !finishAlways && !unplaced && moved.isEmpty && vanished.isEmpty && gone.isEmpty && revived.isEmpty {
            return report
        }
        let (moved, gone, root, revived, crawler) = (moved, gone, root, revived, scanner.crawler)
        let filesChanged = readAny || !moved.isEmpty || !vanished.isEmpty || !revived.isEmpty
        let leftElsewhere = sources.leftElsewhere
        var partners: [StoredFile] = []
        var apart: [StoredFile] = []
        // A file known by its birth time may have been written since it moved (renamed, then saved
        // in place): it is read again where it is now, its asset kept.
        let writtenSinceMoved = moved.compactMap { file, known -> StoredFile? in
            guard file.size != known.fileSize || file.modificationTime != known.modificationTime else { return nil }
            var there = known
            there.path = file.path
            return there
        }
        try scanner.database.write { transaction in
            for id in revived { try transaction.restoreTrashedAsset(id) }
            let meeting = try Self.directoriesWhereFilesMayMeet(moved, in: transaction)
            for (file, known) in moved {
                try transaction.moveResource(known, to: file.path, name: file.name)
            }
            // The albums of the directories files left under other roots lose them in the same change.
            for (other, directories) in leftElsewhere.sorted(by: { $0.key < $1.key }) {
                var mirror = DirectoryMirror(root: other) { crawler.crawl(other) }
                try mirror.place(directories, in: transaction)
            }
            try Self.passUserStateToOtherNames(of: vanished, in: transaction)
            partners = try transaction.deleteResources(vanished)
            // An asset of several files one of which moved to another folder keeps the files beside
            // its photo (or video); the others leave it, to be read as new files: a scan of the tree
            // into a new library, which pairs files of one folder only, would make two assets.
            apart = try transaction.filesApartFromTheirPrimary(ofAssets: Set(moved.map(\.1.assetID)))
            let apartIDs = Set(apart.map(\.resourceID))
            let left = try transaction.deleteResources(apart)
            // A file moved beside files of another asset it pairs with is grouped with them again.
            let joining = try Self.filesMeetingPartners(
                moved.map(\.0).filter { meeting.contains($0.directory) }, in: transaction)
            var seen = Set<Int64>()
            partners = (partners + left + joining + writtenSinceMoved).filter {
                !apartIDs.contains($0.resourceID) && seen.insert($0.resourceID).inserted
            }
            try transaction.forgetRejections(gone)
            try transaction.setRoot(root, offline: false)
            try finish(transaction, filesChanged)
        }
        // What is left of an asset whose other files went or moved apart is read again and grouped
        // anew, keeping the asset. The files that moved apart from it are read as new: assets of
        // their own, or of the files they pair with where they are now.
        try readAgain(partners, apart: apart)
        if !apart.isEmpty { try placeApart(apart, crawler: crawler) }
        if !newAfterMoves.isEmpty { try commit(newAfterMoves, scanner.read(newAfterMoves.map(\.file))) }
        report.restored += revived.count
        report.moved += moved.count
        report.movedFiles += moved.map(\.0.path)
        report.removed += vanished.count
        scanner.metrics.moved.increment(by: moved.count)
        scanner.metrics.removed.increment(by: vanished.count)
        return report
    }

    /// Gives what the user set on the assets of files gone from their paths to the assets of other
    /// names the same files still have (hard links: `ln a.jpg b.jpg`, both scanned, then `rm a.jpg`):
    /// the file is still there, so its favorite, stars and user albums stay with it. Only for an
    /// asset losing every file; one query a device for all the files.
    private static func passUserStateToOtherNames(of vanished: [StoredFile], in transaction: LibraryTransaction)
        throws
    {
        var inodes: [Int64: Set<Int64>] = [:]
        for file in vanished {
            if let device = file.device, let inode = file.inode { inodes[device, default: []].insert(inode) }
        }
        let gone = Set(vanished.map(\.resourceID))
        let others = try inodes.flatMap { device, inodes in
            try transaction.storedFiles(device: device, inodes: inodes.sorted())
        }.filter { !gone.contains($0.resourceID) }
        guard !others.isEmpty else { return }
        var goneByAsset: [Int64: Int] = [:]
        for file in vanished { goneByAsset[file.assetID, default: 0] += 1 }
        var heirs: [Int64: Int64] = [:]
        for file in vanished where heirs[file.assetID] == nil {
            guard
                let other = others.first(where: { other in
                    other.assetID != file.assetID && isSameFile(file, other) && isStill(other)
                })
            else { continue }
            let files = try transaction.resources(ofAsset: file.assetID).filter { resource in
                !PHAssetResourceType.editTypes.contains { $0.rawValue == resource.type }
            }
            guard files.count == goneByAsset[file.assetID] else { continue }  // The asset stays.
            heirs[file.assetID] = other.assetID
        }
        for (asset, heir) in heirs.sorted(by: { $0.key < $1.key }) {
            try transaction.absorbUserState(of: asset, into: heir)
        }
    }

    /// Whether two stored files are one file under two names: the same device and inode, and the
    /// same birth time where both have one, else the same size and modification time.
    private static func isSameFile(_ file: StoredFile, _ other: StoredFile) -> Bool {
        guard let device = file.device, let inode = file.inode, other.device == device, other.inode == inode else {
            return false
        }
        if let born = file.birthTime, let birth = other.birthTime { return born == birth }
        return file.fileSize == other.fileSize && file.modificationTime == other.modificationTime
    }

    /// Whether `file`'s path still holds the file the store knows there (its device and inode).
    private static func isStill(_ file: StoredFile) -> Bool {
        guard case .success(let info) = Crawler.lstatus(file.path) else { return false }
        return Int64(info.st_dev) == file.device && Int64(info.st_ino) == file.inode
            && info.st_mode & S_IFMT == S_IFREG
    }

    /// The directories files moved to where they may meet files of other assets, asked before the
    /// moves: one that held files, or that files came to from several directories (or from within
    /// it). A folder renamed or moved whole brings its groups as they were, and is not looked at.
    private static func directoriesWhereFilesMayMeet(
        _ moved: [(CrawledFile, StoredFile)], in transaction: LibraryTransaction
    ) throws -> Set<String> {
        var meeting = Set<String>()
        for (directory, files) in Dictionary(grouping: moved, by: \.0.directory) {
            let origins = Set(files.map { PathName.directory(of: $0.1.path) })
            if try origins.count > 1 || origins.contains(directory) || transaction.hasFiles(under: directory) {
                meeting.insert(directory)
            }
        }
        return meeting
    }

    /// The files moved beside files of another asset they pair with (a JPEG put beside its RAW, a
    /// Live Photo's halves moved one at a time), and those files: read again, they are grouped as a
    /// scan of the folder groups them, one asset taking the other in with what the user set on it.
    /// One look-up per directory the files moved to.
    private static func filesMeetingPartners(_ moved: [CrawledFile], in transaction: LibraryTransaction) throws
        -> [StoredFile]
    {
        var paths = Set<String>()
        for (directory, files) in Dictionary(grouping: moved, by: \.directory) {
            let stored = try transaction.resources(
                at: Set(files.map(\.path)), inDirectory: directory,
                pairingWith: Set(files.map { PairingName.of($0.name) }), contentIdentifiers: [])
            paths.formUnion(AssetGrouping.filesJoiningOtherAssets(stored))
        }
        return paths.isEmpty ? [] : try transaction.storedFiles(atPaths: paths)
    }

    /// Places the albums of the directories under other roots that files moved apart from their
    /// asset are in (its photo moved here from there): the batch that read them placed this root's.
    private func placeApart(_ apart: [StoredFile], crawler: Crawler) throws {
        var byRoot: [String: Set<String>] = [:]
        for file in apart where !PathName.isWithin(file.path, root) {
            guard let other = sources.elsewhere.first(where: { PathName.isWithin(file.path, $0) }) else { continue }
            byRoot[other, default: []].insert(PathName.directory(of: file.path))
        }
        guard !byRoot.isEmpty else { return }
        let token = try scanner.database.write { transaction in
            for (other, directories) in byRoot.sorted(by: { $0.key < $1.key }) {
                var mirror = DirectoryMirror(root: other) { crawler.crawl(other) }
                try mirror.place(directories, in: transaction)
            }
        }.token
        committed(token)
    }

    /// Commits one batch, with its directories placed in their albums.
    private mutating func commit(_ batch: [ScanItem], _ outcomes: [FolderScanner.Outcome]) throws {
        var counts = ScanReport()
        var removed = false
        var stillChanging: [ScanItem] = []
        let (place, timeZone, origins) = (place, scanner.extractor.timeZone, scanner.origins)
        let storedNothing = rootHadFiles ? [] : Set(batch.map(\.file.directory)).subtracting(grouped)
        let nothingMoved = moved.isEmpty && revived.isEmpty
        let listedSidecars = listedSidecars
        // The other files of assets a file of which stopped being media (made unreadable, replaced
        // by something else): read again after the commit, as a deletion's survivors are.
        var partners: [StoredFile] = []
        // Sidecars copied with their photo, naming the original's identifier: synced after the scan.
        var namingOthers: [String] = []
        // Photos whose assets took another in: their sidecars are synced after the scan.
        var joined: [String] = []
        let token = try scanner.database.write { transaction in
            var fine: [String] = []
            var media: [String: [(CrawledFile, FileMetadata)]] = [:]
            for (item, outcome) in zip(batch, outcomes) {
                let file = item.file
                switch outcome {
                case .changing:
                    stillChanging.append(item)
                case .vanished:
                    continue
                case .notMedia:
                    counts.skipped += 1
                    if let known = item.known {
                        partners += try transaction.deleteResources([known])
                        removed = true
                    }
                case .rejected(let error):
                    counts.rejected += 1
                    try transaction.reject(
                        RejectedFile(
                            path: file.path, code: error.code.description, reason: error.message, fileSize: file.size,
                            modificationTime: file.modificationTime, rejectedDate: Date().timeIntervalSince1970))
                    if let known = item.known {
                        partners += try transaction.deleteResources([known])
                        removed = true
                    }
                case .media(let metadata):
                    if item.wasRejected { fine.append(file.path) }
                    media[file.directory, default: []].append((file, metadata))
                    if item.known != nil { counts.updated += 1 } else { counts.ingested += 1 }
                }
            }
            var bursts = Set<String>()
            for (directory, files) in media.sorted(by: { $0.key < $1.key }) {
                let applied = try AssetGrouping(
                    directory: directory, fresh: files, transaction: transaction, timeZone: timeZone,
                    origins: origins, storedNothing: nothingMoved && storedNothing.contains(directory),
                    listedSidecars: listedSidecars[directory]
                ).apply()
                bursts.formUnion(applied.bursts)
                namingOthers += applied.sidecarsNamingOthers
                joined += applied.joinedPhotos
            }
            try transaction.pickBurstRepresentatives(bursts)
            try transaction.forgetRejections(fine)
            if !media.isEmpty { try place(transaction, media.mapValues { $0.map(\.0.path) }) }
        }.token
        committed(token)
        grouped.formUnion(batch.map(\.file.directory))
        // A file read again later (it was being written) looks for its sidecars itself.
        for item in batch { self.listedSidecars[item.file.directory] = nil }
        unplaced = unplaced || removed
        changing += stillChanging
        report.skipped += counts.skipped
        report.rejected += counts.rejected
        report.updated += counts.updated
        report.ingested += counts.ingested
        // Not in a root's first scan (a rebuild, a library made new): which of two photos an
        // identifier was is for the roots' identifier logs, read after the scan, to say; until then
        // no sidecar is written with the other's.
        if rootHadFiles { report.sidecarsToSync += namingOthers }
        report.joinedPhotos += joined
        scanner.metrics.rejected.increment(by: counts.rejected)
        scanner.metrics.updated.increment(by: counts.updated)
        scanner.metrics.ingested.increment(by: counts.ingested)
        filesRead += batch.count
        let inBatch = Set(batch.map(\.file.path))
        try readAgain(partners.filter { !inBatch.contains($0.path) })
    }

    /// Reads again what is left of assets whose other files went (deleted, or no longer media), and
    /// groups it anew in the same asset: a Live Photo's movie without its still is a video, a RAW
    /// without its JPEG a photo; and, as new files, those that moved apart from their asset
    /// (`apart`). Not counted as read: the report counts them as what changed on disk (moved,
    /// removed, rejected) already.
    private mutating func readAgain(_ partners: [StoredFile], apart: [StoredFile] = []) throws {
        let crawler = scanner.crawler
        let again =
            partners.compactMap { partner -> ScanItem? in
                guard case .success(let file?) = crawler.crawlFile(at: partner.path) else { return nil }
                return ScanItem(file: file, known: partner, wasRejected: false)
            }
            + apart.compactMap { file -> ScanItem? in
                guard case .success(let found?) = crawler.crawlFile(at: file.path) else { return nil }
                return ScanItem(file: found, known: nil, wasRejected: false)
            }
        guard !again.isEmpty else { return }
        let (updated, ingested) = (report.updated, report.ingested)
        try commit(again, scanner.read(again.map(\.file)))
        (report.updated, report.ingested) = (updated, ingested)
    }
}

/// The most a scan held at once, counted rather than timed: files found on disk (a directory's, a
/// batch being read, one being committed) and the store's rows compared with them. Neither grows
/// with the tree, only with its largest directory and the batch size.
public struct ScanFootprint: Sendable, Hashable {
    /// Files held at once.
    public var files = 0
    /// Rows of the store held at once.
    public var rows = 0

    mutating func note(files: Int, rows: Int) {
        self.files = max(self.files, files)
        self.rows = max(self.rows, rows)
    }
}

/// A batch being read on the other core.
private final class PendingRead: Sendable {
    let batch: [ScanItem]
    private let result = Mutex<[FolderScanner.Outcome]>([])
    private let group = DispatchGroup()

    init(_ batch: [ScanItem], scanner: FolderScanner, onThisThread: Bool = false) {
        self.batch = batch
        // A thread of its own, not `DispatchQueue.global()`: on Linux that queue's threads are the ones
        // Swift concurrency runs on (one per core), and a read of a batch's files would hold one of
        // them for as long as the disk takes, under photosd's services and the API.
        //
        // A `SystemThread`, not Foundation's `Thread`: Foundation keeps its `Thread` object, and with
        // it this closure (the scanner and its database), until the thread's thread-specific data is
        // destroyed, after libdispatch has freed its per-thread cache of continuations (filled here
        // by `concurrentPerform`). When the closure held the last reference to the database, its
        // queue's disposal took a continuation from that freed cache and wrote into the thread's
        // free list: glibc aborted the process ("tcache_thread_shutdown(): unaligned tcache chunk
        // detected"). A `SystemThread` releases the closure before the thread's function returns.
        group.enter()
        let read: @Sendable () -> Void = { [self] in
            let outcomes = scanner.read(batch.map(\.file))
            result.withLock { $0 = outcomes }
            group.leave()
        }
        if onThisThread {
            read()
            return
        }
        do {
            try SystemThread(name: "photosd-read", read).detach()
        } catch {
            // No thread to be had (the kernel's limit): the batch is read here, one core fewer.
            read()
        }
    }

    /// What reading gave, once it has.
    func outcomes() -> [FolderScanner.Outcome] {
        group.wait()
        return result.withLock { $0 }
    }
}

/// Where a file new at its path may have come from: a file the store has under the root that the
/// scan finds gone from disk, or one under another of the host's roots that is gone from disk
/// (moved from one watched folder to another). Each is claimed by one new path at most.
///
/// The device and inode decide, not the watcher's move events: the daemon's settler only names
/// both ends of a move as paths to look at, so a move whose events a queue overflow lost, or that
/// happened while the daemon was stopped, keeps its asset the same way.
struct MoveSources {
    /// For a scan of a whole root, walked a directory at a time: how to tell whether a stored file
    /// in a directory not compared yet is gone. Nil for a scan of some directories or paths, which
    /// finds sources only among what it compares.
    struct Lookahead {
        /// The directories the crawl found readable.
        var crawled: Set<String>
        /// The directories compared so far.
        var compared: Set<String> = []
        /// The directories not listed (unreadable): nothing under them moved.
        var frozen: FrozenPaths
        var rules: IgnoreRules
    }

    let root: String
    var lookahead: Lookahead?
    /// The host's other roots that are online: a file gone from one of them may be the new file.
    let elsewhere: [String]
    /// What the store had and the scan did not find, so far.
    private var vanished: [StoredFile] = []
    private var vanishedIDs = Set<Int64>()
    private var claimed = Set<Int64>()
    /// The claimed files that were under another root: by that root, the directories they left.
    private(set) var leftElsewhere: [String: Set<String>] = [:]

    init(root: String, lookahead: Lookahead?, elsewhere: [String] = []) {
        self.root = root
        self.lookahead = lookahead
        self.elsewhere = elsewhere
    }

    /// Stored files whose path holds another file (another inode) that is not known to have
    /// moved: their own file may turn up at a new path, which then claims them.
    private var replaced = Set<Int64>()

    /// Whether a new path claimed `file` (it moved there).
    func isClaimed(_ file: StoredFile) -> Bool { !claimed.isEmpty && claimed.contains(file.resourceID) }

    /// Notes a stored file whose path holds another file.
    mutating func noteReplaced(_ file: StoredFile) { replaced.insert(file.resourceID) }

    /// Files the store had where the scan found none.
    mutating func vanish(_ files: [StoredFile]) {
        for file in files where vanishedIDs.insert(file.resourceID).inserted { vanished.append(file) }
    }

    /// The vanished files no new path claimed: what left the disk.
    var unclaimed: [StoredFile] { vanished.filter { !claimed.contains($0.resourceID) } }

    /// The stored file `file` moved from, claimed for it: the same file (``isSameFile(_:_:)``),
    /// else, across devices, one with its name, size and modification time; nil when none is gone
    /// from disk.
    mutating func claim(for file: CrawledFile, reader: ScanReader) throws -> StoredFile? {
        guard lookahead != nil || !vanished.isEmpty || !elsewhere.isEmpty else { return nil }
        let under = elsewhere.isEmpty ? root : nil
        let byInode = try reader.files(device: file.device, inode: file.inode, under: under)
            .first { Self.isSameFile($0, file) && isSource($0, of: file) }
        let name = file.name
        let source =
            try byInode
            ?? reader.files(size: file.size, modificationTime: file.modificationTime, under: under)
            .first { PathName.name(of: $0.path) == name && isSource($0, of: file) }
        guard let source else { return nil }
        claimed.insert(source.resourceID)
        if let other = otherRoot(of: source.path) {
            leftElsewhere[other, default: []].insert(PathName.directory(of: source.path))
        }
        return source
    }

    /// The stored file that moved over the known path `file` is at (names swapped, a file moved
    /// over another), claimed for it: the same file (``isSameFile(_:_:)``), no longer at its own
    /// path. Nil when none: the path's own file written anew.
    mutating func claimMovedOver(for file: CrawledFile, reader: ScanReader) throws -> StoredFile? {
        let under = elsewhere.isEmpty ? root : nil
        let source = try reader.files(device: file.device, inode: file.inode, under: under).first {
            $0.path != file.path && !claimed.contains($0.resourceID) && Self.isSameFile($0, file)
                && hasLeft($0.path, device: file.device, inode: file.inode)
        }
        guard let source else { return nil }
        claimed.insert(source.resourceID)
        if let other = otherRoot(of: source.path) {
            leftElsewhere[other, default: []].insert(PathName.directory(of: source.path))
        }
        return source
    }

    /// The root of `elsewhere` that holds `path`, when `root` does not.
    private func otherRoot(of path: String) -> String? {
        guard !PathName.isWithin(path, root) else { return nil }
        return elsewhere.first { PathName.isWithin(path, $0) }
    }

    /// Whether `stored` is the file `file` is, wherever each is: the same device and inode, and,
    /// where both have one, the same birth time, which a rename and an edit in place keep (the
    /// file is then read again); without one, the same size and modification time, as a rename
    /// keeps them. A file given the inode number of one that went (ext4 gives a freed inode to the
    /// next file made: a backup restored, a copy) is another photo.
    static func isSameFile(_ stored: StoredFile, _ file: CrawledFile) -> Bool {
        guard stored.device == file.device, stored.inode == file.inode else { return false }
        if let born = stored.birthTime, let birth = file.birthTime { return born == birth }
        return stored.fileSize == file.size && stored.modificationTime == file.modificationTime
    }

    /// Whether `stored` is gone from disk and not claimed by another path.
    private func isSource(_ stored: StoredFile, of file: CrawledFile) -> Bool {
        guard stored.path != file.path, !claimed.contains(stored.resourceID) else { return false }
        if vanishedIDs.contains(stored.resourceID) { return true }
        // Its path holds another file now, and this is its own (same inode, as a rename leaves it).
        if replaced.contains(stored.resourceID) || isMovedAway(stored, to: file) { return true }
        if !PathName.isWithin(stored.path, root) {
            // Under another root, still there (not unmounted), and gone from it.
            guard let other = otherRoot(of: stored.path), case .success(let info) = Crawler.lstatus(other),
                info.st_mode & S_IFMT == S_IFDIR
            else { return false }
            return Self.isGone(stored.path)
        }
        guard let lookahead else { return false }
        let directory = PathName.directory(of: stored.path)
        if lookahead.compared.contains(directory) || lookahead.frozen.contains(stored.path) { return false }
        // Its directory is gone or excluded, or its name is ignored now: the scan will not find it.
        if !lookahead.crawled.contains(directory) || lookahead.rules.isIgnoredName(PathName.name(of: stored.path)) {
            return true
        }
        return Self.isGone(stored.path)
    }

    /// Whether `stored` is `file`, renamed, and its path holds another file now (a folder renamed
    /// and another made with its name).
    private func isMovedAway(_ stored: StoredFile, to file: CrawledFile) -> Bool {
        guard Self.isSameFile(stored, file),
            PathName.isWithin(stored.path, root) || otherRoot(of: stored.path) != nil,
            case .success(let info) = Crawler.lstatus(stored.path)
        else { return false }
        return info.st_mode & S_IFMT == S_IFREG
            && (Int64(info.st_dev) != file.device || Int64(info.st_ino) != file.inode)
    }

    /// Whether the file with `device` and `inode` is no longer at `path`: another file is there, or
    /// none, under a root that is there (not unmounted).
    private func hasLeft(_ path: String, device: Int64, inode: Int64) -> Bool {
        switch Crawler.lstatus(path) {
        case .success(let info):
            return info.st_mode & S_IFMT != S_IFREG || Int64(info.st_dev) != device || Int64(info.st_ino) != inode
        case .failure(let error):
            guard UnreadableDirectory.meansGone(error.code) else { return false }
            if PathName.isWithin(path, root) { return true }
            guard let other = otherRoot(of: path), case .success(let info) = Crawler.lstatus(other) else {
                return false
            }
            return info.st_mode & S_IFMT == S_IFDIR
        }
    }

    /// Whether no file is at `path` any more (a directory there, or nothing), as far as can be told.
    private static func isGone(_ path: String) -> Bool {
        switch Crawler.lstatus(path) {
        case .success(let info): return info.st_mode & S_IFMT != S_IFREG
        case .failure(let error): return UnreadableDirectory.meansGone(error.code)
        }
    }
}
