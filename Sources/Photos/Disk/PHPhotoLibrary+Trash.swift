import Foundation
import PhotosCore
import PhotosLinux
import PhotosStore
import PhotosWire

/// Deleting assets whose files are under roots with `write = "files"`: their files go to the Trash
/// of their file system and the asset waits in "Recently Deleted" (``PhotosStore/TrashedAsset``)
/// until it is restored or erased.
extension PHPhotoLibrary {
    /// An asset to delete, with its files, as ``trashPlan(_:)`` plans it.
    struct TrashPlanItem {
        var assetId: Int64
        var identifier: String
        var files: [ResourceRecord]
    }

    /// The files a deletion of these assets moves to the Trash, asset after asset: each asset's files
    /// that the library did not place (the photo, a Live Photo's movie, a RAW+JPEG partner) and their
    /// sidecars, each checked now: its root allows `files`, the disk lets it be written, and a trash
    /// exists on its file system (never a copy to another). A file already gone from disk has nothing
    /// to move (its root must still allow `files`). Each directory is checked, and its trash found,
    /// once for the whole plan.
    func trashPlan(_ assets: [TrashPlanItem]) throws -> [TrashedFile] {
        struct Present {
            var assetId: Int64
            var identifier: String
            var path: String
            var identity: FileIdentity
        }
        var present: [Present] = []
        var restrictions: [String: String?] = [:]
        for asset in assets {
            var paths: [String] = []
            var recorded: [String: ResourceRecord] = [:]
            for resource in asset.files where !resource.isLibraryOwned && !paths.contains(resource.path) {
                paths.append(resource.path)
                recorded[resource.path] = resource
            }
            paths += Self.sidecars(of: paths)
            for path in paths {
                let name = PathName.name(of: path)
                guard let identity = try FileOperations.identity(path) else {
                    // Already gone from disk (its directory too, maybe): nothing to move, but the root must
                    // still allow deleting files.
                    if writePolicy(at: path) != .files {
                        try requireWrite(.files, at: path, for: "delete \(name)", localIdentifiers: [asset.identifier])
                    }
                    continue
                }
                try requireWrite(
                    .files, at: path, for: "delete \(name)", localIdentifiers: [asset.identifier],
                    restrictions: &restrictions)
                if let resource = recorded[path] {
                    try Self.requireRecordedFile(resource, identity, for: "delete \(name)", asset.identifier)
                }
                present.append(
                    Present(assetId: asset.assetId, identifier: asset.identifier, path: path, identity: identity))
            }
        }
        let directories = configuration.trash.directories(for: present.map(\.path))
        return try zip(present, directories).map { file, found in
            let directory: TrashDirectory
            do {
                directory = try found.get()
            } catch {
                let reason = (error as? TrashError)?.message ?? "\(error)"
                throw PHPhotosError(
                    .accessRestricted,
                    "cannot delete \(PathName.name(of: file.path)): \(file.path) has no Trash on its file system, and "
                        + "the library never copies a photo to another (\(reason))",
                    localIdentifiers: [file.identifier])
            }
            return TrashedFile(
                assetId: file.assetId, path: file.path, device: file.identity.device, inode: file.identity.inode,
                trashDirectory: directory.path, trashKind: directory.kind.rawValue, trashTop: directory.topDirectory)
        }
    }

    /// Throws `invalidResource` unless `identity`, the file at `resource`'s path now, is the file the
    /// library read there: the same device and inode, or (on a file system whose inode numbers do
    /// not last from one mount to the next, as FAT's) the same size and modification time. A file
    /// another program saved over it since, which no scan has read, is never deleted or moved as
    /// the asset's.
    static func requireRecordedFile(
        _ resource: ResourceRecord, _ identity: FileIdentity, for what: String, _ identifier: String
    ) throws {
        guard let device = resource.device, let inode = resource.inode else { return }
        if identity.device == device && identity.inode == inode { return }
        if identity.size == resource.fileSize, let time = resource.modificationTime,
            abs(time - identity.modificationTime) < 0.000_001
        {
            return
        }
        throw PHPhotosError(
            .invalidResource,
            "cannot \(what): \(resource.path) is not the file the library read there (another was saved over it "
                + "since); a scan reads it first", localIdentifiers: [identifier])
    }

