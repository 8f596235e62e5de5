import Foundation

extension Trash {
    /// A file to trash and its trash.
    struct Located {
        var directory: TrashDirectory
        /// The file's path with its parent's links resolved (as it goes into `Path=`).
        var originalPath: String
        var status: TrashFiles.Status
    }

    /// The trash directory each file at `paths` would go to, made (with its `files/` and `info/`)
    /// if missing, in order; a file that has none fails alone, as ``trash(_:)`` fails for it. The
    /// mount table is read once and each directory's trash found once, so that planning the
    /// deletion of a thousand photos of one folder looks up one trash.
    public func directories(for paths: [String]) -> [Result<TrashDirectory, any Error>] {
        // Nothing to find: the mount table is not read (a deletion of imported photos alone).
        guard !paths.isEmpty else { return [] }
        let locator = Locator(self, mounts: mounts())
        return paths.map { path in Result { try locator.locate(path).directory } }
    }

    /// Finds the trashes of the files of one operation. What a file's trash depends on besides the
    /// file itself (its directory's resolved path, device and mount; the trash chosen for them, made
    /// and checked) is found once per directory and kept for the operation's life: mounts and trashes
    /// are taken not to change under one deletion.
    final class Locator {
        private let trash: Trash
        private let table: MountTable
        /// A directory's facts by its path as the caller gave it.
        private var parents: [String: Parent] = [:]
        /// The home trash's facts, found at the first file.
        private var home: Home?
        /// Why each trash directory tried cannot be used (nil: it can), by its path.
        private var problems: [String: String?] = [:]
        /// What `$topdir/.Trash` is, by top directory.
        private var shared: [String: SharedTrash] = [:]

        /// A file's directory.
        private enum Parent {
            /// Resolved (links followed) to `path`, on `device`, in `mount` when the table has it.
            case found(path: String, device: Int64, mount: MountTable.Mount?)
            /// Not there.
            case missing
            /// Could not be read.
            case failed(path: String, any Error)
        }

        /// The home trash, as the files of a mount are matched with it.
        private struct Home {
            var path: String
            /// Its path with links resolved, when it exists.
            var resolved: String?
            /// The device of it, or of its nearest existing parent.
            var device: Int64?
            var mount: MountTable.Mount?
        }

        init(_ trash: Trash, mounts table: MountTable) {
            self.trash = trash
            self.table = table
        }

        func locate(_ path: String) throws -> Located {
            let absolute = Trash.normalized(
                path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath + "/" + path))
            let name = String(absolute[absolute.index(after: absolute.lastIndex(of: "/")!)...])
            guard Trash.isValidName(name) else {
                throw TrashError(code: .notTrashable, message: "\(path) cannot be trashed", path: path)
            }
            let parentPath: String
            let parentDevice: Int64
            let parentMount: MountTable.Mount?
            switch parent(Trash.parent(of: absolute)) {
            case .missing:
                throw TrashError(code: .notFound, message: "cannot trash \(path): there is no such file", path: path)
            case .failed(let resolved, let error):
                throw TrashError.failed("trash \(Trash.join(resolved, name))", path: Trash.join(resolved, name), error)
            case .found(let resolved, let device, let mount):
                parentPath = resolved
                parentDevice = device
                parentMount = mount
            }
            let original = Trash.join(parentPath, name)
            let file: TrashFiles.Status
            do {
                guard let found = try TrashFiles.status(original) else {
                    throw TrashError(
                        code: .notFound, message: "cannot trash \(path): there is no such file", path: path)
                }
                file = found
            } catch {
                throw TrashError.failed("trash \(original)", path: original, error)
            }
            let mount = parentMount.flatMap { $0.device == file.device ? $0 : nil }
            if file.device != parentDevice || table.mounts.contains(where: { $0.mountPoint == original }) {
                throw TrashError(
                    code: .notTrashable, message: "cannot trash \(original): it is a mount point", path: original)
            }
            var reasons: [String] = []

