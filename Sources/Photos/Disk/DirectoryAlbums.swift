import Foundation
import PhotosCore
import PhotosLinux
import PhotosStore

/// One file that adding an asset to a directory-backed album moves: the asset, and the file's path
/// before and after (as the library records them).
package struct AssetFileMove: Sendable, Hashable {
    /// The asset's local identifier.
    package var asset: String
    /// Where the file is.
    package var from: String
    /// Where it goes, in the album's directory.
    package var to: String
}

/// The assets of a directory-backed album are the files of its directory: under a root with
/// `write = "files"`, adding an asset to such an album moves its files into the directory (the
/// library's record moves in the change block's transaction, a `rename` entry of the file journal
/// per file moves it after the commit, never over anything), and deleting the album moves its
/// directory to the Trash, its assets to Recently Deleted.
extension ApplyContext {
    /// Moves the files of the assets `identifiers` into the directory of `album` (a directory-backed
    /// album): each asset keeps its identifier, its properties and its user albums, and leaves the
    /// album of the directory it was in (deleted, as the mirror would, when it is left with no
    /// photo). An asset already there is left alone.
    ///
    /// An asset created in this block is placed in the directory instead of the import folder. Files
    /// on another file system than the directory are copied there, and removed from where they were
    /// only once the copy is synced and verified (``FileJournal/moveAssetFile(_:)``).
    ///
    /// Fails with `accessRestricted` where a root's policy or the disk does not allow it, and with
    /// `changeNotSupported` for an asset whose files the library imported itself in an earlier block.
    func moveAssets(_ identifiers: [String], into album: CollectionRecord) throws {
        guard let albumPath = album.path, !album.isList else { return }
        let name = "album '\(album.title ?? "")'"
        let target = diskPath(of: albumPath)
        // A directory this block makes (a new album) is there once the block commits.
        let isNew = makesDirectory(albumPath)
        try library.requireWrite(
            .files, at: isNew ? target : target + "/.", for: "add photos to \(name)",
            localIdentifiers: [album.localIdentifier])
        guard let directory = try FileOperations.identity(isNew ? PathName.directory(of: target) : target),
            !directory.isRegularFile
        else {
            throw PHPhotosError(
                .identifierNotFound, "the directory of \(name) is no longer at \(target)",
                localIdentifiers: [album.localIdentifier])
        }
        let ids = try transaction.assetIDs(forLocalIdentifiers: identifiers)
        var seen = Set<String>()
        for identifier in identifiers where seen.insert(identifier).inserted {
            guard let id = ids[identifier] else {
                throw PHPhotosError(.identifierNotFound, "no asset \(identifier)", localIdentifiers: [identifier])
            }
            try moveAsset(id, identifier, into: albumPath, albumName: name)
        }
    }