    /// Whether a deletion may take the file at `path` now, as ``trashPlan(_:)``
    /// checks it (a trash on its file system aside, which is made when first needed): its root allows
    /// `files` and, when it is still there, its directory can be written.
    func mayDelete(_ path: String) -> Bool {
        (try? FileOperations.identity(path)) == nil ? writePolicy(at: path) == .files : mayWrite(.files, at: path)
    }

    /// The sidecars beside `files` that belong to them alone: `IMG_1.JPG.xmp` of `IMG_1.JPG`, and
    /// `IMG_1.xmp` when every other file of the stem `IMG_1` is among `files` too (a sidecar another
    /// file may own stays).
    static func sidecars(of files: [String]) -> [String] {
        var found: [String] = []
        let byDirectory = Dictionary(grouping: files) { PathName.directory(of: $0) }
        for (directory, paths) in byDirectory.sorted(by: { $0.key < $1.key }) {
            guard let listing = DirectoryListings.shared.listing(of: directory) else { continue }
            let names = Set(paths.map { PathName.name(of: $0) })
            // Only sidecars named after one of the files, or after the stem of one, can be theirs.
            var candidates = Set<String>()
            for name in names {
                candidates.formUnion(listing.sidecarsByBase[name.lowercased()] ?? [])
                candidates.formUnion(listing.sidecarsByBase[PairingName.of(name)] ?? [])
            }
            for sidecar in candidates.sorted() {
                let base = String(sidecar.dropLast(4))
                let belongs: Bool
                if names.contains(base) {
                    belongs = true
                } else {
                    let sharers = listing.mediaByStem[base.lowercased()] ?? []
                    belongs = !sharers.isEmpty && sharers.allSatisfy(names.contains)
                }
                // Only a regular file is a sidecar: a directory or a link of that name is not the
                // photo's, and never moves or goes to the Trash with it.
                let path = directory + "/" + sidecar
                if belongs, (try? FileOperations.identity(path))??.isRegularFile == true { found.append(path) }
            }
        }
        return found
    }

    /// Whether a trashed file is a sidecar ``sidecars(of:)`` took along with its photo (`.xmp`):
    /// one an asset can come back without.
    static func isSidecar(_ path: String) -> Bool { path.lowercased().hasSuffix(".xmp") }

    // MARK: Recently Deleted

    /// The assets in "Recently Deleted", oldest deletion first, with their files.
    package func trashedAssets() throws -> [TrashedAsset] {
        do { return try database.trashedAssets() } catch { throw Self.photosError(error) }
    }

    /// Recently Deleted as `photos trash list --json` and `GET /v1/trash` describe it, the latest
    /// deletion first (the smart album's order).
    package func recentlyDeletedDescriptions() throws -> [API.TrashedAsset] {
        try trashedAssets().reversed().map(API.TrashedAsset.init)
    }

    /// Where a trashed file is in its trash, when it is there (nil: not moved yet, or taken out of the
    /// trash by another tool). Reads its `.trashinfo` alone, not the whole trash: a restore or an
    /// erase of thousands looks each up.
    package func trashEntry(of file: TrashedFile) throws -> TrashEntry? {
        guard let name = file.trashName else { return nil }
        let directory = TrashDirectory(
            path: file.trashDirectory, kind: TrashDirectory.Kind(rawValue: file.trashKind) ?? .user,
            topDirectory: file.trashTop)
        return try configuration.trash.entry(named: name, in: directory)
    }