            if let home = homeTrash() {
                if MountTable.isInside(original, home.path)
                    || home.resolved.map({ MountTable.isInside(original, $0) }) == true
                {
                    throw TrashError(
                        code: .notTrashable, message: "cannot trash \(original): it is in the trash \(home.path)",
                        path: original)
                }
                if home.device == file.device && (home.mount == nil || mount == nil || home.mount?.id == mount?.id) {
                    let directory = TrashDirectory(
                        path: home.path, kind: .home, topDirectory: home.mount?.mountPoint ?? "/")
                    if let problem = homeProblem(directory) {
                        reasons.append("the home trash \(home.path) cannot be used: \(problem)")
                    } else {
                        return Located(directory: directory, originalPath: original, status: file)
                    }
                } else {
                    reasons.append("the home trash \(home.path) is on another file system")
                }
            } else {
                reasons.append("there is no home trash (neither XDG_DATA_HOME nor HOME is set)")
            }

            let top = mount?.mountPoint ?? Trash.topByDevice(parentPath, device: file.device)
            for trashName in [".Trash", ".Trash-\(trash.userID)"]
            where MountTable.isInside(original, Trash.join(top, trashName)) {
                throw TrashError(
                    code: .notTrashable,
                    message: "cannot trash \(original): it is in the trash \(Trash.join(top, trashName))",
                    path: original)
            }
            switch sharedTrash(top) {
            case .absent: break
            case .refused(let reason): reasons.append(reason)
            case .usable:
                let path = Trash.join(top, ".Trash/\(trash.userID)")
                if let problem = ownProblem(path, device: file.device) {
                    reasons.append(problem)
                } else {
                    return Located(
                        directory: TrashDirectory(path: path, kind: .shared, topDirectory: top), originalPath: original,
                        status: file)
                }
            }
            let path = Trash.join(top, ".Trash-\(trash.userID)")
            if let problem = ownProblem(path, device: file.device) {
                reasons.append(problem)
            } else {
                return Located(
                    directory: TrashDirectory(path: path, kind: .user, topDirectory: top), originalPath: original,
                    status: file)
            }
            throw TrashError(
                code: .noTrash,
                message: "cannot trash \(original): no trash can be used on its file system (mounted at \(top)); it "
                    + "is left where it is, never copied to another: " + reasons.joined(separator: "; "),
                path: original)
        }

        /// The directory at `path` (links followed), found once.
        private func parent(_ path: String) -> Parent {
            if let known = parents[path] { return known }
            let found: Parent
            if let resolved = FileOperations.resolved(path) {
                do {
                    if let status = try TrashFiles.status(resolved) {
                        found = .found(path: resolved, device: status.device, mount: table.mount(containing: resolved))
                    } else {
                        found = .missing
                    }
                } catch {
                    found = .failed(path: resolved, error)
                }
            } else {
                found = .missing
            }
            parents[path] = found
            return found
        }

        /// The home trash's facts, found once; nil when there is no home trash.
        private func homeTrash() -> Home? {
            if let home { return home }
            guard let path = trash.homeTrash else { return nil }
            let (device, existing) = Trash.nearestExisting(path)
            let found = Home(
                path: path, resolved: FileOperations.resolved(path), device: device,
                mount: existing.flatMap { FileOperations.resolved($0) }.flatMap { table.mount(containing: $0) })
            home = found
            return found
        }

        /// Why the home trash cannot be used once made with its `files/` and `info/`; nil when it can.
        private func homeProblem(_ directory: TrashDirectory) -> String? {
            if let known = problems[directory.path] { return known }
            var problem: String?
            do {
                try Trash.makeDirectories(directory.path)
                problem = try Trash.prepare(directory)
            } catch {
                problem = (error as? TrashError)?.message ?? (error as? SystemCallError)?.description ?? "\(error)"
            }
            problems[directory.path] = problem
            return problem
        }

        /// Why the user's own trash at `path` cannot be used once made; nil when it can.
        private func ownProblem(_ path: String, device: Int64) -> String? {
            if let known = problems[path] { return known }
            let problem = trash.makeOwnTrash(path, device: device)
            problems[path] = problem
            return problem
        }

        /// What `$topdir/.Trash` is at `top`, found once.
        private func sharedTrash(_ top: String) -> SharedTrash {
            if let known = shared[top] { return known }
            let found = trash.sharedTrash(top)
            shared[top] = found
            return found
        }
    }
}