    /// Moves one asset's files (its originals and their sidecars) into `albumPath`, as one group:
    /// their names, or all of them with the same suffix when one is taken.
    private func moveAsset(_ id: Int64, _ identifier: String, into albumPath: String, albumName: String) throws {
        let identifiers = [identifier]
        let resources = try transaction.resources(ofAsset: id)
        // Created in this block: its files are not in the import folder yet, and go to the directory instead.
        let created = resources.filter { resource in
            !(PHAssetResourceType(rawValue: resource.type).map { PHAssetResourceType.editTypes.contains($0) } ?? false)
        }
        if !created.isEmpty, created.allSatisfy({ $0.isLibraryOwned && placesFile(at: $0.path) }) {
            try placeCreatedAsset(id, identifier, created, into: albumPath)
            return
        }
        var originals: [String] = []
        for resource in resources where !resource.isLibraryOwned && !originals.contains(resource.path) {
            originals.append(resource.path)
        }
        guard !originals.isEmpty else {
            throw PHPhotosError(
                .changeNotSupported,
                "\(identifier) is a file the library imported into its own folder: only photos of watched "
                    + "directories move into a directory's album",
                localIdentifiers: identifiers)
        }
        if originals.allSatisfy({ PathName.directory(of: $0) == albumPath }) { return }
        if assetMoves.contains(where: { $0.asset == identifier }) {
            throw PHPhotosError(
                .changeNotSupported, "\(identifier) is already moved into an album's directory in this change block",
                localIdentifiers: identifiers)
        }
        // Its files as the library records them and where they are on disk now (a directory renamed
        // earlier in this block is renamed after the commit), with the sidecars that are theirs alone.
        var group = originals.map { (library: $0, disk: diskPath(of: $0)) }
        var libraryDirectories: [String: String] = [:]
        for file in group {
            libraryDirectories[PathName.directory(of: file.disk)] = PathName.directory(of: file.library)
        }
        for sidecar in PHPhotoLibrary.sidecars(of: group.map(\.disk)) {
            guard let directory = libraryDirectories[PathName.directory(of: sidecar)] else { continue }
            group.append((library: directory + "/" + PathName.name(of: sidecar), disk: sidecar))
        }
        var identities: [FileIdentity] = []
        for file in group {
            let fileName = PathName.name(of: file.disk)
            try library.requireWrite(
                .files, at: file.disk, for: "move \(fileName) into \(albumName)", localIdentifiers: identifiers)
            guard let identity = try FileOperations.identity(file.disk) else {
                throw PHPhotosError(
                    .identifierNotFound, "\(file.disk) of \(identifier) is no longer there",
                    localIdentifiers: identifiers)
            }
            if var resource = resources.first(where: { $0.path == file.library }) {
                resource.path = file.disk
                try PHPhotoLibrary.requireRecordedFile(
                    resource, identity, for: "move \(fileName) into \(albumName)", identifier)
            }
            identities.append(identity)
        }
        let names = try freeNames(for: group.map { PathName.name(of: $0.library) }, in: albumPath)
        for ((file, identity), newName) in zip(zip(group, identities), names) {
            let destination = albumPath + "/" + newName
            try transaction.moveAssetFile(ofAsset: id, from: file.library, to: destination)
            // The journal names the paths as the disk holds them when the entry runs: after the
            // renames journaled before it.
            journal(
                FileJournalEntry(
                    operation: .rename, destination: destination, source: file.library, device: identity.device,
                    inode: identity.inode, owner: FileOperations.processID, assetId: id))
            assetMoves.append(AssetFileMove(asset: identifier, from: file.library, to: destination))
        }
        try transaction.settleDirectoryAlbums(
            group.map { PathName.directory(of: $0.library) } + [albumPath], deletingEmpty: true,
            roots: library.roots.roots.map(\.path))
    }

    /// Places the originals `files` of the asset `id`, created in this block, in the directory `albumPath`
    /// instead of the import folder: under their names (a taken one gets the group's suffix), each
    /// placed as it would have been (the staged copy linked, or copied and verified onto another file
    /// system), and from then on files of the directory, not the library's own. Their name in the
    /// import folder, made for them, is left unused.
    private func placeCreatedAsset(
        _ id: Int64, _ identifier: String, _ files: [ResourceRecord], into albumPath: String
    ) throws {
        if assetMoves.contains(where: { $0.asset == identifier }) {
            throw PHPhotosError(
                .changeNotSupported, "\(identifier) is already placed in an album's directory in this change block",
                localIdentifiers: [identifier])
        }
        let names = try freeNames(for: files.map { PathName.name(of: $0.path) }, in: albumPath)
        var importDirectories = Set<String>()
        for (file, newName) in zip(files, names) {
            let destination = albumPath + "/" + newName
            for stored in try transaction.storedFiles(atPaths: [file.path]) where stored.assetID == id {
                try transaction.moveResource(stored, to: destination, name: file.originalFilename)
            }
            movePlacement(from: file.path, to: destination)
            assetMoves.append(AssetFileMove(asset: identifier, from: file.path, to: destination))
            importDirectories.insert(PathName.directory(of: file.path))
        }
        try transaction.handOverOriginals(ofAsset: id)
        try transaction.settleDirectoryAlbums([albumPath], deletingEmpty: false, roots: library.roots.roots.map(\.path))
        // The asset's folder in the import folder, made by this block, is not kept when nothing goes there.
        if try transaction.resources(ofAsset: id).allSatisfy({ !$0.isLibraryOwned }) {
            for directory in importDirectories { FileOperations.removeEmptyDirectory(directory) }
        }
    }