    /// Where a trashed file is now, as restoring it finds it.
    enum TrashedFileState {
        /// In the Trash, as the library put it there: moved back by a restore.
        case inTrash(TrashEntry)
        /// At its path again, the same file (another tool restored it): left where it is.
        case back
        /// Neither: the Trash was emptied, or the entry of its name or the file at its path is
        /// another file.
        case gone
    }

    /// Where `file` is now: its trash entry only while that is still the file the library put
    /// there (its `Path=`, device and inode: an inode number is given again to the next file made
    /// once the Trash is emptied), as at its path (there its size too, when `size` is known: the
    /// file at the path may be a new one that was given the inode); never another tool's file.
    func state(of file: TrashedFile, size: Int64? = nil) throws -> TrashedFileState {
        func isTheFile(_ identity: FileIdentity?) -> Bool {
            identity?.device == file.device && identity?.inode == file.inode
        }
        if let entry = try trashEntry(of: file), entry.originalPath == file.path, isTheFile(entry.file) {
            return .inTrash(entry)
        }
        let there = try FileOperations.identity(file.path)
        return isTheFile(there) && (size == nil || there?.size == size) ? .back : .gone
    }

    /// What ``restoreFromTrash(_:dryRun:)`` did, asset by asset: what `photos trash restore` prints
    /// and `POST /v1/trash/restore` answers, a failure among them or not.
    package struct TrashRestore: Sendable {
        /// An asset whose file could not go back: it stays in Recently Deleted.
        package struct Failure: Sendable {
            /// The asset's local identifier.
            package var localIdentifier: String
            /// The file that could not go back, where it was to go.
            package var path: String
            /// Where that file is in the Trash.
            package var trashPath: String?
            /// Why (`accessRestricted` naming the file and the reason).
            package var error: PHPhotosError
        }

        /// The assets brought back (with `dryRun`, that would be), in order, with their files' paths.
        package var restored: [(String, [String])] = []
        /// The identifiers named that are not in Recently Deleted because they are in the library:
        /// restored already (a restore that stopped and was finished, another tool's, the scan's).
        package var alreadyRestored: [String] = []
        /// The assets that could not come back, in order.
        package var failures: [Failure] = []
    }

    /// Brings trashed assets back, as ``restoreFromTrash(_:dryRun:)`` does, and returns the restored
    /// files' paths by identifier; throws the first failure, once the other assets are restored.
    @discardableResult
    package func restoreTrashedAssets(_ identifiers: [String], dryRun: Bool = false) throws -> [(String, [String])] {
        let done = try restoreFromTrash(identifiers, dryRun: dryRun)
        if let failure = done.failures.first { throw failure.error }
        return done.restored
    }

