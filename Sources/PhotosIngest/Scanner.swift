import Dispatch
import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore
import Synchronization

/// Makes a library match directories on disk: crawl, compare with the store, read what is new or
/// changed, commit in batches, mirror the directory tree as folders and albums.
///
/// ```swift
/// let scanner = Scanner(database: try LibraryDatabase(path: "library.sqlite"))
/// let report = try scanner.scan(roots: ["/home/me/Pictures"])
/// print(report.ingested, report.rejected)
/// ```
///
/// Identity is kept across runs: a file at a known path is not read again unless its size or
/// modification time changed (a rescan costs a `stat` per file), and a file that moved keeps its
/// asset (matched by device and inode). A root that cannot be read is marked offline and its
/// assets are kept.
public final class Scanner: Sendable {
    /// The library being written.
    public let database: LibraryDatabase
    let extractor: MetadataExtractor
    let crawler: Crawler
    /// Files read and committed per transaction.
    let batchSize: Int

    /// A scanner writing to `database`; file dates without an offset are read in `timeZone`.
    public init(database: LibraryDatabase, timeZone: TimeZone = .current, rules: IgnoreRules = IgnoreRules(),
                batchSize: Int = 500) {
        self.database = database
        extractor = MetadataExtractor(timeZone: timeZone)
        crawler = Crawler(rules: rules)
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
        root: String, tree: (directories: [CrawledDirectory], files: [CrawledFile]), report: inout ScanReport,
        progress: (@Sendable (ScanProgress) -> Void)?
    ) throws {
        let (stored, rejected) = try database.write { transaction in
            (try transaction.storedFiles(under: root), try transaction.rejectedFiles(under: root))
        }.value
        let storedByPath = Dictionary(stored.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var plan = ScanPlan()
        report.seen += tree.files.count
        var seenPaths = Set<String>()
        for file in tree.files {
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
        var stillAdded: [CrawledFile] = []
        var movedIndexes = Set<Int>()
        for file in plan.added {
            if let index = vanishedByInode[Inode(file.device, file.inode)], vanished[index].fileSize == file.size,
                !movedIndexes.contains(index)
            {
                movedIndexes.insert(index)
                plan.moved.append((file, vanished[index]))
            } else {
                stillAdded.append(file)
            }
        }
        plan.added = stillAdded
        vanished = vanished.enumerated().filter { !movedIndexes.contains($0.offset) }.map(\.element)

        // Read what is new or changed, both cores at a time, and commit in batches.
        let toRead = plan.added + plan.changed.map(\.0)
        var done = 0
        for start in stride(from: 0, to: toRead.count, by: batchSize) {
            let batch = Array(toRead[start..<min(start + batchSize, toRead.count)])
            let outcomes = read(batch)
            try commit(batch: batch, outcomes: outcomes, plan: plan, report: &report)
            done += batch.count
            progress?(ScanProgress(phase: "reading", done: done, total: toRead.count))
        }
        try database.write { transaction in
            for (file, known) in plan.moved {
                try transaction.moveResource(known, to: file.path, name: file.name)
            }
            try transaction.deleteResources(vanished)
            let gone = rejected.keys.filter { !seenPaths.contains($0) }
            try transaction.forgetRejections(gone)
            try transaction.setRoot(root, offline: false)
            try DirectoryMirror(root: root, directories: tree.directories).apply(in: transaction)
        }
        report.moved += plan.moved.count
        report.removed += vanished.count
    }

    /// What reading one file gave.
    enum Outcome: Sendable {
        case media(FileMetadata)
        case rejected(MetadataError)
        case notMedia
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
            results.withLock { $0[index] = outcome }
        }
        return results.withLock { results in files.indices.map { results[$0]! } }
    }

    private func commit(batch: [CrawledFile], outcomes: [Outcome], plan: ScanPlan, report: inout ScanReport) throws {
        let changedByPath = Dictionary(plan.changed.map { ($0.0.path, $0.1) }, uniquingKeysWith: { first, _ in first })
        var counts = ScanReport()
        try database.write { transaction in
            var fine: [String] = []
            for (file, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .notMedia:
                    counts.skipped += 1
                    if let known = changedByPath[file.path] { try transaction.deleteResources([known]) }
                case .rejected(let error):
                    counts.rejected += 1
                    try transaction.reject(
                        RejectedFile(
                            path: file.path, code: error.code.description, reason: error.message, fileSize: file.size,
                            modificationTime: file.modificationTime, rejectedDate: Date().timeIntervalSince1970))
                    if let known = changedByPath[file.path] { try transaction.deleteResources([known]) }
                case .media(let metadata):
                    fine.append(file.path)
                    let type: PHAssetResourceType = metadata.kind == .video ? .video : .photo
                    if let known = changedByPath[file.path], var record = try transaction.asset(id: known.assetID) {
                        AssetFactory.apply(metadata, file: file, to: &record)
                        try transaction.updateAsset(record, properties: ["content"])
                        var resources = try transaction.resources(ofAsset: known.assetID)
                        resources.removeAll { $0.path == file.path }
                        resources.append(AssetFactory.resource(for: file, metadata: metadata, type: type))
                        try transaction.replaceResources(ofAsset: known.assetID, with: resources)
                        counts.updated += 1
                    } else {
                        var record = AssetRecord(
                            localIdentifier: UUID().uuidString + "/L0/001", mediaType: AssetFactory.mediaType(metadata.kind))
                        AssetFactory.apply(metadata, file: file, to: &record)
                        try transaction.insertAsset(
                            record, resources: [AssetFactory.resource(for: file, metadata: metadata, type: type)])
                        counts.ingested += 1
                    }
                }
            }
            try transaction.forgetRejections(fine)
        }
        report.skipped += counts.skipped
        report.rejected += counts.rejected
        report.updated += counts.updated
        report.ingested += counts.ingested
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

/// What a scan of one root has to do.
struct ScanPlan {
    var added: [CrawledFile] = []
    var changed: [(CrawledFile, StoredFile)] = []
    var moved: [(CrawledFile, StoredFile)] = []
}