    /// The names a group of files (an asset's) takes in the directory `albumPath` (the library's
    /// path): their own, or each with the same suffix after its stem (`IMG_1 (2).JPG`,
    /// `IMG_1 (2).MOV`, `IMG_1 (2).JPG.xmp`) when any name there, on disk, in the library or moved
    /// there earlier in this block, is one of their stems or starts with it and a dot
    /// (``GroupNames``): a name is never taken over, and a file never pairs with another asset's
    /// (`IMG_1.JPG` beside someone's `IMG_1.CR2`).
    private func freeNames(for names: [String], in albumPath: String) throws -> [String] {
        var taken = Set<String>()
        let disk = diskPath(of: albumPath)
        var entries: [String] = []
        do {
            entries = try FileOperations.names(in: disk)
        } catch {
            // A directory this block makes holds nothing yet.
            if !makesDirectory(albumPath) {
                throw PHPhotosError(.accessRestricted, "cannot read the directory \(disk): \(error)")
            }
        }
        for entry in entries { taken.formUnion(GroupNames.prefixes(of: entry)) }
        for file in try transaction.storedFiles(inDirectory: albumPath) {
            taken.formUnion(GroupNames.prefixes(of: PathName.name(of: file.path)))
        }
        for move in assetMoves where PathName.directory(of: move.to) == albumPath {
            taken.formUnion(GroupNames.prefixes(of: PathName.name(of: move.to)))
        }
        if let free = GroupNames.free(GroupNames.split(names), besides: taken) { return free }
        throw PHPhotosError(.changeNotSupported, "no free name for \(names[0]) in \(disk)")
    }
}

extension ApplyContext {
    /// Makes the album `album`, created in this block, the album of a new directory in the directory
    /// of `folder` (a directory-backed folder): named as its title (a taken name gets a suffix,
    /// `Trip (2)`, which the title takes too), made by the file journal after the commit, and kept
    /// by the mirror while it exists, empty or not. Assets added to the album earlier in the block
    /// move into it as adding them to a directory's album moves them.
    func makeDirectory(for album: CollectionRecord, in folder: CollectionRecord) throws {
        guard let folderPath = folder.path else { return }
        let title = album.title ?? ""
        let identifiers = [album.localIdentifier]
        if let problem = DirectoryName.problem(with: title, ignoring: library.configuration.ignore) {
            throw PHPhotosError(
                .changeNotSupported, "'\(title)' cannot name a directory: \(problem)", localIdentifiers: identifiers)
        }
        let parent = diskPath(of: folderPath)
        try library.requireWrite(
            .files, at: parent + "/" + title, for: "create album '\(title)' in '\(folder.title ?? "")'",
            localIdentifiers: identifiers)
        let name = try freeName(title, in: folderPath, diskParent: parent)
        var record = album
        record.path = (folderPath == "/" ? "" : folderPath) + "/" + name
        record.madeDirectory = true
        let retitled = record.title != name
        record.title = name
        try transaction.updateCollection(record, properties: retitled ? ["localizedTitle"] : [])
        journal(FileJournalEntry(operation: .mkdir, destination: record.path!, owner: FileOperations.processID))
        let members = try transaction.members(ofCollection: record.id!)
        guard !members.isEmpty else { return }
        let assets = try transaction.assets(ids: members)
        try moveAssets(members.compactMap { assets[$0]?.localIdentifier }, into: record)
    }

    /// Whether this block makes the directory `path` (the library's path) after its commit.
    func makesDirectory(_ path: String) -> Bool {
        journalEntries.contains { $0.operation == .mkdir && $0.destination == path }
    }