    /// Brings trashed assets back: each file is moved from the Trash to where it was (never over
    /// another file), then the asset returns with its identifier, properties and albums. A file that
    /// is back already (restored by another tool) is left where it is. Returns the restored files'
    /// paths by identifier; with `dryRun`, what would be restored, and nothing moves. An identifier
    /// of an asset in the library (restored already: the same restore run again once what stopped
    /// it is fixed) is returned as such, and nothing is done for it.
    ///
    /// Fails, before any file of any of the assets moves, with `identifierNotFound` for an
    /// identifier that is neither in "Recently Deleted" nor in the library; with `accessRestricted`
    /// naming the file when one cannot go back (its path taken by another file, a sidecar's too);
    /// and with `missingResource` for an asset whose photo or movie is gone (the Trash emptied by
    /// another tool, or the file already gone from its path when the asset was deleted, and not
    /// back): only its sidecars may be missing. A file taking a path between the check and the move
    /// (a race) fails that asset alone (``TrashRestore/failures``), which stays trashed with its
    /// files restored so far where they are; the others come back. A file of the Trash or at the
    /// path that is not the one the library deleted (device, inode) is never taken for it.
    package func restoreFromTrash(_ identifiers: [String], dryRun: Bool = false) throws -> TrashRestore {
        var report = TrashRestore()
        let trashed: [TrashedAsset]
        do {
            trashed = try database.trashedAssets(localIdentifiers: identifiers)
            let known = Set(trashed.map(\.localIdentifier))
            var seen = Set<String>()
            let missing = identifiers.filter { !known.contains($0) && seen.insert($0).inserted }
            let inLibrary = missing.isEmpty ? [:] : try database.assetIDs(forLocalIdentifiers: missing)
            let unknown = missing.filter { inLibrary[$0] == nil }
            guard unknown.isEmpty else {
                throw PHPhotosError(
                    .identifierNotFound, "\(unknown[0]) is neither in Recently Deleted nor in the library",
                    localIdentifiers: unknown)
            }
            report.alreadyRestored = missing
        } catch {
            throw Self.photosError(error)
        }
        for asset in trashed { try requireOwnTrash(asset, "restore") }
        // Every asset's files found before any moves: one that cannot come back fails them all.
        var found: [[TrashedFileState]] = []
        // The paths files of the assets before go back to: two trashed files of one path (a photo
        // deleted, another saved under its name and deleted too) cannot both come back.
        var destinations = Set<String>()
        for asset in trashed {
            let kept: [ResourceRecord]
            do {
                kept = try database.keptResources(ofTrashedAsset: asset.assetId)
            } catch {
                throw Self.photosError(error)
            }
            let sizes = Dictionary(kept.map { ($0.path, $0.fileSize) }) { first, _ in first }
            let states = try asset.files.map { try state(of: $0, size: sizes[$0.path]) }
            for (file, state) in zip(asset.files, states) {
                switch state {
                case .gone where !Self.isSidecar(file.path):
                    throw PHPhotosError(
                        .missingResource,
                        "cannot restore \(file.path): it is no longer in the Trash (emptied, or its entry taken by "
                            + "another file) nor back at its path; `photos trash empty` forgets the asset",
                        localIdentifiers: [asset.localIdentifier])
                case .inTrash(let entry):
                    // Refused before anything moves, for every asset: never half a restore.
                    if try FileOperations.identity(file.path) != nil || !destinations.insert(file.path).inserted {
                        throw PHPhotosError(
                            .accessRestricted,
                            "cannot restore \(file.path) from \(entry.filePath): a file is already there, or another "
                                + "of the assets restored goes there (it is not replaced)",
                            localIdentifiers: [asset.localIdentifier])
                    }
                default: break
                }
            }
            // A photo or movie that was already gone from its path when the asset was deleted (moved
            // away by another program, not yet seen) never went to the Trash: the asset comes back
            // only if its file is back at its path, never as an asset without its file.
            let trashedPaths = Set(asset.files.map(\.path))
            for resource in kept where !resource.isLibraryOwned && !trashedPaths.contains(resource.path) {
                // Back only when it is the file the library read (device and inode, or size and
                // time where inodes do not last), never another file saved under its name.
                if let there = try FileOperations.identity(resource.path),
                    (try? Self.requireRecordedFile(resource, there, for: "restore", asset.localIdentifier)) != nil
                {
                    continue
                }
                throw PHPhotosError(
                    .missingResource,
                    "cannot restore \(resource.path): it was gone from its path when the asset was deleted, so it "
                        + "is not in the Trash, and it is not back (another file there is not taken for it); "
                        + "`photos trash empty` forgets the asset",
                    localIdentifiers: [asset.localIdentifier])
            }
            found.append(states)
        }
        let paths = zip(trashed, found).map { asset, states in
            zip(asset.files, states).compactMap { file, state -> String? in
                switch state {
                case .inTrash, .back: file.path
                case .gone: nil
                }
            }
        }
        if dryRun {
            report.restored = zip(trashed, paths).map { ($0.localIdentifier, $1) }
            return report
        }
        // Every file to move is journaled (one transaction) before any moves, then each asset's files
        // come back and the asset with them: a process stopped halfway is finished at the next open.
        let me = FileOperations.processID
        let entries = zip(trashed, found).flatMap { asset, states in
            zip(asset.files, states).compactMap { file, state -> FileJournalEntry? in
                guard case .inTrash(let entry) = state else { return nil }
                return FileJournalEntry(
                    operation: .restore, destination: file.path, source: entry.filePath, device: file.device,
                    inode: file.inode, owner: me, assetId: asset.assetId)
            }
        }
        var journaled: ArraySlice<FileJournalEntry>
        do {
            journaled = try database.journalAhead(entries)[...]
        } catch {
            throw Self.photosError(error)
        }
        let ids = journaled.compactMap(\.id)
        fileJournal.begin(ids)
        defer { fileJournal.end(ids) }
        /// A stop once the restore is journaled is finished at the next open, and says so.
        func interrupted(_ error: any Error) -> PHPhotosError {
            guard error.isSimulatedCrash else { return Self.photosError(error) }
            return PHPhotosError(
                .operationInterrupted,
                "the restore stopped; it is journaled and finished the next time the library is opened: \(error)")
        }
        do {
            try FaultInjection.reach(.restoreJournaled, in: fileJournal.importDirectory)
        } catch {
            throw interrupted(error)
        }
        for (asset, paths) in zip(trashed, paths) {
            let entries = Array(journaled.prefix { $0.assetId == asset.assetId })
            journaled.removeFirst(entries.count)
            let failures: [(entry: FileJournalEntry, error: any Error)]
            do {
                failures = try fileJournal.restoreAsset(entries, assetId: asset.assetId)
            } catch {
                throw interrupted(error)
            }
            // A file taking a path since the check (a race) keeps its asset in Recently Deleted, the
            // files moved back so far where they are; a sidecar alone does not, and stays in the
            // Trash. The other assets come back all the same (each journaled, and finished, apart):
            // the restore says which, and a rerun once the path is free brings this one.
            let keptAway = failures.first { !Self.isSidecar($0.entry.destination) }
            if let failure = keptAway ?? failures.first {
                let reason = (failure.error as? TrashError)?.message ?? "\(failure.error)"
                let source = failure.entry.source ?? "the Trash"
                let sidecarOnly = " (the asset is back without this sidecar, which stays in the Trash)"
                let error = PHPhotosError(
                    .accessRestricted,
                    "cannot restore \(failure.entry.destination) from \(source): \(reason)"
                        + (keptAway == nil ? sidecarOnly : ""),
                    localIdentifiers: [asset.localIdentifier])
                report.failures.append(
                    TrashRestore.Failure(
                        localIdentifier: asset.localIdentifier, path: failure.entry.destination,
                        trashPath: failure.entry.source, error: error))
            }
            guard keptAway == nil else { continue }
            let left = Set(failures.map(\.entry.destination))
            report.restored.append((asset.localIdentifier, paths.filter { !left.contains($0) }))
        }
        return report
    }

