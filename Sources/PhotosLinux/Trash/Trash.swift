import CPhotosLinux
import Foundation
import Glibc
import PhotosCore
import Synchronization

/// The freedesktop.org Trash (specification 1.0): moving a file or directory into the trash of its
/// own file system, listing a trash, restoring and erasing entries, and repairing what a process
/// stopped halfway left behind. Interoperable with trash-cli, GIO (Nautilus) and KDE's Dolphin.
///
/// Files only ever move by rename, so a photo is never copied, and never replaces anything:
///
/// - **Which trash.** The home trash (`$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`) when
///   the file is on the home trash's mount; otherwise, at the top directory of the file's mount,
///   `$topdir/.Trash/$uid` when `$topdir/.Trash` is a directory, not a symbolic link, with the
///   sticky bit, else `$topdir/.Trash-$uid`, which must be a directory, not a symbolic link, owned
///   by the user (either is made, 0700, when missing). When none can be used the file stays where
///   it is and ``TrashError/Code/noTrash`` names it and every reason.
/// - **Trashing.** `info/NAME.trashinfo` is created first with `O_EXCL` (a taken name gets `_1`,
///   `_2`…, as trash-cli does), written and `fsync`ed (a batch: one `syncfs`); then the file is
///   renamed to `files/NAME` with `renameat2(RENAME_NOREPLACE)`. If the rename fails the `.trashinfo` is removed and the
///   error names the file. A directory's size is added to `directorysizes`.
/// - **Restoring** renames `files/NAME` back to its original path (`RENAME_NOREPLACE`: a taken path
///   is ``TrashError/Code/destinationTaken``), then removes the `.trashinfo`. **Erasing** removes
///   `files/NAME` (recursively, links not followed), then the `.trashinfo`.
/// - **Repair.** A process stopped between the `.trashinfo` and the rename leaves a `.trashinfo`
///   without its file while the file is still at its path. ``repair(_:)`` removes such
///   `.trashinfo` files, only the library's own (`X-Photosd-Process=`), and only when the process
///   that wrote them is gone.
///
/// ```swift
/// var trash = Trash()  // the process's XDG_DATA_HOME, HOME and user id
/// let entry = try trash.trash("/srv/photos/2024/IMG_0001.JPG")
/// for item in try trash.listing(of: entry.directory).entries { print(item) }
/// try trash.restore(entry)
/// ```
public struct Trash: Sendable {
    /// The points a test can stop an operation at, as a killed process would stop there.
    public enum Step: String, Sendable, CaseIterable {
        /// Trashing: the `.trashinfo` is written (in a batch, those of the files before it too, and
        /// none is synced yet); the file has not moved.
        case infoWritten
        /// Trashing: the file is in `files/` (in a batch, those before it too); its directories are
        /// not synced yet.
        case moved
        /// Restoring: the file is back at its path; the `.trashinfo` is still there.
        case restored
        /// Erasing: `files/NAME` is removed; the `.trashinfo` is still there.
        case fileErased
    }

    /// The home trash (`$XDG_DATA_HOME/Trash`), or nil when neither `XDG_DATA_HOME` nor `HOME` is set.
    public var homeTrash: String?
    /// The user whose trashes these are (`$uid` in `.Trash/$uid` and `.Trash-$uid`).
    public var userID: UInt32
    /// The clock for `DeletionDate=`.
    public var now: @Sendable () -> Date = { Date() }
    /// Called at each ``Step``; when it throws, the operation stops there with that error and
    /// cleans nothing up, as a killed process would. For tests (and the library's fault injection).
    public var stopHook: (@Sendable (Step) throws -> Void)?
    /// The mount table, read at each look-up (mounts come and go).
    var mounts: @Sendable () -> MountTable = { MountTable.current() }