    /// Deletes the directory-backed album `record`: its directory goes to the Trash of its file system
    /// (one entry), its assets to Recently Deleted, each file trashed as deleting the asset trashes it
    /// (so each can come back alone, through the library or any tool). Refused, naming them, while
    /// the directory holds anything that is not one of its assets' files or their sidecars; refused
    /// for a watched root and for a folder's own album (the folder's directory holds other albums).
    func trashDirectory(of record: CollectionRecord) throws {
        guard let databasePath = record.path, !record.isList else { return }
        let identifiers = [record.localIdentifier]
        let name = "album '\(record.title ?? "")'"
        if library.roots.roots.contains(where: { $0.path == databasePath }) {
            throw PHPhotosError(
                .changeNotSupported,
                "\(name) is the watched root \(databasePath): remove it from the configuration instead",
                localIdentifiers: identifiers)
        }
        if let parent = try record.parentId.flatMap({ try transaction.collection(id: $0) }), parent.path == databasePath
        {
            throw PHPhotosError(
                .changeNotSupported,
                "\(name) holds the photos of its folder's own directory \(databasePath), which holds other albums: "
                    + "delete its photos instead",
                localIdentifiers: identifiers)
        }
        let path = diskPath(of: databasePath)
        if path != databasePath {
            throw PHPhotosError(
                .changeNotSupported, "\(name) is renamed or moved in this change block: delete it in another",
                localIdentifiers: identifiers)
        }
        try library.requireWrite(.files, at: path, for: "delete \(name)", localIdentifiers: identifiers)
        guard let identity = try FileOperations.identity(path), !identity.isRegularFile else {
            throw PHPhotosError(
                .identifierNotFound, "the directory of \(name) is no longer at \(path)", localIdentifiers: identifiers)
        }
        let stored = try transaction.storedFiles(inDirectory: databasePath)
        let known = Set(
            (stored.map(\.path) + PHPhotoLibrary.sidecars(of: stored.map(\.path))).map { PathName.name(of: $0) })
        let entries: [String]
        do {
            entries = try FileOperations.names(in: path)
        } catch {
            throw PHPhotosError(.accessRestricted, "cannot delete \(name): \(path) cannot be read (\(error))")
        }
        let unknown = entries.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            let listed = unknown.prefix(10).joined(separator: ", ") + (unknown.count > 10 ? ", and more" : "")
            throw PHPhotosError(
                .changeNotSupported,
                "cannot delete \(name): \(path) holds what the library does not know (\(listed)); "
                    + "move it out first",
                localIdentifiers: identifiers)
        }
        var assetIDs: [Int64] = []
        var seen = Set<Int64>()
        for file in stored where seen.insert(file.assetID).inserted { assetIDs.append(file.assetID) }
        let records = try transaction.assets(ids: assetIDs)
        let resources = try transaction.resources(assetIDs: assetIDs)
        let files = try library.trashPlan(
            assetIDs.map {
                PHPhotoLibrary.TrashPlanItem(
                    assetId: $0, identifier: records[$0]?.localIdentifier ?? "", files: resources[$0] ?? [])
            })
        try transaction.trashAssets(assetIDs, files: files, date: Date().timeIntervalSince1970)
        for file in files { trash(file) }
        deletedCollections.formUnion(try transaction.deleteCollection(record))
        // After its files: the directory, empty by then, as one entry of the Trash.
        journal(
            FileJournalEntry(
                operation: .trash, destination: path, device: identity.device, inode: identity.inode,
                owner: FileOperations.processID))
        try transaction.deleteDirectoryFoldersIfEmpty(from: record.parentId, roots: library.roots.roots.map(\.path))
    }
}

extension PHPhotoLibrary {
    /// What adding the assets `identifiers` to the directory-backed album `albumIdentifier` moves, checked
    /// as the change checks it (the same errors), and nothing done: for `photos mv` and its dry run.
    /// Where the directory of the album or folder `identifier` would be after it is renamed to `title`
    /// or moved into the folder `folder` (one of the two), checked as the change checks it (the
    /// root's policy, the disk, one file system, a free name); nil for a collection that mirrors no
    /// directory. Nothing changes: what `photos mv --dry-run` says.
    package func plannedDirectoryChange(of identifier: String, renamedTo title: String?, into folder: String?)
        throws -> String?
    {
        struct Planned: Error { let path: String? }
        let context = ApplyContext(library: self)
        do {
            _ = try database.write { transaction in
                context.transaction = transaction
                let record = try context.collection(identifier)
                if let title { try context.renameDirectory(of: record, to: title) }
                if let folder { try context.moveDirectory(of: record, into: try context.collection(folder)) }
                // Rolled back: a plan changes nothing.
                throw Planned(path: try transaction.collection(withLocalIdentifier: identifier)?.path)
            }
        } catch let planned as Planned {
            return planned.path
        } catch {
            throw Self.photosError(error)
        }
        return nil
    }