    /// Erases trashed assets for good: their files are erased from the Trash (only entries that are
    /// still the files the library put there), then the assets are forgotten and the files the library
    /// placed for them (edits) removed. Returns the erased files' trash paths by identifier; with
    /// `dryRun`, what would be erased, and nothing is. An asset whose photo or movie is back at its
    /// path is neither erased nor returned: it is on disk, and comes back.
    @discardableResult
    package func eraseTrashedAssets(_ assets: [TrashedAsset], dryRun: Bool = false) throws -> [(String, [String])] {
        for asset in assets { try requireOwnTrash(asset, "erase") }
        var erased: [(String, [String])] = []
        for asset in assets {
            // A photo or movie back at its path (a restore that stopped halfway, a file manager's) is
            // on disk, not in the Trash: forgetting its asset would make it a new one at the next
            // scan, without its identifier, favorites and albums. It is kept for the scan, or
            // `photos trash restore`, to bring back.
            if try asset.files.contains(where: { file in
                guard !Self.isSidecar(file.path), case .back = try state(of: file) else { return false }
                return true
            }) {
                continue
            }
            var paths: [String] = []
            for file in asset.files {
                guard case .inTrash(let entry) = try state(of: file) else {
                    // Taken out of the Trash by hand: the library's `.trashinfo` left there describes
                    // nothing now, and goes with the asset (another tool's stays).
                    if !dryRun, let entry = try trashEntry(of: file), entry.isOrphan, entry.originalPath == file.path {
                        try configuration.trash.finishRestore(of: entry.filePath)
                    }
                    continue
                }
                paths.append(entry.filePath)
                if !dryRun { try configuration.trash.erase(entry) }
            }
            if !dryRun {
                do {
                    let owesFileWork = try database.write { transaction in
                        try transaction.eraseTrashedAsset(asset.assetId)
                        return transaction.owesFileWork
                    }.value
                    if owesFileWork { try fileJournal.finishUnowned() }
                } catch {
                    throw Self.photosError(error)
                }
            }
            erased.append((asset.localIdentifier, paths))
        }
        return erased
    }

