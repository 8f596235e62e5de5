import Dispatch
import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosMetadata
import PhotosStore
import Synchronization

/// One import of a drop folder's photos into a root of the library: what `photos import` runs, and
/// what a watched import folder runs each time files settle in it.
///
/// Planning reads and writes nothing but the library's content hashes: the files are read, grouped
/// as a scan groups them (``ImportGrouping``), checked against the library for duplicates by
/// content, and given their places (``ImportPlanner``). Running a plan does, a batch of groups at a
/// time (``batchSize``):
/// 1. the batch's `import` entries are journaled (one transaction);
/// 2. each file is linked under its new name (a move on one file system), or copied beside it,
///    synced, verified byte for byte and renamed into place (a copy, or a move across file
///    systems); nothing is ever written over; a group that cannot be placed whole is taken back;
/// 3. each new folder is synced once (the end of step 2) and the files are scanned into the library with what planning
///    read of them (commits of a few hundred files: observers and hooks see ordinary insertions,
///    each change saying where its assets came from);
/// 4. for a move, each original is removed if it is still the file that was placed (device, inode,
///    size, time) and its place holds it, and each of their folders synced once; for a copy, the
///    content is remembered;
/// 5. the entries are deleted.
///
/// ``importFiles(_:quiet:progress:)`` plans and places at once: a folder is read in parts, and the
/// groups of each part are placed while the next is read (the groups and names are those the whole
/// plan gives). Three threads share the work: one plans; one does steps 1 and 2 of a batch, then
/// 4 and 5 of the batch before it; one does step 3, the scan, in between.
///
/// A stop anywhere leaves every photo in the drop folder, in the root, or (between 2 and 4) in both:
/// never in neither. The next opening of the library finishes the entries (``FileJournal``): the
/// files of a group not yet placed are placed under the names the run chose (a group lands whole),
/// originals are removed (for a move), and the next scan of the root takes what was placed but not
/// yet scanned.
package struct FolderImport {
    /// A file left where it is, and why.
    package struct LeftFile: Sendable, Hashable {
        /// The file.
        package var path: String
        /// Why it stays.
        package var reason: String
    }

    /// A group whose content the library already has.
    package struct Duplicate: Sendable, Hashable {
        /// The group's primary file in the drop folder.
        package var path: String
        /// The library's file (or the earlier import's destination) with the same content.
        package var existing: String
        /// Every file of the group (the primary first): what `duplicates = "trash"` trashes.
        package var files: [String] = []
        /// The group's partners (a Live Photo's movie, a RAW+JPEG pair's RAW), each with the library's
        /// file of the same content: a group is a duplicate only when all of it is.
        package var partners: [String: String] = [:]
    }

    /// What an import will do: the groups it places, and what it leaves.
    package struct Plan: Sendable {
        /// The groups to place, in the order they are placed.
        package var groups: [ImportGroupPlan] = []
        /// Groups whose content the library has (left in place with `duplicates = "skip"`).
        package var duplicates: [Duplicate] = []
        /// Media files that cannot be read whole (truncated, damaged): they stay.
        package var rejected: [LeftFile] = []
        /// Other files that stay: not photos or videos, sidecars of no photo, groups that cannot be named.
        package var left: [LeftFile] = []
        /// Files changed more recently than the quiet time: still being written, taken at a later run.
        package var waiting: [String] = []
        /// What each media file said when planning read it, by its path in the drop folder: the scan
        /// of its place takes it rather than read the same bytes again.
        package var metadata: [String: FileMetadata] = [:]
        /// The content hashes planning computed, by primary file in the drop folder: what a copying
        /// import remembers it took, not hashed a second time.
        package var contentHashes: [String: String] = [:]
    }

    /// What a run did.
    package struct Report: Sendable {
        /// Each file placed: where it was and where it is now.
        package var placed: [(source: String, destination: String)] = []
        /// Duplicates' files moved to the Trash (`duplicates = "trash"`): where each was, where it is.
        package var trashed: [(source: String, trashPath: String)] = []
        /// How many assets the scans of the placed files made.
        package var assets = 0
        /// Groups that could not be placed, and why; their files are where they were.
        package var failed: [LeftFile] = []
        /// Originals of a move that the system would not let go (a write-protected card), and why:
        /// each is imported, and stays where it was too.
        package var keptOriginals: [LeftFile] = []
        /// Duplicates' files that `duplicates = "trash"` could not move to the Trash (or whose bytes
        /// were not the library's file's after all), and why: they stay in the drop folder.
        package var untrashed: [LeftFile] = []
    }

    let library: PHPhotoLibrary
    let definition: ImportDefinition
    let timeZone: TimeZone
    /// How many groups are journaled, placed and scanned together.
    let batchSize: Int
    /// How many files of a folder are read before their groups are planned (``plan(_:quiet:ready:)``).
    let planningChunk: Int
    /// Whether planning leaves the library as it is (a plan that is not run: `--dry-run`): the
    /// content hashes of the library's files it computes are not kept for the next import.
    private var writesNothing = false

    /// An import by `definition` into `library`; dates without their own offset are read in
    /// `timeZone`; `batchSize` groups are placed and scanned together (``defaultBatchSize(for:)``
    /// unless given), and a folder's files are read `planningChunk` at a time.
    package init(
        library: PHPhotoLibrary, definition: ImportDefinition, timeZone: TimeZone, batchSize: Int? = nil,
        planningChunk: Int = 512
    ) {
        self.library = library
        self.definition = definition
        self.timeZone = timeZone
        self.batchSize = max(1, batchSize ?? Self.defaultBatchSize(for: definition))
        self.planningChunk = max(1, planningChunk)
    }

    /// How many groups are placed and scanned together: 1,024 when the files are linked (a move on
    /// one file system), where a larger batch spreads its syncs and transactions over more files;
    /// 256 when they are copied, where each batch's copies wait for one sync of the disk before
    /// any is trusted, and a smaller batch waits less and overlaps the scans more.
    package static func defaultBatchSize(for definition: ImportDefinition) -> Int {
        guard definition.mode == .move,
            let from = try? FileOperations.identity(definition.from, followingLinks: true),
            let to = try? FileOperations.identity(definition.to, followingLinks: true), from.device == to.device
        else { return 256 }
        return 1024
    }

    // MARK: Planning

    /// A directory as the kernel knows it, whatever path reaches it (a link, a bind mount).
    struct DirectoryKey: Hashable {
        var device: Int64
        var inode: Int64

        init?(_ path: String) {
            guard let identity = try? FileOperations.identity(path, followingLinks: true) else { return nil }
            (device, inode) = (identity.device, identity.inode)
        }
    }

    /// Throws `accessRestricted` for a source that lies in a root of the library, or holds one, as
    /// the links on the way lead, or a mount of a root's directory elsewhere (a bind mount) does: a
    /// root's photos are the library's where they lie, and an import of them would take each for
    /// its own duplicate (and trash the only copy with `duplicates = "trash"`) or file it again as
    /// a second asset. The roots are the configuration's, the destination's, and those the library
    /// has scanned. Returns the roots' directories by their keys, for the walk of the sources to
    /// refuse one it meets below them (``files(under:roots:)``).
    func requireOutsideRoots(_ sources: [String]) throws -> [DirectoryKey: String] {
        let scanned: [String]
        do { scanned = try library.database.rootPaths() } catch { throw PHPhotoLibrary.photosError(error) }
        var roots: [String] = []
        for root in library.configuration.roots.map(\.path) + [definition.to] + scanned where !roots.contains(root) {
            roots.append(root)
        }
        var keys: [DirectoryKey: String] = [:]
        for root in roots { if let key = DirectoryKey(root) { keys[key] = root } }
        let resolvedRoots = roots.map(FileOperations.resolvedAsFarAsItExists)
        for source in sources {
            let resolved = FileOperations.resolvedAsFarAsItExists(source)
            var inside = zip(roots, resolvedRoots).first { PathName.isWithin(resolved, $0.1) }?.0
            // The same directory under another mount: the source, or a folder it lies in, is a root's.
            var ancestor = resolved
            while inside == nil, !ancestor.isEmpty {
                inside = DirectoryKey(ancestor).flatMap { keys[$0] }
                if ancestor == "/" { break }
                ancestor = PathName.directory(of: ancestor)
            }
            if let root = inside {
                throw PHPhotosError(
                    .accessRestricted,
                    "cannot import from \(source): it is inside the root \(root), whose photos are the library's "
                        + "where they lie (`photos mv` files them)")
            }
            if let root = zip(roots, resolvedRoots).first(where: { PathName.isWithin($0.1, resolved) })?.0 {
                throw Self.holdsRoot(source, root)
            }
        }
        return keys
    }

    /// The refusal of a source that holds `root`.
    static func holdsRoot(_ source: String, _ root: String) -> PHPhotosError {
        PHPhotosError(
            .accessRestricted,
            "cannot import from \(source): it holds the root \(root), whose photos are the library's already")
    }

    /// Plans the import of `sources` (files, or folders walked whole; hidden names are passed over).
    /// A folder holding a file changed less than `quiet` ago waits whole (``Plan/waiting``): its
    /// groups may still be arriving. Fails before planning anything when `to` may not be written (its
    /// root's policy is not `files`, or the disk refuses).
    package func plan(_ sources: [String], quiet: Duration = .zero) throws -> Plan {
        var planOnly = self
        planOnly.writesNothing = true
        return try planOnly.plan(sources, quiet: quiet) { _ in }
    }

    /// Plans as ``plan(_:quiet:)`` does, giving `ready` the groups as they are planned, in the
    /// plan's order, so that they can be placed while the rest of the folder is read.
    ///
    /// A folder is read a chunk of ``planningChunk`` files (512 unless the import says) at a time, in the order of their names'
    /// first parts (before the first dot, any case: `IMG_1.JPG`, `IMG_1.CR2`, `IMG_1.JPG.xmp` and
    /// `img_1.mov` are never split), and each chunk's groups are planned once it is read. A file
    /// that can pair with another by its content identifier (a Live Photo's still or movie) may pair
    /// across names, so the names of a chunk with such a file wait, and are grouped with the
    /// folder's others at its end: the groups are those the whole folder read at once makes.
    func plan(_ sources: [String], quiet: Duration, ready: (PlannedBatch) throws -> Void) throws -> Plan {
        try library.requireWrite(
            .files, at: (definition.to as NSString).appendingPathComponent("_"), for: "import into \(definition.to)")
        let rootKeys = try requireOutsideRoots(sources)
        var plan = Plan()
        var planning = Planning(
            extractor: MetadataExtractor(timeZone: timeZone),
            planner: ImportPlanner(
                destination: definition.to, layout: definition.layout, timeZone: timeZone,
                existingNames: { (try? FileOperations.names(in: $0)) ?? [] }))
        let quietSeconds = Double(quiet.components.seconds) + Double(quiet.components.attoseconds) / 1e18
        let settledBefore = Date().timeIntervalSince1970 - quietSeconds
        let found = Self.files(under: sources, roots: rootKeys)
        if let (source, root) = found.heldRoot { throw Self.holdsRoot(source, root) }
        plan.left += found.unreadable
        for (_, files) in found.byFolder.sorted(by: { $0.key < $1.key }) {
            if quietSeconds > 0 {
                // The status change time, not the modification time: a sync tool or `cp -a` keeps
                // a file's old modification time, but its arrival changes its status.
                let changing = files.filter { FileOperations.statusChangeTime($0) ?? 0 > settledBefore }
                if !changing.isEmpty {
                    plan.waiting += files
                    continue
                }
            }
            // The names' first parts, in order, each with its files.
            let byKey = Dictionary(grouping: files) { Self.pairingKey(PathName.name(of: $0)) }
            var waiting: (media: [(path: String, metadata: FileMetadata)], sidecars: [String]) = ([], [])
            var chunk: [String] = []
            func planChunk() throws {
                let read = self.read(chunk, with: planning.extractor, into: &plan)
                chunk = []
                // The names with a file that may pair by content identifier wait for the folder's end.
                let pairing = Set(
                    read.media.filter { $0.metadata.contentIdentifier != nil }.map {
                        Self.pairingKey(PathName.name(of: $0.path))
                    })
                let waits = { (path: String) in pairing.contains(Self.pairingKey(PathName.name(of: path))) }
                waiting.media += read.media.filter { waits($0.path) }
                waiting.sidecars += read.sidecars.filter(waits)
                let now = try planGroups(
                    media: read.media.filter { !waits($0.path) }, sidecars: read.sidecars.filter { !waits($0) },
                    planning: &planning, into: &plan)
                if !now.isEmpty { try ready(PlannedBatch(now, of: plan)) }
            }
            for key in byKey.keys.sorted() {
                chunk += byKey[key]!
                if chunk.count >= planningChunk { try planChunk() }
            }
            if !chunk.isEmpty { try planChunk() }
            if !waiting.media.isEmpty || !waiting.sidecars.isEmpty {
                let last = try planGroups(
                    media: waiting.media, sidecars: waiting.sidecars, planning: &planning, into: &plan)
                if !last.isEmpty { try ready(PlannedBatch(last, of: plan)) }
            }
        }
        return plan
    }

    /// What stays together in one chunk of a folder's planning: the lowercased name up to its first
    /// dot (`IMG_1.JPG.xmp` → `img_1`), coarser than a pairing name, so that no pair or sidecar is split.
    static func pairingKey(_ name: String) -> String {
        let lower = name.lowercased()
        guard let dot = lower.firstIndex(of: ".") else { return lower }
        return String(lower[..<dot])
    }

    /// Groups planned, with what placing them needs of the plan: what planning read of their files
    /// and the content hashes it computed.
    struct PlannedBatch: Sendable {
        var groups: [ImportGroupPlan]
        var metadata: [String: FileMetadata] = [:]
        var hashes: [String: String] = [:]

        init(_ groups: [ImportGroupPlan], of plan: Plan) {
            self.groups = groups
            for move in groups.flatMap(\.moves) {
                if let read = plan.metadata[move.source] { metadata[move.source] = read }
                if let hash = plan.contentHashes[move.source] { hashes[move.source] = hash }
            }
        }
    }

    /// What planning carries from one chunk to the next: the planner's names, and what this run
    /// planned, to catch a second copy of a photo (each file hashed at most once, and only when a
    /// later one has its size).
    private struct Planning {
        let extractor: MetadataExtractor
        var planner: ImportPlanner
        var planned = PlannedContent()
        /// The content hashes of the library's files this run computed, by resource row: each file is
        /// hashed once a run (files of one size, uncompressed RAWs, were hashed again for every new
        /// file of that size).
        var libraryHashes: [Int64: String] = [:]
    }

    /// Reads the media files of `paths` on every core, as a scan reads (the extractor is shared by
    /// its threads); what cannot be read goes to the plan's rejected or left files.
    private func read(_ paths: [String], with extractor: MetadataExtractor, into plan: inout Plan) -> (
        media: [(path: String, metadata: FileMetadata)], sidecars: [String]
    ) {
        let sidecars = paths.filter { ImportGrouping.isSidecar(PathName.name(of: $0)) }
        let readable = sidecars.isEmpty ? paths : paths.filter { !ImportGrouping.isSidecar(PathName.name(of: $0)) }
        let read = Mutex([Result<FileMetadata, MetadataError>?](repeating: nil, count: readable.count))
        DispatchQueue.concurrentPerform(iterations: readable.count) { index in
            let result = Result { () throws(MetadataError) in try extractor.extract(path: readable[index]) }
            read.withLock { $0[index] = result }
        }
        var media: [(path: String, metadata: FileMetadata)] = []
        for (path, result) in zip(readable, read.withLock { $0 }) {
            switch result {
            case .success(let metadata): media.append((path, metadata))
            case .failure(let error):
                let left = LeftFile(path: path, reason: error.message)
                if error.code == .notMedia || error.code == .empty {
                    plan.left.append(left)
                } else {
                    plan.rejected.append(left)
                }
            case nil: continue
            }
        }
        return (media, sidecars)
    }

    /// Groups media files of one folder (with their sidecars), leaves out the duplicates and names
    /// the rest: the groups added to the plan, which are returned.
    private func planGroups(
        media: [(path: String, metadata: FileMetadata)], sidecars: [String], planning: inout Planning,
        into plan: inout Plan
    ) throws -> [ImportGroupPlan] {
        let (groups, unowned) = ImportGrouping.groups(of: media, sidecars: sidecars)
        plan.left += unowned.map { LeftFile(path: $0, reason: "a sidecar of no photo or video beside it") }
        let metadata = Dictionary(media.map { ($0.path, $0.metadata) }, uniquingKeysWith: { first, _ in first })
        plan.metadata.merge(metadata) { first, _ in first }
        let identities = try groups.map { try FileOperations.identity($0.primary) }
        var partnerFiles: [String: FileIdentity] = [:]
        for member in groups.flatMap(\.members) where member.role == .pairedVideo || member.role == .alternatePhoto {
            partnerFiles[member.path] = try FileOperations.identity(member.path)
        }
        let partnerSizes = partnerFiles.mapValues(\.size)
        // The library's files of each size the folder's photos and movies have, read at once.
        let candidates = try library.database.assetFiles(
            ofSizes: Set(identities.compactMap { $0?.size }).union(partnerSizes.values))
        // The library's files of those sizes by device and inode, each looked at once a chunk.
        var libraryFiles: [FileKey: String] = [:]
        for candidate in candidates.values.joined() {
            if let file = try? FileOperations.identity(candidate.path) {
                libraryFiles[FileKey(device: file.device, inode: file.inode)] = candidate.path
            }
        }
        var placed: [ImportGroupPlan] = []
        for (group, identity) in zip(groups, identities) {
            guard let primary = metadata[group.primary], let identity else { continue }
            // The library's own file, reached through another mount of its directory (a bind mount)
            // or another name: never imported, moved or trashed as if it were new.
            let members =
                [(group.primary, identity)]
                + group.members.compactMap { member in
                    partnerFiles[member.path].map { (member.path, $0) }
                }
            if let (path, own) = members.lazy.compactMap({ path, identity in
                libraryFiles[FileKey(device: identity.device, inode: identity.inode)].map { (path, $0) }
            }).first {
                let reason =
                    "\(PathName.name(of: path)) is the library's own file \(own) (the same file, through another "
                    + "mount or name): the group stays"
                plan.left += group.members.map { LeftFile(path: $0.path, reason: reason) }
                continue
            }
            if definition.duplicates != .keep {
                let existing = try duplicate(
                    of: group.primary, size: identity.size, candidates: candidates[identity.size] ?? [],
                    planning: &planning, hashes: &plan.contentHashes)
                // A pair is the library's only when each of its files is, and new only when each is: a
                // new RAW beside a JPEG the library has (or a new JPEG beside its RAW) is neither
                // imported whole, as the known file would be twice, nor trashed with it.
                var partners: [String: String] = [:]
                var new: [String] = existing == nil ? [PathName.name(of: group.primary)] : []
                for member in group.members where member.role == .pairedVideo || member.role == .alternatePhoto {
                    // Beside a new primary, only a partner of a size the library has can be known (a
                    // copying import would hash each one else).
                    if let size = partnerSizes[member.path],
                        existing != nil || candidates[size]?.isEmpty == false || planning.planned.has(size: size),
                        let same = try duplicate(
                            of: member.path, size: size, candidates: candidates[size] ?? [],
                            planning: &planning, hashes: &plan.contentHashes)
                    {
                        partners[member.path] = same
                    } else {
                        new.append(PathName.name(of: member.path))
                    }
                }
                if let existing, new.isEmpty {
                    plan.duplicates.append(
                        Duplicate(
                            path: group.primary, existing: existing, files: group.members.map(\.path),
                            partners: partners))
                    continue
                }
                let known =
                    existing.map { [(PathName.name(of: group.primary), $0)] } ?? []
                    + partners.sorted { $0.key < $1.key }.map { (PathName.name(of: $0.key), $0.value) }
                if !known.isEmpty {
                    let reason =
                        known.map { "\($0.0) is already in the library (\($0.1))" }.joined(separator: ", ")
                        + ", \(new.joined(separator: ", ")) \(new.count == 1 ? "is" : "are") not: the group is left for "
                        + "you to sort out"
                    plan.left += group.members.map { LeftFile(path: $0.path, reason: reason) }
                    continue
                }
            }
            do {
                let named = try planning.planner.plan(
                    group, facts: ImportGrouping.facts(primary, modificationTime: identity.modificationTime))
                placed.append(named)
                planning.planned.add(group.primary, size: identity.size, destination: named.moves[0].destination)
                // Its partners too: the same RAW or movie later in the run (alone, or in another pair)
                // is a duplicate of this one's.
                for move in named.moves where move.role == .pairedVideo || move.role == .alternatePhoto {
                    if let size = partnerSizes[move.source] {
                        planning.planned.add(move.source, size: size, destination: move.destination)
                    }
                }
            } catch {
                plan.left += group.members.map { LeftFile(path: $0.path, reason: error.message) }
            }
        }
        plan.groups += placed
        return placed
    }

    /// The regular files of `sources` (files, or folders walked whole; hidden names and symbolic
    /// links are passed over), by folder, each folder's sorted; and the folders that could not be
    /// listed, with why. Names are the disk's bytes: a name that is not UTF-8 is imported like any
    /// other.
    /// A folder met whose directory is one of `roots` (a root mounted inside a source) stops the
    /// walk: ``heldRoot`` names the source and the root.
    static func files(under sources: [String], roots: [DirectoryKey: String] = [:]) -> (
        byFolder: [String: [String]], unreadable: [LeftFile], heldRoot: (source: String, root: String)?
    ) {
        var byFolder: [String: [String]] = [:]
        var unreadable: [LeftFile] = []
        func add(_ path: String) {
            guard let identity = try? FileOperations.identity(path), identity.isRegularFile else { return }
            byFolder[PathName.directory(of: path), default: []].append(path)
        }
        for source in sources.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            guard FileOperations.isDirectory(source, followingLinks: true) else {
                add(source)
                continue
            }
            var folders = [source]
            while let folder = folders.popLast() {
                let names: [String]
                do {
                    names = try FileOperations.names(in: folder)
                } catch let error as SystemCallError {
                    unreadable.append(LeftFile(path: folder, reason: "cannot be listed: \(error.reason)"))
                    continue
                } catch {
                    unreadable.append(LeftFile(path: folder, reason: "cannot be listed: \(error)"))
                    continue
                }
                for name in names where !name.hasPrefix(".") {
                    let path = folder == "/" ? "/" + name : folder + "/" + name
                    guard FileOperations.isDirectory(path) else {
                        add(path)
                        continue
                    }
                    if !roots.isEmpty, let key = DirectoryKey(path), let root = roots[key] {
                        return ([:], [], (source, root))
                    }
                    folders.append(path)
                }
            }
        }
        return (byFolder.mapValues { $0.sorted() }, unreadable, nil)
    }

    /// Where the library, this run or (for a copying import) an earlier import already has the
    /// content of `path`, if anywhere. Files are hashed only when one of the same size is known:
    /// the library's, or one `planned` earlier in this run; a copying import hashes each file, since
    /// it remembers what it took.
    private func duplicate(
        of path: String, size: Int64, candidates: [(id: Int64, path: String, contentHash: String?)],
        planning: inout Planning, hashes: inout [String: String]
    ) throws -> String? {
        let database = library.database
        guard !candidates.isEmpty || planning.planned.has(size: size) || definition.mode == .copy,
            let hash = ContentHash.of(path: path)
        else { return nil }
        hashes[path] = hash
        if let earlier = planning.planned.destination(ofContent: hash, size: size) { return earlier }
        if definition.mode == .copy, let earlier = try database.importedContent(hash: hash, size: size) {
            return earlier
        }
        for candidate in candidates {
            var known = candidate.contentHash ?? planning.libraryHashes[candidate.id]
            if known == nil, let computed = ContentHash.of(path: candidate.path) {
                if !writesNothing { try database.noteContentHash(computed, forResource: candidate.id) }
                planning.libraryHashes[candidate.id] = computed
                known = computed
            }
            if known == hash { return candidate.path }
        }
        return nil
    }

    /// The primary files a run planned, by size, and by content once hashed: each file is hashed at
    /// most once, and only when a later file of its size asks.
    struct PlannedContent {
        private var bySize: [Int64: [(path: String, destination: String)]] = [:]
        /// How many of each size's files are hashed into ``byHash``.
        private var hashedCount: [Int64: Int] = [:]
        private var byHash: [String: String] = [:]

        mutating func add(_ path: String, size: Int64, destination: String) {
            bySize[size, default: []].append((path, destination))
        }

        func has(size: Int64) -> Bool { bySize[size] != nil }

        /// Where a planned file with content `hash` goes, hashing the planned files of `size` not yet hashed.
        mutating func destination(ofContent hash: String, size: Int64) -> String? {
            let files = bySize[size] ?? []
            for file in files.dropFirst(hashedCount[size] ?? 0) {
                // Placed already by a run that places while it plans: the original may be gone, but
                // its place is there from before the original goes (a link, then an unlink).
                let hash = ContentHash.of(path: file.path) ?? ContentHash.of(path: file.destination)
                if let hash, byHash[hash] == nil { byHash[hash] = file.destination }
            }
            hashedCount[size] = files.count
            return byHash[hash]
        }
    }

    // MARK: Running

    /// Places the plan's groups, a batch at a time (``batchSize`` groups), and scans each batch into
    /// the library; `progress` hears how many groups are done of how many. A group that fails is
    /// reported and its files stay where they were; the others go on.
    package func run(_ plan: Plan, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> Report {
        var report = Report()
        var start = 0
        while start < plan.groups.count {
            let end = min(start + batchSize, plan.groups.count)
            try place(
                Array(plan.groups[start..<end]), metadata: plan.metadata, hashes: plan.contentHashes, into: &report)
            progress(end, plan.groups.count)
            start = end
        }
        trashDuplicates(of: plan, into: &report)
        return report
    }

    /// Plans and places at once: the groups of each part of a folder are placed while the next part
    /// is read (``plan(_:quiet:ready:)``, on a thread of its own), a batch of ``batchSize`` groups at
    /// a time, as ``run(_:progress:)`` places them; then the duplicates are trashed when the
    /// definition says so. `progress` hears how many groups are placed of how many planned so far.
    /// The names and groups are those ``plan(_:quiet:)`` gives (what `--dry-run` shows).
    ///
    /// Planning that fails (the root may not be written, the library cannot be read) is thrown once
    /// what was planned before it is placed; placing that fails stops the planning and is thrown.
    package func importFiles(
        _ sources: [String], quiet: Duration = .zero, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> (plan: Plan, report: Report) {
        let handoff = PlanHandoff()
        let planning = try SystemThread(name: "photos-import") { [self] in
            handoff.finish(Result { try self.plan(sources, quiet: quiet) { try handoff.put($0) } })
        }
        defer { planning.join() }
        var report = Report()
        var pending = PlannedBatch([], of: Plan())
        var done = 0
        var planned = 0
        // The batch before, scanned on a thread of its own while the next one is placed; this
        // thread finishes it (steps 4 and 5) while the next one is scanned.
        var landing: Landing?
        /// Waits for the batch being scanned; nil when there is none.
        func scanned() throws -> (landing: Landing, taken: Bool)? {
            guard let previous = landing else { return nil }
            landing = nil
            do {
                let (scanned, taken) = try previous.result()
                report.assets += scanned.assets
                report.failed += scanned.failed
                return (previous, taken)
            } catch {
                library.fileJournal.end(previous.staged.ids)
                throw error
            }
        }
        func finishScanned(_ scanned: (landing: Landing, taken: Bool)?) throws {
            guard let (previous, taken) = scanned else { return }
            defer { library.fileJournal.end(previous.staged.ids) }
            if taken { try self.finish(previous.staged, hashes: previous.hashes, into: &report) }
            done += previous.count
            progress(done, planned)
        }
        func landed() throws { try finishScanned(try scanned()) }
        func placePending(upTo count: Int) throws {
            let batch = Array(pending.groups.prefix(count))
            pending.groups.removeFirst(batch.count)
            let staged = try stage(batch, into: &report)
            let previous: (landing: Landing, taken: Bool)?
            do {
                previous = try scanned()
            } catch {
                // Placed but not scanned, as a stop between steps 2 and 3 leaves a batch: the
                // journal has it, and the next opening of the library finishes it.
                if let staged { library.fileJournal.end(staged.ids) }
                throw error
            }
            guard let staged else {
                try finishScanned(previous)
                done += batch.count
                progress(done, planned)
                return
            }
            var metadata: [String: FileMetadata] = [:]
            var hashes: [String: String] = [:]
            for source in batch.flatMap(\.moves).map(\.source) {
                metadata[source] = pending.metadata[source]
                hashes[source] = pending.hashes[source]
            }
            do {
                landing = try Landing(count: batch.count, staged: staged, hashes: hashes) { [self, metadata] in
                    var report = Report()
                    let taken = try scan(staged, metadata: metadata, into: &report)
                    return (report, taken)
                }
            } catch {
                library.fileJournal.end(staged.ids)
                try? finishScanned(previous)
                throw error
            }
            try finishScanned(previous)
        }
        // A batch being scanned is waited for, whatever stops the run; one a stop leaves scanned but
        // not finished stays journaled, and the next opening of the library finishes it.
        defer { if let left = try? scanned() { library.fileJournal.end(left.landing.staged.ids) } }
        do {
            while let next = handoff.take() {
                planned += next.groups.count
                pending.groups += next.groups
                pending.metadata.merge(next.metadata) { first, _ in first }
                pending.hashes.merge(next.hashes) { first, _ in first }
                while pending.groups.count >= batchSize { try placePending(upTo: batchSize) }
                // What is placed is forgotten: the metadata of a large import is not kept twice.
                if pending.groups.isEmpty { pending = PlannedBatch([], of: Plan()) }
            }
            if !pending.groups.isEmpty { try placePending(upTo: pending.groups.count) }
            try landed()
        } catch {
            handoff.cancel()
            throw error
        }
        let plan = try handoff.planned()
        trashDuplicates(of: plan, into: &report)
        return (plan, report)
    }

    /// Moves the plan's duplicates to the Trash when the definition says so (`duplicates = "trash"`,
    /// a moving import): the last step of a run, once every group is placed.
    private func trashDuplicates(of plan: Plan, into report: inout Report) {
        guard definition.duplicates == .trash, definition.mode == .move else { return }
        repairTrash(for: plan.duplicates.first?.path ?? definition.from)
        for duplicate in plan.duplicates { trash(duplicate, into: &report) }
    }

    /// Finishes what a run stopped halfway through its duplicates left in the Trash they go to: a
    /// `.trashinfo` whose file never moved is removed (the file is still in the drop folder), a file
    /// in the Trash under a second name is removed when the first is still there. Without this they
    /// linger in file managers as entries without a file, and hold their names.
    private func repairTrash(for path: String) {
        let trash = library.configuration.trash
        guard let directory = try? trash.directory(for: path) else { return }
        _ = try? trash.repair(directory)
    }

    /// Moves a duplicate's files to the Trash (`duplicates = "trash"`, moving imports only: a copying
    /// import never touches the drop folder), once its primary and its partners are each checked byte
    /// for byte against the library's file (a content hash says "probably", the bytes say "the
    /// same"); a group that is not the same after all, or that cannot be trashed, stays and is
    /// reported.
    private func trash(_ duplicate: Duplicate, into report: inout Report) {
        do {
            for (path, existing) in [(duplicate.path, duplicate.existing)] + duplicate.partners.sorted(by: <) {
                guard try FileOperations.sameContent(path, existing) else {
                    report.untrashed.append(LeftFile(path: path, reason: "not the same bytes as \(existing): left"))
                    return
                }
            }
            for (path, result) in zip(duplicate.files, try library.configuration.trash.trash(duplicate.files)) {
                switch result {
                case .success(let entry): report.trashed.append((path, entry.filePath))
                case .failure(let error): report.untrashed.append(LeftFile(path: path, reason: "\(error)"))
                }
            }
        } catch {
            report.untrashed.append(LeftFile(path: duplicate.path, reason: "\(error)"))
        }
    }

    /// Steps 1 to 5 for a batch of groups: one transaction journals them all, each directory is
    /// synced once, one scan takes every file placed (its transactions a few hundred files each),
    /// and the originals' directories are synced once each.
    private func place(
        _ groups: [ImportGroupPlan], metadata: [String: FileMetadata], hashes: [String: String],
        into report: inout Report
    ) throws {
        guard let staged = try stage(groups, into: &report) else { return }
        try land(staged, metadata: metadata, hashes: hashes, into: &report)
    }

    /// A batch placed (steps 1 and 2), its journal entries held as this run's, for ``land``.
    struct Staged: Sendable {
        /// The batch's journal entries, held from ``stage`` to the end of ``land``.
        var ids: [Int64]
        /// The groups placed whole, each with its entries.
        var placed: [(group: ImportGroupPlan, entries: ArraySlice<FileJournalEntry>)]
    }

    /// Steps 1 and 2 for a batch: its entries journaled, each group placed whole or taken back
    /// whole. Nil when nothing of it was placed (its entries finished).
    private func stage(_ groups: [ImportGroupPlan], into report: inout Report) throws -> Staged? {
        let journal = library.fileJournal
        // 1. Every file of the batch, journaled; a group whose file went meanwhile is left out.
        var planned: [(group: ImportGroupPlan, count: Int)] = []
        var entries: [FileJournalEntry] = []
        for group in groups {
            var files: [FileJournalEntry] = []
            for move in group.moves {
                guard let identity = try FileOperations.identity(move.source), identity.isRegularFile else { break }
                files.append(
                    FileJournalEntry(
                        operation: .importFile, destination: move.destination, source: move.source,
                        removeSource: definition.mode == .move, device: identity.device, inode: identity.inode,
                        fileSize: identity.size, modificationTime: identity.modificationTime,
                        owner: FileOperations.processID))
            }
            guard files.count == group.moves.count else {
                report.failed.append(LeftFile(path: group.moves[0].source, reason: "a file of it is gone: left"))
                continue
            }
            planned.append((group, files.count))
            entries += files
        }
        guard !entries.isEmpty else { return nil }
        entries = try library.database.journalAhead(entries)
        let ids = entries.compactMap(\.id)
        journal.begin(ids)
        var handedOver = false
        defer { if !handedOver { journal.end(ids) } }
        try FaultInjection.reach(.importJournaled, in: journal.importDirectory)

        // 2. Each group placed whole, or taken back whole (the originals are untouched either way).
        // A file bound for another file system or mount is copied under a temporary name; the
        // batch's copies are synced together, then each is checked and renamed into place.
        var placed: [(group: ImportGroupPlan, entries: ArraySlice<FileJournalEntry>)] = []
        var copying: [(group: ImportGroupPlan, entries: ArraySlice<FileJournalEntry>, copies: Set<Int64>)] = []
        var offset = 0
        // Each folder made, and its device read, once a batch (most groups share their day's folder).
        var folderDevices: [String: Int64] = [:]
        for (group, count) in planned {
            let files = entries[offset..<(offset + count)]
            offset += count
            var linked: [FileJournalEntry] = []
            var copies: [FileJournalEntry] = []
            do {
                if folderDevices[group.folder] == nil {
                    try Self.makeFolders(group.folder, under: definition.to)
                    if let folder = try FileOperations.identity(group.folder, followingLinks: true) {
                        folderDevices[group.folder] = folder.device
                    }
                }
                for entry in files {
                    if try journal.linkImportedFile(
                        entry, link: definition.mode == .move, folderDevice: folderDevices[group.folder])
                    {
                        linked.append(entry)
                    } else {
                        try journal.copyImportedFileUnsynced(entry)
                        copies.append(entry)
                    }
                }
                if copies.isEmpty {
                    placed.append((group, files))
                } else {
                    copying.append((group, files, Set(copies.compactMap(\.id))))
                }
            } catch let error where !error.isSimulatedCrash {
                for entry in linked { try? journal.takeBackImportedFile(entry, at: entry.destination) }
                for entry in copies { try? journal.removeTemporaryCopy(for: entry) }
                try library.database.finishJournalEntries(files.compactMap(\.id))
                report.failed.append(LeftFile(path: group.moves[0].source, reason: "\(error)"))
            }
        }
        if !copying.isEmpty {
            // One wait for the disk per file system, not one per file.
            var synced = Set<Int64>()
            for (group, _, _) in copying where synced.insert(folderDevices[group.folder] ?? -1).inserted {
                try FileOperations.syncFileSystem(containing: group.folder)
            }
            for (group, files, copies) in copying {
                var renamed = Set<Int64>()
                do {
                    for entry in files where copies.contains(entry.id ?? -1) {
                        try journal.placeImportedCopy(entry)
                        renamed.insert(entry.id ?? -1)
                    }
                    placed.append((group, files))
                } catch let error where !error.isSimulatedCrash {
                    for entry in files {
                        if copies.contains(entry.id ?? -1), !renamed.contains(entry.id ?? -1) {
                            try? journal.removeTemporaryCopy(for: entry)
                        } else {
                            try? journal.takeBackImportedFile(entry, at: entry.destination)
                        }
                    }
                    try library.database.finishJournalEntries(files.compactMap(\.id))
                    report.failed.append(LeftFile(path: group.moves[0].source, reason: "\(error)"))
                }
            }
        }
        guard !placed.isEmpty else { return nil }
        // The new names durable before the library takes them (step 3).
        for folder in Set(placed.map(\.group.folder)).sorted() { try FileOperations.sync(folder, directory: true) }
        handedOver = true
        return Staged(ids: ids, placed: placed)
    }

    /// Steps 3 to 5 for a batch ``stage`` placed (``scan(_:metadata:into:)``, then
    /// ``finish(_:hashes:into:)``); then the entries are no longer this run's.
    private func land(
        _ staged: Staged, metadata: [String: FileMetadata], hashes: [String: String], into report: inout Report
    ) throws {
        defer { library.fileJournal.end(staged.ids) }
        if try scan(staged, metadata: metadata, into: &report) { try finish(staged, hashes: hashes, into: &report) }
    }

    /// Step 3 for a batch ``stage`` placed and synced: one scan takes its files into the library, its
    /// changes saying where each asset came from. False when the library could not take them: the
    /// files are taken back (they stay only in the drop folder, for a later run) and the entries
    /// finished.
    private func scan(_ staged: Staged, metadata: [String: FileMetadata], into report: inout Report) throws -> Bool {
        let journal = library.fileJournal
        let placed = staged.placed
        let kept = placed.flatMap(\.entries)
        let scanner = FolderScanner(
            database: library.database, timeZone: timeZone, quietTime: 0,
            origins: Dictionary(kept.compactMap { entry in entry.source.map { (entry.destination, $0) } }) { $1 },
            known: Dictionary(
                kept.compactMap { entry in entry.source.flatMap { metadata[$0] }.map { (entry.destination, $0) } }
            ) { $1 })
        do {
            report.assets += try scanner.scan(root: definition.to, files: Set(kept.map(\.destination))).ingested
        } catch let error where !error.isSimulatedCrash {
            // A full disk, a lock held too long.
            for entry in kept { try? journal.takeBackImportedFile(entry, at: entry.destination) }
            try library.database.finishJournalEntries(kept.compactMap(\.id))
            report.failed += placed.map { LeftFile(path: $0.group.moves[0].source, reason: "\(error)") }
            return false
        }
        try FaultInjection.reach(.importScanned, in: journal.importDirectory)
        return true
    }

    /// Steps 4 and 5 for a batch the library took: the originals removed (a move) or the content
    /// remembered (a copy), the entries finished.
    private func finish(_ staged: Staged, hashes: [String: String], into report: inout Report) throws {
        let journal = library.fileJournal
        let placed = staged.placed
        let kept = placed.flatMap(\.entries)

        // 4. The originals removed (a move), their folders synced once each; or what was copied remembered.
        var sourceFolders = Set<String>()
        for entry in kept {
            guard let source = entry.source else { continue }
            switch try journal.finishImportedFile(entry, placedByThisRun: true) {
            case .removed: sourceFolders.insert(PathName.directory(of: source))
            case .kept(let reason): report.keptOriginals.append(LeftFile(path: source, reason: reason))
            case .left: break
            }
        }
        for folder in sourceFolders.sorted() { try FileOperations.sync(folder, directory: true) }
        if definition.mode == .copy {
            // Each group's photo or video, by the hash planning computed (the copy was checked
            // byte for byte against it), all in one transaction.
            let taken = placed.compactMap { group -> ImportedContent? in
                guard let entry = group.entries.first, let source = entry.source,
                    let hash = hashes[source] ?? ContentHash.of(path: entry.destination)
                else { return nil }
                return ImportedContent(
                    hash: hash, size: entry.fileSize ?? 0, source: source, destination: entry.destination)
            }
            try library.database.noteImportedContent(taken)
        }
        // 5. Done.
        try library.database.finishJournalEntries(kept.compactMap(\.id))
        report.placed += kept.compactMap { entry in entry.source.map { ($0, entry.destination) } }
    }

    /// Makes `folder` and the folders between it and `root` (which exists), as the user's umask says.
    static func makeFolders(_ folder: String, under root: String) throws {
        guard folder.hasPrefix(root + "/") else { return }
        var path = root
        for component in folder.dropFirst(root.count + 1).split(separator: "/") {
            path += "/" + component
            _ = try FileOperations.makeDirectory(path, mode: 0o777)
        }
    }
}

/// The groups planning hands to placing, from the planning thread to the placing one
/// (``FolderImport/importFiles(_:quiet:progress:)``).
private final class PlanHandoff: Sendable {
    private struct State {
        var batches: [FolderImport.PlannedBatch] = []
        var result: Result<FolderImport.Plan, any Error>?
        var cancelled = false
    }

    private let state = Mutex(State())
    /// Signalled at each batch and at the end.
    private let signal = DispatchSemaphore(value: 0)

    /// Gives placing a batch; throws once placing has stopped (planning stops then too).
    func put(_ batch: FolderImport.PlannedBatch) throws {
        try state.withLock { state in
            if state.cancelled { throw CancellationError() }
            state.batches.append(batch)
        }
        signal.signal()
    }

    /// Planning is over: its plan, or why it stopped.
    func finish(_ result: Result<FolderImport.Plan, any Error>) {
        state.withLock { $0.result = result }
        signal.signal()
    }

    /// Placing stopped: planning stops at its next batch.
    func cancel() { state.withLock { $0.cancelled = true } }

    /// The next batch, waiting for planning; nil once planning is over and every batch was taken.
    func take() -> FolderImport.PlannedBatch? {
        while true {
            let next: FolderImport.PlannedBatch?? = state.withLock { state in
                if !state.batches.isEmpty { return state.batches.removeFirst() }
                return state.result == nil ? .some(nil) : .none
            }
            switch next {
            case .some(.some(let batch)): return batch
            case .none: return nil
            case .some(.none): signal.wait()
            }
        }
    }

    /// The plan, once ``take()`` returned nil; throws what stopped planning.
    func planned() throws -> FolderImport.Plan {
        try state.withLock { $0.result! }.get()
    }
}

/// One batch's scan into the library (step 3) on a thread of its own, while the next batch is
/// placed: its report and whether the library took the batch, or what stopped it, once it is over.
private final class Landing: Sendable {
    /// How many groups the batch had.
    let count: Int
    /// The batch, as ``FolderImport/stage`` placed it, for its finish once the scan is over.
    let staged: FolderImport.Staged
    /// The batch's content hashes from planning, for its finish.
    let hashes: [String: String]
    private let outcome: Outcome
    private let thread: SystemThread

    private final class Outcome: Sendable {
        let value = Mutex<Result<(FolderImport.Report, Bool), any Error>?>(nil)
    }

    init(
        count: Int, staged: FolderImport.Staged, hashes: [String: String],
        _ body: @escaping @Sendable () throws -> (FolderImport.Report, Bool)
    ) throws {
        (self.count, self.staged, self.hashes) = (count, staged, hashes)
        let outcome = Outcome()
        self.outcome = outcome
        thread = try SystemThread(name: "photos-import-2") { outcome.value.withLock { $0 = Result { try body() } } }
    }

    /// Waits for the scan and returns its report and whether the library took the batch, or throws
    /// what stopped it.
    func result() throws -> (FolderImport.Report, taken: Bool) {
        thread.join()
        return try outcome.value.withLock { $0! }.get()
    }
}

/// A file by device and inode: the same file whatever name or mount reaches it.
private struct FileKey: Hashable {
    var device: Int64
    var inode: Int64
}