    package func plannedAssetMoves(_ identifiers: [String], intoAlbum albumIdentifier: String) throws
        -> [AssetFileMove]
    {
        struct Planned: Error { let moves: [AssetFileMove] }
        let context = ApplyContext(library: self)
        do {
            _ = try database.write { transaction in
                context.transaction = transaction
                let album = try context.collection(albumIdentifier)
                guard album.path != nil, !album.isList else {
                    throw PHPhotosError(
                        .changeNotSupported, "album '\(album.title ?? "")' mirrors no directory: no file moves",
                        localIdentifiers: [albumIdentifier])
                }
                try context.moveAssets(identifiers, into: album)
                // Rolled back: a plan changes nothing.
                throw Planned(moves: context.assetMoves)
            }
        } catch let planned as Planned {
            return planned.moves
        } catch {
            throw Self.photosError(error)
        }
        return []
    }
}

extension FileJournal {
    /// Moves a file of an asset into a directory-backed album's directory (`rename` entries with an
    /// asset), never over anything, if `source` is still that file (device and inode); then syncs both
    /// directories. Already moved (an interrupted run), or gone: nothing to do. Onto another file
    /// system, the file is copied, synced, verified, renamed into place and recorded before the
    /// original is removed (FileJournal+CrossDevice).
    ///
    /// When the disk refuses (a name was taken meanwhile), the asset's files stay together: those
    /// already moved go back (never over anything), the library records every file where it is, the
    /// asset's later entries are dropped in the same transaction, and the caller learns why
    /// (``UndoneOperation``).
    func moveAssetFile(_ entry: FileJournalEntry) throws {
        guard let source = entry.source, let assetID = entry.assetId else { return }
        let (from, to) = (PathName.directory(of: source), PathName.directory(of: entry.destination))
        // A move taken back (an earlier file of the asset could not move) dropped the asset's later entries.
        guard let current = try FileOperations.identity(source), current.device == entry.device,
            current.inode == entry.inode
        else { return }
        if try Self.crossesDevices(current, into: to) {
            return try moveAcrossDevices(entry, source: source, assetID: assetID)
        }
        do {
            try FileOperations.renameWithoutReplacing(source, entry.destination)
        } catch let error as SystemCallError where error.errno == EXDEV {
            // Another mount of the same file system (a bind mount, a container's volume): one
            // device, but `rename` refuses to cross mounts.
            return try moveAcrossDevices(entry, source: source, assetID: assetID)
        } catch let error as SystemCallError where !error.isSimulatedCrash {
            let stranded = try takeBackMove(ofAsset: assetID, failed: entry)
            throw UndoneOperation(
                error: PHPhotosError(
                    .operationInterrupted,
                    "\(source) could not be moved to \(entry.destination) (\(error)); "
                        + Self.takenBack(stranded)))
        }
        try FaultInjection.reach(.assetFileMoved, in: importDirectory)
        try FileOperations.sync(to, directory: true)
        try FileOperations.sync(from, directory: true)
    }

    /// Moves a file of an asset onto another file system: the copy is made whole (copied, synced,
    /// verified, renamed into place without replacing anything, recorded), and only then is the
    /// original removed, if it is still the file that was copied (its device, inode, size and time).
    /// A copy that cannot be made takes the asset's move back, as a refused rename does.
    private func moveAcrossDevices(_ entry: FileJournalEntry, source: String, assetID: Int64) throws {
        let destination = entry.destination
        do {
            if try !takeInterruptedCopy(of: source, at: destination) {
                _ = try copyAcrossDevices(source, to: destination, for: entry)
            }
        } catch let error as SystemCallError where !error.isSimulatedCrash {
            let stranded = try takeBackMove(ofAsset: assetID, failed: entry)
            throw UndoneOperation(
                error: PHPhotosError(
                    .operationInterrupted,
                    "\(source) could not be copied to \(destination) on its file system (\(error)); "
                        + Self.takenBack(stranded)))
        }
        try FaultInjection.reach(.copiedIntoPlace, in: importDirectory)
        if let current = try FileOperations.identity(source), current.device == entry.device,
            current.inode == entry.inode, let copy = try FileOperations.identity(destination),
            current.size == copy.size, current.modificationTime == copy.modificationTime
        {
            try FileOperations.unlink(source)
            try FileOperations.sync(PathName.directory(of: source), directory: true)
        }
        try FaultInjection.reach(.assetFileMoved, in: importDirectory)
    }