    /// Refuses, with `accessRestricted` naming the host, a trashed asset whose files are in another
    /// host's Trash (a library several hosts share): that host alone restores or erases them.
    private func requireOwnTrash(_ asset: TrashedAsset, _ what: String) throws {
        guard let host = asset.host else { return }
        throw PHPhotosError(
            .accessRestricted,
            "cannot \(what) \(asset.localIdentifier): its files are in host \(host)'s Trash; \(what) it through "
                + "photosd on \(host)",
            localIdentifiers: [asset.localIdentifier])
    }

    /// The trashed assets whose files are in this host's Trash: what emptying the Trash erases.
    package func trashedAssetsHere() throws -> [TrashedAsset] {
        try trashedAssets().filter { $0.host == nil }
    }

    /// The trashed assets with these identifiers; `identifierNotFound` names any that is not trashed.
    package func trashedAssets(localIdentifiers identifiers: [String]) throws -> [TrashedAsset] {
        let found: [TrashedAsset]
        do { found = try database.trashedAssets(localIdentifiers: identifiers) } catch { throw Self.photosError(error) }
        let known = Set(found.map(\.localIdentifier))
        let missing = identifiers.filter { !known.contains($0) }
        guard missing.isEmpty else {
            throw PHPhotosError(
                .identifierNotFound, "\(missing[0]) is not in Recently Deleted", localIdentifiers: missing)
        }
        return found
    }

    /// The trashed assets deleted more than ``Configuration/trashDays`` days ago.
    package func expiredTrashedAssets(now: Date = Date()) throws -> [TrashedAsset] {
        let limit = now.timeIntervalSince1970 - Double(configuration.trashDays) * 86_400
        do { return try database.trashedAssets(deletedBefore: limit) } catch { throw Self.photosError(error) }
    }

    /// What opening a library file does after the store is open, for a process that opened the store
    /// itself (photosd, ``init(database:configuration:)``): finishes the file work stopped processes
    /// left in the journal (a deletion's files still to trash among them), then erases the assets
    /// deleted more than ``Configuration/trashDays`` days ago.
    package func finishStoppedFileWork() throws {
        do {
            try fileJournal.recover()
        } catch {
            throw Self.photosError(error)
        }
        eraseExpiredTrash()
    }

    /// Finishes the file work that other processes of this host journaled and left when they stopped
    /// (a `photos rm` or `photos trash restore` killed halfway): what the next opening of the library
    /// would do, done by photosd while it runs. This process's own entries are left to it. A failure
    /// is logged and left for the next round. Returns how many journal entries were finished.
    @discardableResult
    package func finishOtherProcessesStoppedFileWork() -> Int {
        do {
            return try fileJournal.recover(onlyOtherProcesses: true)
        } catch {
            fileJournal.logger.warning(
                "cannot finish the file work a stopped process left", metadata: ["error": "\(error)"])
            return 0
        }
    }