    /// The trashes of the user `userID` whose home trash follows `environment`'s `XDG_DATA_HOME`
    /// (used when absolute and not empty) or `HOME` (`$HOME/.local/share/Trash`).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, userID: UInt32 = UInt32(getuid())
    ) {
        self.userID = userID
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            homeTrash = Self.normalized(data) + "/Trash"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            homeTrash = Self.normalized(home) + "/.local/share/Trash"
        } else {
            homeTrash = nil
        }
    }

    // MARK: Trashing

    /// Moves the file or directory at `path` (a symbolic link itself, not its target) into the
    /// trash of its file system, and returns the entry that says where it went.
    ///
    /// Throws ``TrashError``, or what ``stopHook`` throws: ``TrashError/Code/notFound`` (no file),
    /// ``TrashError/Code/notTrashable`` (`/`, a mount point, a trash), ``TrashError/Code/noTrash``
    /// (no usable trash on its file system: never a copy to another), or the failed rename's error
    /// (the file is then where it was and no `.trashinfo` is left).
    public func trash(_ path: String) throws -> TrashEntry {
        try trash([path])[0].get()
    }

    /// Moves the files or directories at `paths` into the trashes of their file systems, as
    /// trashing one path does, and returns one result per path, in order: a path that
    /// cannot be trashed fails alone, the others go on. Only what ``stopHook`` throws stops the
    /// batch (as a killed process would stop, cleaning nothing up).
    ///
    /// The durable writes are shared, so that a thousand files cost a few syncs rather than four
    /// thousand, in up to ``batchSize`` files at a time:
    /// 1. every `.trashinfo` is created (`O_EXCL`) and written;
    /// 2. they are made durable together (one `syncfs(2)` of a trash's file system for many, an
    ///    `fsync` each for a few: ``syncFileSystemFrom``), then each `info/` directory once: every
    ///    `.trashinfo` is on disk, name and content, before any file moves;
    /// 3. the files are renamed (`renameat2(RENAME_NOREPLACE)`);
    /// 4. each `files/` directory and each directory a file left is `fsync`ed once.
    ///
    /// A crash after 1 or 2 leaves `.trashinfo` files whose files have not moved, which
    /// ``repair(_:)`` removes; one during 3 leaves each file either at its path (its `.trashinfo`
    /// removed by ``repair(_:)``) or in `files/` with its `.trashinfo` on disk; never a file in
    /// `files/` without its `.trashinfo`, since no rename is issued before step 2 is done.
    public func trash(_ paths: [String]) throws -> [Result<TrashEntry, any Error>] {
        var results = [Result<TrashEntry, any Error>?](repeating: nil, count: paths.count)
        // One mount table and one look-up a directory for the batch: mounts do not change under one
        // deletion.
        let locator = Locator(self, mounts: mounts())
        var start = 0
        while start < paths.count {
            let end = min(start + Self.batchSize, paths.count)
            var todo = Array(start..<end)
            var attempts = Array(repeating: 0, count: paths.count)
            // A name taken in files/ between its check and the rename (another tool) is tried again
            // under the next name, as one file alone would be.
            while !todo.isEmpty {
                todo = try trashBatch(todo, of: paths, locator: locator, attempts: &attempts, into: &results)
            }
            start = end
        }
        return results.map { $0 ?? .failure(TrashError(code: .systemCallFailed, message: "not trashed")) }
    }

    /// How many files one round of `trash(_:)` of many paths handles: their `.trashinfo` files stay
    /// open until synced, well under the usual limit of 1,024 open files.
    public static let batchSize = 256

    /// A `.trashinfo` written for a file of a batch, open until it is synced.
    private struct Claim {
        var index: Int
        var located: Located
        var name: String
        var infoPath: String
        var info: TrashInfo
        var fd: Int32
    }

    /// One round of a batch (the steps of `trash(_:)` of many paths) over the paths at `indices`;
    /// returns those to try again under a later name (their rename found the name taken).
    private func trashBatch(
        _ indices: [Int], of paths: [String], locator: Locator, attempts: inout [Int],
        into results: inout [Result<TrashEntry, any Error>?]
    ) throws -> [Int] {
        var claims: [Claim] = []
        defer {
            for claim in claims where claim.fd >= 0 { Syscall.close(claim.fd) }
            Self.inProgress.withLock { set in for claim in claims { set.remove(claim.infoPath) } }
        }
        let date = TrashInfo.deletionDate(now())
        // 1. The .trashinfo files.
        for index in indices {
            do {
                let located = try locator.locate(paths[index])
                let claim = try writeInfo(index, located, date: date, attempt: &attempts[index])
                claims.append(claim)
            } catch {
                results[index] = .failure(error)
                continue
            }
            try stopHook?(.infoWritten)
        }
        // 2. On disk before any file moves.
        let failures = Self.sync(claims)
        var synced: [Claim] = []
        for position in claims.indices {
            let claim = claims[position]
            Syscall.close(claim.fd)
            claims[position].fd = -1
            if let failure = failures[position] {
                try? FileOperations.unlink(claim.infoPath)
                let original = claim.located.originalPath
                results[claim.index] = .failure(
                    TrashError.failed(
                        "write the trash information of \(original) at \(claim.infoPath)", path: claim.infoPath,
                        failure))
            } else {
                synced.append(claim)
            }
        }
        // The claims on the names survive a crash before the moves; repair() finds them then.
        for directory in Set(synced.map(\.located.directory.infoDirectory)).sorted() {
            try? FileOperations.sync(directory, directory: true)
        }
        // 3. The moves.
        var retry: [Int] = []
        var moved: [Claim] = []
        for claim in synced {
            let original = claim.located.originalPath
            let directory = claim.located.directory
            let destination = directory.filePath(of: claim.name)
            do {
                try FileOperations.renameWithoutReplacing(original, destination)
            } catch let error as SystemCallError where error.errno == EEXIST && error.path == destination {
                try? FileOperations.unlink(claim.infoPath)
                retry.append(claim.index)
                continue
            } catch {
                try? FileOperations.unlink(claim.infoPath)
                if (error as? SystemCallError)?.errno == EXDEV {
                    results[claim.index] = .failure(
                        TrashError(
                            code: .crossDevice,
                            message: "cannot move \(original) to \(directory): it is on another mount, and the "
                                + "Trash never copies",
                            path: original, cause: error))
                } else {
                    results[claim.index] = .failure(
                        TrashError.failed("move \(original) to the \(directory)", path: original, error))
                }
                continue
            }
            moved.append(claim)
            try stopHook?(.moved)
        }
        // 4. The moves on disk. Done already: a failed fsync of a directory cannot undo them, and is
        // not reported as a failure to trash.
        let directories = Set(moved.map(\.located.directory.filesDirectory))
            .union(moved.map { Self.parent(of: $0.located.originalPath) })
        for directory in directories.sorted() { try? FileOperations.sync(directory, directory: true) }
        for claim in moved {
            if claim.located.status.isDirectory { try? DirectorySizes.add(claim.name, in: claim.located.directory) }
            let file = try? FileOperations.identity(claim.located.directory.filePath(of: claim.name))
            results[claim.index] = .success(
                TrashEntry(directory: claim.located.directory, name: claim.name, info: claim.info, file: file))
        }
        return retry
    }

    /// How many `.trashinfo` files of one trash, from this many on, are made durable by one
    /// `syncfs(2)` of its file system rather than an `fsync(2)` each: a thousand `fsync`s each wait
    /// for their own journal commit (about 150 ms on ext4), one `syncfs` waits once (about 15 ms). A
    /// few files keep their own `fsync`s, which never wait for other programs' writes.
    static let syncFileSystemFrom = 16

    /// Whether `syncfs(2)` makes the file system holding `path` durable: not FUSE's (ntfs-3g,
    /// exfat-fuse, sshfs), whose `syncfs` the kernel answers without asking the file system, while
    /// each `fsync` reaches it; nor a file system that cannot be told.
    static func syncfsSyncs(_ path: String) -> Bool {
        guard let type = Syscall.fileSystemType(path) else { return false }
        return type != fuseMagic
    }

    /// `FUSE_SUPER_MAGIC`, the `f_type` of every FUSE file system.
    static let fuseMagic: UInt64 = 0x6573_5546

    /// Makes the open `.trashinfo` files of `claims` durable, name and content (each `info/`
    /// directory is synced after): returns the error of each that failed, by position, nil for the
    /// others. The claims of a trash with ``syncFileSystemFrom`` or more files share one `syncfs(2)`
    /// (its failure fails them all) where it syncs (``syncfsSyncs(_:)``); the others are `fsync`ed
    /// one by one, their writeback started together first (`sync_file_range`, a hint).
    private static func sync(_ claims: [Claim]) -> [(any Error)?] {
        var failures = [(any Error)?](repeating: nil, count: claims.count)
        let byTrash = Dictionary(grouping: claims.indices) { claims[$0].located.directory.infoDirectory }
        for (infoDirectory, positions) in byTrash {
            if positions.count >= syncFileSystemFrom, Self.syncfsSyncs(infoDirectory) {
                do {
                    try FileOperations.syncFileSystem(containing: infoDirectory)
                } catch {
                    for position in positions { failures[position] = error }
                }
                continue
            }
            for position in positions { _ = cphotos_start_writeback(claims[position].fd) }
            for position in positions {
                while fsync(claims[position].fd) != 0 {
                    guard errno == EINTR else {
                        failures[position] = SystemCallError(
                            call: "fsync", path: claims[position].infoPath, errno: errno)
                        break
                    }
                }
            }
        }
        return failures
    }

    /// Creates and writes the `.trashinfo` of a located file under the first free name from the
    /// `attempt`-th on (`O_EXCL`: a taken name gets the next suffix), not yet synced; the file stays open.
    private func writeInfo(_ index: Int, _ located: Located, date: String, attempt: inout Int) throws -> Claim {
        let directory = located.directory
        let original = located.originalPath
        let baseName = String(original[original.index(after: original.lastIndex(of: "/")!)...])
        let info = TrashInfo(
            path: directory.recordedPath(for: original), deletionDate: date, process: FileOperations.processID,
            boot: TrashFiles.bootID)
        let content = info.rendered
        while attempt < 1_000 {
            defer { attempt += 1 }
            let name = Self.trashName(baseName, attempt: attempt)
            let infoPath = directory.infoPath(of: name)
            let fd: Int32
            do {
                fd = try FileOperations.createExclusively(infoPath)
            } catch let error as SystemCallError where error.errno == EEXIST {
                continue
            } catch {
                throw TrashError.failed(
                    "write the trash information of \(original) at \(infoPath)", path: infoPath, error)
            }
            // Ours from now on: a repair in this process leaves it alone until the batch is done.
            Self.inProgress.withLock { _ = $0.insert(infoPath) }
            func release() {
                Syscall.close(fd)
                try? FileOperations.unlink(infoPath)
                Self.inProgress.withLock { _ = $0.remove(infoPath) }
            }
            do {
                try content.withUnsafeBytes { try FileOperations.write(fd, $0, path: infoPath) }
            } catch {
                release()
                throw TrashError.failed(
                    "write the trash information of \(original) at \(infoPath)", path: infoPath, error)
            }
            // A file left in files/ without its .trashinfo (by another tool) keeps its name.
            if TrashFiles.exists(directory.filePath(of: name)) {
                release()
                continue
            }
            return Claim(index: index, located: located, name: name, infoPath: infoPath, info: info, fd: fd)
        }
        throw TrashError(
            code: .systemCallFailed, message: "no free name for \(original) in \(directory)", path: original)
    }

    /// The trash directory a file at `path` would go to, made (with its `files/` and `info/`) if
    /// missing. Throws as ``trash(_:)`` does when there is none.
    public func directory(for path: String) throws -> TrashDirectory {
        try Locator(self, mounts: mounts()).locate(path).directory
    }

    // MARK: Listing, restoring, erasing

    /// The entries of the trash `directory`, read as the specification says and tolerant of other
    /// tools' files: a `.trashinfo` that cannot be read is reported in ``TrashListing/unreadable``,
    /// one whose file is missing is an orphan (``TrashEntry/isOrphan``). A trash not made yet is empty.
    public func listing(of directory: TrashDirectory) throws -> TrashListing {
        let infoNames: [String]
        let fileNames: [String]
        do {
            infoNames = try TrashFiles.names(in: directory.infoDirectory) ?? []
            fileNames = try TrashFiles.names(in: directory.filesDirectory) ?? []
        } catch {
            throw TrashError.failed("list the trash \(directory.path)", path: directory.path, error)
        }
        var entries: [TrashEntry] = []
        var unreadable: [TrashError] = []
        var named = Set<String>()
        for infoName in infoNames.sorted() where infoName.hasSuffix(".trashinfo") {
            let name = String(infoName.dropLast(".trashinfo".count))
            let infoPath = directory.infoDirectory + "/" + infoName
            do {
                guard Self.isValidName(name) else {
                    throw TrashError(code: .invalidEntry, message: "no name before .trashinfo")
                }
                named.insert(name)
                guard let entry = try Self.readEntry(named: name, in: directory) else {
                    throw TrashError(code: .invalidEntry, message: "not a regular file")
                }
                entries.append(entry)
            } catch {
                let reason = (error as? TrashError)?.message ?? (error as? SystemCallError)?.reason ?? "\(error)"
                unreadable.append(
                    TrashError(
                        code: .invalidEntry, message: "cannot read \(infoPath) as trash information: \(reason)",
                        path: infoPath, cause: error))
            }
        }
        let unlisted = fileNames.filter { !named.contains($0) }.sorted()
        return TrashListing(entries: entries, unreadable: unreadable, unlisted: unlisted)
    }

    /// The entry `name` of the trash `directory`, as ``listing(of:)`` would list it, reading its
    /// `.trashinfo` alone: nil when there is none, or one that cannot be read as trash information;
    /// throws when the trash itself cannot be read. A look-up of one file that costs the same in a
    /// trash of a million entries as in one of ten.
    public func entry(named name: String, in directory: TrashDirectory) throws -> TrashEntry? {
        guard Self.isValidName(name) else { return nil }
        let infoPath = directory.infoDirectory + "/" + name + ".trashinfo"
        do {
            _ = try TrashFiles.status(infoPath)
        } catch {
            throw TrashError.failed("read the trash \(directory.path)", path: directory.path, error)
        }
        return try? Self.readEntry(named: name, in: directory)
    }

    /// The entry `name` read from its `.trashinfo`; nil when that is not a regular file.
    private static func readEntry(named name: String, in directory: TrashDirectory) throws -> TrashEntry? {
        let infoPath = directory.infoDirectory + "/" + name + ".trashinfo"
        guard let status = try TrashFiles.status(infoPath), status.isRegularFile else { return nil }
        let info = try TrashInfo(parsing: TrashFiles.read(infoPath, limit: 1 << 20))
        let file = try FileOperations.identity(directory.filePath(of: name))
        return TrashEntry(directory: directory, name: name, info: info, file: file)
    }

    /// The user's trash directories that exist now: the home trash, then each mount's
    /// `.Trash/$uid` (under a `.Trash` that passes the checks) and `.Trash-$uid`.
    public func existingDirectories() -> [TrashDirectory] {
        var found: [TrashDirectory] = []
        let table = mounts()
        if let homeTrash, let status = try? TrashFiles.status(homeTrash, followingLinks: true), status.isDirectory {
            let top = table.mount(containing: FileOperations.resolved(homeTrash) ?? homeTrash)?.mountPoint ?? "/"
            found.append(TrashDirectory(path: homeTrash, kind: .home, topDirectory: top))
        }
        var seen = Set<String>()
        for mount in table.mounts where mount.fsType != "autofs" && seen.insert(mount.mountPoint).inserted {
            let top = mount.mountPoint
            if sharedTrash(top) == .usable {
                let path = Self.join(top, ".Trash/\(userID)")
                if ownTrashProblem(path, device: nil) == nil {
                    found.append(TrashDirectory(path: path, kind: .shared, topDirectory: top))
                }
            }
            let path = Self.join(top, ".Trash-\(userID)")
            if ownTrashProblem(path, device: nil) == nil {
                found.append(TrashDirectory(path: path, kind: .user, topDirectory: top))
            }
        }
        return found
    }

    /// Moves the entry's file back to its original path (or to `destination`), making missing
    /// parent directories, then removes its `.trashinfo`; returns the path it is at now.
    ///
    /// Never replaces anything: a taken path is ``TrashError/Code/destinationTaken`` naming it, and
    /// the file stays in the trash.
    @discardableResult
    public func restore(_ entry: TrashEntry, to destination: String? = nil) throws -> String {
        let target =
            destination.map {
                Self.normalized($0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0)
            } ?? entry.originalPath
        try Self.checkName(entry)
        let source = entry.filePath
        guard TrashFiles.exists(source) else {
            throw TrashError(
                code: .notFound, message: "cannot restore \(target): its trashed file \(source) is missing",
                path: source)
        }
        if TrashFiles.exists(target) {
            throw Self.taken(source, target, cause: nil)
        }
        let isDirectory = (try? TrashFiles.status(source))?.isDirectory ?? false
        try moveBack(source, to: target)
        try removeInfo(of: entry, after: "restored \(target)")
        if isDirectory { try? DirectorySizes.remove(entry.name, in: entry.directory) }
        return target
    }

    /// Moves the trashed file `files/NAME` at `filePath` back to `destination` (making missing parent
    /// directories; never replacing anything: a taken path is ``TrashError/Code/destinationTaken``),
    /// then removes its `.trashinfo`: ``restore(_:to:)`` for a caller that knows the file by its
    /// place in the trash (a journal) and has checked it is the file it wants. What a process
    /// stopped between the two steps leaves is finished by ``finishRestore(of:)``.
    public func restore(file filePath: String, to destination: String) throws {
        let name = Self.lastComponent(filePath)
        guard Self.isValidName(name), Self.lastComponent(Self.parent(of: filePath)) == "files" else {
            throw TrashError(
                code: .invalidEntry, message: "\(filePath) is not a file of a trash's files/ directory", path: filePath)
        }
        try moveBack(filePath, to: Self.normalized(destination))
        try finishRestore(of: filePath)
    }

    /// Removes the `.trashinfo` of the trashed file `files/NAME` at `filePath` once it is gone from
    /// `files/` (restored): what a restore stopped after its move leaves. Only this library's own
    /// `.trashinfo` (`X-Photosd-Process=`) goes: another tool's, written for a new file of the same
    /// name whose move has not happened yet, stays. While `files/NAME` is there, or with no
    /// `.trashinfo`, nothing is done.
    public func finishRestore(of filePath: String) throws {
        let name = Self.lastComponent(filePath)
        let filesDirectory = Self.parent(of: filePath)
        guard Self.isValidName(name), Self.lastComponent(filesDirectory) == "files", !TrashFiles.exists(filePath)
        else { return }
        // Only its `info/` is used: the kind and top directory say how `Path=` is read.
        let directory = TrashDirectory(path: Self.parent(of: filesDirectory), kind: .user, topDirectory: "/")
        let infoPath = directory.infoPath(of: name)
        guard TrashFiles.exists(infoPath), (try? Self.readEntry(named: name, in: directory))?.isOwn == true else {
            return
        }
        do {
            try FileOperations.unlink(infoPath)
        } catch {
            let reason = (error as? SystemCallError)?.reason ?? "\(error)"
            throw TrashError(
                code: .systemCallFailed,
                message: "restored \(filePath), but its trash information \(infoPath) could not be removed: \(reason)",
                path: infoPath, cause: error)
        }
        try? FileOperations.sync(directory.infoDirectory, directory: true)
    }

    /// Renames `source`, in a trash's `files/`, to `target`, never over anything, its parent synced;
    /// the `.trashinfo` is still there after.
    private func moveBack(_ source: String, to target: String) throws {
        do {
            try Self.makeParents(of: target)
            try FileOperations.renameWithoutReplacing(source, target)
        } catch let error as SystemCallError where error.errno == EEXIST && error.path == target {
            throw Self.taken(source, target, cause: error)
        } catch {
            throw TrashError.failed("restore \(source) to \(target)", path: target, error)
        }
        try? FileOperations.sync(Self.parent(of: target), directory: true)
        try stopHook?(.restored)
    }

    /// Removes the entry for good: `files/NAME` and everything under it (symbolic links are removed,
    /// never followed), then its `.trashinfo`. An orphan loses its `.trashinfo` only.
    public func erase(_ entry: TrashEntry) throws {
        try Self.checkName(entry)
        let isDirectory = (try? TrashFiles.status(entry.filePath))?.isDirectory ?? false
        do {
            try TrashFiles.removeTree(entry.filePath)
        } catch {
            throw TrashError.failed("erase \(entry.filePath)", path: entry.filePath, error)
        }
        try stopHook?(.fileErased)
        try removeInfo(of: entry, after: "erased \(entry.filePath)")
        if isDirectory { try? DirectorySizes.remove(entry.name, in: entry.directory) }
    }

    /// Removes what a process of this library stopped halfway left in `directory`, and returns the
    /// entries it removed:
    ///
    /// | `.trashinfo` | `files/NAME` | original path | done |
    /// |---|---|---|---|
    /// | ours, writer gone | missing | a file | the `.trashinfo` is removed (the trash never happened, or the restore finished) |
    /// | ours, writer gone | the same file (device, inode) | the same file | `files/NAME` (a second name) and the `.trashinfo` are removed |
    /// | another tool's, or its writer running | any | any | nothing |
    /// | ours | missing | missing | nothing: an orphan, listed as one |
    ///
    /// The writer is gone when the `.trashinfo`'s boot is not this one, its process is not running,
    /// or it is this process and not in the middle of that very operation.
    @discardableResult
    public func repair(_ directory: TrashDirectory) throws -> [TrashEntry] {
        var repaired: [TrashEntry] = []
        for entry in try listing(of: directory).entries where entry.isOwn && Self.writerIsGone(entry) {
            let original: FileIdentity?
            do {
                original = try FileOperations.identity(entry.originalPath)
            } catch {
                continue  // The original's place cannot be read: leave the entry as it is.
            }
            guard let original else { continue }
            do {
                if let file = entry.file {
                    guard file.device == original.device, file.inode == original.inode, file.isRegularFile
                    else { continue }
                    try FileOperations.unlink(entry.filePath)
                }
                try FileOperations.unlink(entry.infoPath)
            } catch {
                throw TrashError.failed("repair the trash entry \(entry.infoPath)", path: entry.infoPath, error)
            }
            repaired.append(entry)
        }
        return repaired
    }

    // MARK: Finding the trash

    /// What `$topdir/.Trash` is to this user.
    enum SharedTrash: Equatable {
        /// A directory, not a symbolic link, with the sticky bit: `.Trash/$uid` may be used.
        case usable
        /// Not there: `.Trash-$uid` is used.
        case absent
        /// There but failing a check (the reason): it is not used, for trashing or restoring.
        case refused(String)
    }

    /// Whether `$topdir/.Trash` passes the specification's checks.
    func sharedTrash(_ top: String) -> SharedTrash {
        let path = Self.join(top, ".Trash")
        guard let status = try? TrashFiles.status(path) else { return .absent }
        if status.isSymbolicLink { return .refused("\(path) is a symbolic link, so it is not used") }
        if !status.isDirectory { return .refused("\(path) is not a directory, so it is not used") }
        if !status.isSticky { return .refused("\(path) has no sticky bit, so it is not used") }
        return .usable
    }

    /// Why the user's own trash at `path` may not be used, without making anything: nil when it
    /// is a directory, not a symbolic link, owned by the user, on `device` (when given), with
    /// `files/` and `info/` as directories where they exist.
    func ownTrashProblem(_ path: String, device: Int64?) -> String? {
        let status: TrashFiles.Status?
        do {
            status = try TrashFiles.status(path)
        } catch {
            return "\(path) cannot be read: \((error as? SystemCallError)?.reason ?? "\(error)")"
        }
        guard let status else { return "\(path) does not exist" }
        if status.isSymbolicLink { return "\(path) is a symbolic link" }
        if !status.isDirectory { return "\(path) is not a directory" }
        if status.owner != userID { return "\(path) is owned by user \(status.owner), not \(userID)" }
        if let device, status.device != device { return "\(path) is on another file system" }
        for sub in ["files", "info"] {
            if let inner = try? TrashFiles.status(path + "/" + sub), inner.isSymbolicLink || !inner.isDirectory {
                return "\(path)/\(sub) is not a directory"
            }
        }
        return nil
    }

    /// Makes the user's own trash at `path` (0700) if missing, with `files/` and `info/`; nil when
    /// it can be used, else why not.
    func makeOwnTrash(_ path: String, device: Int64) -> String? {
        do {
            _ = try TrashFiles.makeDirectory(path, mode: 0o700)
        } catch {
            return "\(path) cannot be made: \((error as? SystemCallError)?.reason ?? "\(error)")"
        }
        if let problem = ownTrashProblem(path, device: device) { return problem }
        do {
            return try Self.prepare(TrashDirectory(path: path, kind: .user, topDirectory: "/"))
        } catch {
            return "\(path) cannot be prepared: \((error as? SystemCallError)?.description ?? "\(error)")"
        }
    }

    /// Makes `files/` and `info/` (0700) in a trash directory; a problem when either is not a
    /// directory (a symbolic link is not).
    static func prepare(_ directory: TrashDirectory) throws -> String? {
        for path in [directory.filesDirectory, directory.infoDirectory] {
            _ = try TrashFiles.makeDirectory(path, mode: 0o700)
            guard let status = try TrashFiles.status(path), status.isDirectory else {
                return "\(path) is not a directory"
            }
        }
        return nil
    }

    /// The top of the mount holding `directory` found by walking up while the device stays the same
    /// (when `/proc/self/mountinfo` says nothing of it).
    static func topByDevice(_ directory: String, device: Int64) -> String {
        var current = directory
        while current != "/" {
            let up = parent(of: current)
            guard let status = try? TrashFiles.status(up), status.device == device else { break }
            current = up
        }
        return current
    }

    /// The device of `path`, or of its nearest existing parent, following links; and that path.
    static func nearestExisting(_ path: String) -> (device: Int64?, path: String?) {
        var current = path
        while true {
            if let status = try? TrashFiles.status(current, followingLinks: true) { return (status.device, current) }
            if current == "/" { return (nil, nil) }
            current = parent(of: current)
        }
    }

    /// `mkdir -p` with mode 0700 for every directory made.
    static func makeDirectories(_ path: String) throws {
        if try TrashFiles.status(path, followingLinks: true) != nil { return }
        if path != "/" { try makeDirectories(parent(of: path)) }
        _ = try TrashFiles.makeDirectory(path, mode: 0o700)
    }

    /// `mkdir -p` of `path`'s parent for a restore, with the usual mode (0777 less the umask), as the
    /// folder the photo was in would have been made.
    static func makeParents(of path: String) throws {
        let directory = parent(of: path)
        if try TrashFiles.status(directory, followingLinks: true) != nil { return }
        try makeParents(of: directory)
        _ = try TrashFiles.makeDirectory(directory, mode: 0o777)
    }

    // MARK: Helpers

    /// The `.trashinfo` files whose operation is under way in this process: ``repair(_:)`` leaves
    /// them alone, since their writer is alive.
    private static let inProgress = Mutex<Set<String>>([])

    /// Whether the process that wrote the entry's `.trashinfo` is gone (see ``repair(_:)``).
    static func writerIsGone(_ entry: TrashEntry) -> Bool {
        guard let process = entry.info.process else { return false }
        if let boot = entry.info.boot, !boot.isEmpty, !TrashFiles.bootID.isEmpty, boot != TrashFiles.bootID {
            return true
        }
        if process == FileOperations.processID { return !inProgress.withLock { $0.contains(entry.infoPath) } }
        return !FileOperations.processIsAlive(process)
    }

    /// Removes the entry's `.trashinfo` once its file is restored or erased; a failure says what
    /// was done already.
    private func removeInfo(of entry: TrashEntry, after done: String) throws {
        do {
            try FileOperations.unlink(entry.infoPath)
        } catch {
            let reason = (error as? SystemCallError)?.reason ?? "\(error)"
            throw TrashError(
                code: .systemCallFailed,
                message: "\(done), but its trash information \(entry.infoPath) could not be removed: \(reason)",
                path: entry.infoPath, cause: error)
        }
        try? FileOperations.sync(entry.directory.infoDirectory, directory: true)
    }

    private static func taken(_ source: String, _ target: String, cause: (any Error)?) -> TrashError {
        TrashError(
            code: .destinationTaken,
            message: "cannot restore \(source) to \(target): a file is already there (it is not replaced)",
            path: target, cause: cause)
    }

    /// Refuses entry names that would make `files/NAME` something else than one entry.
    private static func checkName(_ entry: TrashEntry) throws {
        guard isValidName(entry.name) else {
            throw TrashError(
                code: .invalidEntry, message: "\(entry.infoPath) does not name one file of the trash",
                path: entry.infoPath)
        }
    }

    /// A single name: not empty, not `.` or `..`, no `/`.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/"))
    }

    /// The name in the trash for the `attempt`-th try: `NAME`, then `NAME_1`…`NAME_99`, then
    /// `NAME_` and a random number, as trash-cli names them; shortened (by bytes) so that
    /// `NAME.trashinfo` fits in 255 bytes.
    static func trashName(_ base: String, attempt: Int) -> String {
        let suffix = attempt == 0 ? "" : attempt < 100 ? "_\(attempt)" : "_\(Int.random(in: 0...65_535))"
        let room = 255 - ".trashinfo".utf8.count - suffix.utf8.count
        let bytes = PathBytes.bytes(base)
        return (bytes.count > room ? PathBytes.string(bytes.prefix(room)) : base) + suffix
    }

    /// `path` without `.` components, repeated or trailing slashes (`..` is left to `realpath`).
    static func normalized(_ path: String) -> String {
        // Most paths are tidy already (one stat-free scan of their bytes says so).
        if isTidy(path) { return path }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `path` is absolute with no empty, `.` or trailing component: ``normalized(_:)`` of
    /// it is itself.
    private static func isTidy(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var previous: UInt8 = 0  // The byte before, 0 at the start.
        var beforePrevious: UInt8 = 0
        var first = true
        for byte in path.utf8 {
            if first {
                guard byte == slash else { return false }
                first = false
            } else if byte == slash {
                // "//", or "/./".
                if previous == slash || (previous == dot && beforePrevious == slash) { return false }
            }
            beforePrevious = previous
            previous = byte
        }
        // "/", a trailing "/" or a trailing "/.".
        return path.utf8.count > 1 && previous != slash && !(previous == dot && beforePrevious == slash)
    }

    /// The directory holding `path` (`/` for `/x`).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The last component of `path` (`path` itself when it has no `/`).
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `directory/name` without a double slash at the root.
    static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }
}