    /// Puts back what a move of the asset `assetID` did before `failed` could not be done: each of its
    /// files the library records in the album's directory (and their sidecars) goes back under its
    /// old name (the group's suffix taken off), never over anything; the library records each file
    /// where it then is, and both directories' albums their members. The album of the directory the
    /// photo came from, deleted by the move when it left the directory empty, comes back with its
    /// identifier (``LibraryTransaction/restoreDirectoryAlbum(at:)``). A file that went onto another
    /// file system comes back the way it went: copied back whole, and only then is the copy the move
    /// made removed. Returns the files that could not come back (where they stay, recorded there).
    @discardableResult
    private func takeBackMove(ofAsset assetID: Int64, failed: FileJournalEntry) throws -> [String] {
        guard let source = failed.source else { return [] }
        let (from, to) = (PathName.directory(of: source), PathName.directory(of: failed.destination))
        let (oldStem, newStem) = Self.stems(
            renamed: PathName.name(of: source), as: PathName.name(of: failed.destination))
        var stranded: [String] = []
        var copiedBack: [(path: String, identity: FileIdentity)] = []
        try database.write { transaction in
            try transaction.moveAssetFile(ofAsset: assetID, from: failed.destination, to: source)
            let moved = try transaction.resources(ofAsset: assetID).map(\.path).filter {
                PathName.directory(of: $0) == to
            }
            for path in moved + PHPhotoLibrary.sidecars(of: moved) {
                let name = PathName.name(of: path)
                guard name.hasPrefix(newStem) else { continue }
                let back = from + "/" + oldStem + name.dropFirst(newStem.count)
                switch try putBack(path, at: back, for: failed) {
                case .renamed:
                    try transaction.moveAssetFile(ofAsset: assetID, from: path, to: back)
                case .copied(let identity):
                    try transaction.moveAssetFile(ofAsset: assetID, from: path, to: back)
                    copiedBack.append((back, identity))
                case .stayed:
                    if FileManager.default.fileExists(atPath: path) { stranded.append(path) }
                }
            }
            // The move deleted the album of a directory it emptied: the album comes back as it was.
            try transaction.restoreDirectoryAlbum(at: from)
            try transaction.settleDirectoryAlbums([from, to], deletingEmpty: false, roots: [])
            // The asset's files not moved yet stay where they are.
            if let id = failed.id { try transaction.dropAssetMoves(after: id, ofAsset: assetID) }
        }
        for (path, identity) in copiedBack {
            try database.noteFileIdentity(at: path, device: identity.device, inode: identity.inode)
        }
        return stranded
    }

    /// How a file a move took came back.
    private enum PutBack {
        case renamed
        /// Copied back from another file system: the copy's identity.
        case copied(FileIdentity)
        case stayed
    }

    /// Puts a file a move took to `path` back at `back`, never over anything: renamed, or from
    /// another file system copied back whole (``copyAcrossDevices(_:to:for:recording:syncingDirectory:)``,
    /// the way it went) and then the library's copy at `path` removed, if it is still that file. A
    /// copy a stopped take-back already put at `back` (the same bytes) is taken, not made again
    /// beside it. Only a stop (a simulated crash) is thrown: the take-back runs again at the next open.
    private func putBack(_ path: String, at back: String, for entry: FileJournalEntry) throws -> PutBack {
        do {
            try FileOperations.renameWithoutReplacing(path, back)
            return .renamed
        } catch let error as SystemCallError where error.errno == EXDEV {
            do {
                guard let moved = try FileOperations.identity(path) else { return .stayed }
                let copy: FileIdentity
                if let there = try FileOperations.identity(back), there.isRegularFile,
                    try FileOperations.sameContent(path, back)
                {
                    copy = there
                } else {
                    copy = try copyAcrossDevices(path, to: back, for: entry, recording: false)
                }
                try FaultInjection.reach(.copiedIntoPlace, in: importDirectory)
                if let now = try FileOperations.identity(path), now.device == moved.device, now.inode == moved.inode {
                    try FileOperations.unlink(path)
                    try FileOperations.sync(PathName.directory(of: path), directory: true)
                }
                return .copied(copy)
            } catch let error where !error.isSimulatedCrash {
                return .stayed
            }
        } catch let error where !error.isSimulatedCrash {
            return .stayed
        }
    }