    /// Erases the assets deleted more than ``Configuration/trashDays`` days ago, with their files in
    /// the Trash; a failure is logged and left for the next time (the next opening, or photosd's
    /// next round). Returns how many assets were erased (not those whose photo is back on disk,
    /// which are kept for the scan to bring back).
    @discardableResult
    package func eraseExpiredTrash(now: Date = Date()) -> Int {
        do {
            let expired = try expiredTrashedAssets(now: now)
            guard !expired.isEmpty else { return 0 }
            // Those whose photo is back on disk are kept for the scan to bring back: not counted.
            let erased = try eraseTrashedAssets(expired).count
            guard erased > 0 else { return 0 }
            configuration.logger.info(
                "erased the assets deleted more than \(configuration.trashDays) days ago",
                metadata: ["assets.count": "\(erased)"])
            return erased
        } catch {
            configuration.logger.warning(
                "cannot erase the assets deleted more than \(configuration.trashDays) days ago",
                metadata: ["error": "\(error)"])
            return 0
        }
    }

    // MARK: For the command line and the API

    /// What deleting these assets does to their files, checked as the deletion checks them (the same
    /// errors): for each identifier, the files that go to the Trash, or, for an asset the library
    /// placed, the files it removes (`trashes` false). Without `checkingFiles`, only which assets go
    /// to the Trash is told (their `files` empty): for a caller about to delete them, whose change
    /// makes the checks.
    package func deletionPlan(localIdentifiers identifiers: [String], checkingFiles: Bool = true) throws
        -> [(identifier: String, files: [String], trashes: Bool)]
    {
        do {
            let ids = try database.assetIDs(forLocalIdentifiers: identifiers)
            let missing = identifiers.filter { ids[$0] == nil }
            guard missing.isEmpty else {
                throw PHPhotosError(
                    .identifierNotFound, "cannot delete unknown asset \(missing[0])", localIdentifiers: missing)
            }
            let resources = try database.resources(assetIDs: Array(ids.values))
            var seen = Set<Int64>()
            let trashing = identifiers.compactMap { identifier -> TrashPlanItem? in
                let id = ids[identifier]!
                let own = resources[id] ?? []
                guard checkingFiles, !own.allSatisfy(\.isLibraryOwned), seen.insert(id).inserted else { return nil }
                return TrashPlanItem(assetId: id, identifier: identifier, files: own)
            }
            let trashed = Dictionary(grouping: try trashPlan(trashing), by: \.assetId)
            return identifiers.map { identifier in
                let id = ids[identifier]!
                let own = resources[id] ?? []
                if own.allSatisfy(\.isLibraryOwned) { return (identifier, own.map(\.path), false) }
                return (identifier, (trashed[id] ?? []).map(\.path), true)
            }
        } catch {
            throw Self.photosError(error)
        }
    }
}

extension API.TrashResult {
    /// What a restore did (``PHPhotoLibrary/restoreFromTrash(_:dryRun:)``) as `POST /v1/trash/restore`
    /// answers it and `photos trash restore` prints it, through photosd or not: the assets restored,
    /// the identifiers restored already, and the assets that could not come back, each with its error.
    package init(dryRun: Bool, restore: PHPhotoLibrary.TrashRestore) {
        self.init(dryRun: dryRun, handled: restore.restored)
        alreadyRestored = restore.alreadyRestored.isEmpty ? nil : restore.alreadyRestored
        failed =
            restore.failures.isEmpty
            ? nil
            : restore.failures.map { failure in
                Failure(
                    localIdentifier: failure.localIdentifier, path: failure.path, trashPath: failure.trashPath,
                    error: API.ErrorBody.Detail(
                        code: failure.error.code.rawValue, domain: PHPhotosError.errorDomain,
                        message: failure.error.message))
            }
    }
}