    /// The end of the message of a move taken back: where the photo is.
    private static func takenBack(_ stranded: [String]) -> String {
        guard !stranded.isEmpty else { return "the library keeps the photo where it is" }
        return "the library keeps the photo where it is but for \(stranded.joined(separator: ", ")), "
            + "which could not be put back and stays there, recorded"
    }

    /// The stems of a file's name and of the name a move gave it with a clash's suffix
    /// (``GroupNames``): `IMG_1.JPG` and `IMG_1 (2).JPG` → `IMG_1`, `IMG_1 (2)`; a name the move
    /// kept → two empty stems (every name goes back as it is). What its group's other files are
    /// renamed back by.
    static func stems(renamed old: String, as new: String) -> (old: String, new: String) {
        let (a, b) = (Array(old), Array(new))
        var common = 0
        while common < a.count, common < b.count, a[common] == b[common] { common += 1 }
        let inserted = b.count - a.count
        guard inserted > 0, new.hasSuffix(String(a[common...])) else { return ("", "") }
        return (String(a[..<common]), String(b[..<(common + inserted)]))
    }

    /// Makes the directory of an album created inside a directory-backed folder (`mkdir` entries),
    /// with the user's umask, and records its device and inode; a directory already there (an
    /// interrupted run made it) is taken as it is. When something else has the name (a file made
    /// meanwhile), the album becomes an album of the library alone, at the top level, and the caller
    /// learns why (``UndoneOperation``).
    func makeAlbumDirectory(_ entry: FileJournalEntry) throws {
        let path = entry.destination
        do {
            _ = try FileOperations.makeDirectory(path, mode: 0o777)
        } catch let error as SystemCallError where !error.isSimulatedCrash {
            try database.write { transaction in
                guard var album = try transaction.directoryAlbum(at: path), album.madeDirectory == true else { return }
                album.path = nil
                album.madeDirectory = nil
                album.parentId = nil
                try transaction.updateCollection(album, properties: [])
            }
            throw UndoneOperation(
                error: PHPhotosError(
                    .operationInterrupted,
                    "the directory \(path) could not be made (\(error)); the album is kept by the library alone"))
        }
        try FaultInjection.reach(.directoryMade, in: importDirectory)
        try FileOperations.sync(PathName.directory(of: path), directory: true)
        if let made = try FileOperations.identity(path) {
            try database.noteMadeDirectory(at: path, device: made.device, inode: made.inode)
        }
    }

    /// Moves a deleted album's directory (`trash` entries without an asset) to the Trash of its file
    /// system, if it is still that directory (device and inode) and empty: its assets' files went
    /// before it. Gone already (an interrupted run, or moved away): nothing to do. A directory that
    /// holds something again stays where it is, and the caller learns what.
    func trashDirectory(_ entry: FileJournalEntry) throws {
        let path = entry.destination
        guard let current = try FileOperations.identity(path), !current.isRegularFile,
            current.device == entry.device, current.inode == entry.inode
        else { return }
        let left = (try? FileOperations.names(in: path)) ?? []
        guard left.isEmpty else {
            throw UndoneOperation(
                error: PHPhotosError(
                    .operationInterrupted,
                    "the album is deleted, but its directory \(path) stays where it is: it holds "
                        + left.sorted().prefix(10).joined(separator: ", ") + " now"))
        }
        var trash = self.trash
        // A `.trashinfo` a stopped run wrote for this directory, which never moved, is removed first.
        if let directory = try? trash.directory(for: path) { _ = try? trash.repair(directory) }
        let importDirectory = importDirectory
        trash.stopHook = { step in
            if step == .infoWritten { try FaultInjection.reach(.trashInfoWritten, in: importDirectory) }
        }
        _ = try trash.trash(path)
        try FaultInjection.reach(.trashed, in: importDirectory)
    }
}
