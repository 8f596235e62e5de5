import ArgumentParser
import Foundation
import Photos
import Glibc
import PhotosConfig
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosStore

extension PhotosCommand {
    /// `photos rebuild [--dry-run] [ROOT...]`: makes the library again from the disk alone.
    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Make the library again from the disk alone: the roots, their sidecars and album manifests.",
            discussion: """
                Scans the roots (the config's, or those named) into a new library: each photo gets back \
                the identifier, favorite, hidden flag, rating, date and place its XMP sidecar keeps (a photo \
                without one gets back the identifier its root's .photosd-identifiers names for its path), and \
                the user albums and folders come back from each root's .photosd-albums.json with their \
                identifiers, titles, nesting, order and photos; edits come back when the library's folder \
                kept them (Imports/.edits beside the library file). Live Photos, RAW+JPEG pairs and bursts \
                are found from the files as a scan finds them. The old library file, if any, is kept \
                beside the new one as LIBRARY.before-rebuild. With --dry-run, says what the rebuilt \
                library would hold and changes nothing. photosd must not be serving the library.
                """)

        @Option(name: .long, help: ArgumentHelp("The library file to rebuild.", valueName: "file"))
        var library: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "photosd's config file, for its library and roots (default: $XDG_CONFIG_HOME/photosd/config.toml).",
                valueName: "file"))
        var config: String?

        @Flag(name: .customLong("dry-run"), help: "Say what the rebuilt library would hold; write nothing.")
        var dryRun = false

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @Argument(help: ArgumentHelp("Roots to rebuild from (default: the config's roots).", valueName: "root"))
        var roots: [String] = []

        func validate() throws { try PathArguments.requireNonEmpty(roots, "a root to rebuild from") }

        /// What a rebuild made.
        struct Summary: Encodable {
            var library: String
            var dryRun: Bool
            var assets: Int
            var fromSidecars: Int
            var fromIdentifierLogs: Int
            var edits: Int
            var favorites: Int
            var hidden: Int
            var rated: Int
            var userAlbums: Int
            var userFolders: Int
            var missingAlbumAssets: Int
            var rejected: Int
            var offlineRoots: [String]
            var keptAs: String?
        }

        func run() throws {
            let configFile: (file: ConfigFile?, path: String)
            do {
                configFile = try ConfigFile.load(named: config)
            } catch {
                throw CLIError("\(error)")
            }
            let location = LibraryOptions.locate(library: library, config: configFile)
            let roots =
                self.roots.isEmpty
                ? (configFile.file?.libraryRoots.map(\.path) ?? [])
                : self.roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            guard !roots.isEmpty else {
                throw CLIError(
                    "no roots to rebuild from: name them (photos rebuild DIR...) or list them in \(configFile.path)")
            }
            guard !LibraryDatabase.isPostgreSQL(location.path) else {
                throw CLIError(
                    "a rebuild replaces a library file, and \(location) is kept in PostgreSQL: rebuild into a file "
                        + "(--library FILE) and copy it there with `photos library copy FILE URL`")
            }
            let socket = DaemonOptions.usualSocket(configFile.file)
            if DaemonOptions.servedLibrary(socket: socket) == location.path {
                throw CLIError(
                    "photosd is serving \(location.path) (\(socket)); stop it first: the rebuild replaces the file")
            }
            let target = location.path
            // photosd's own lock on the library, held until the new file is in place: a photosd
            // serving it without a socket is found, and none starts on the file being replaced.
            let lock: DaemonLock?
            do {
                lock = dryRun ? nil : try DaemonLock.acquire(forLibrary: target, holder: "photos rebuild")
            } catch {
                guard case .held = error.code else { throw CLIError("\(error)") }
                throw CLIError(
                    "\(error.holder)\(error.pid.map { " (pid \($0))" } ?? "") is serving \(target); stop it first: the "
                        + "rebuild replaces the file")
            }
            defer { withExtendedLifetime(lock) {} }
            // A root that cannot be read (a drive not mounted, a misspelt name) would be rebuilt empty:
            // the library is replaced only by one made from every root it is to hold.
            if !dryRun, let (root, reason) = Self.unreadableRoot(roots) {
                throw CLIError(
                    "cannot read the root \(Output.escaped(root)) (\(reason)): nothing was rebuilt, \(target) is as "
                        + "it was; mount it, or name the roots to rebuild from without it (photos rebuild ROOT...)")
            }
            let directory = (target as NSString).deletingLastPathComponent
            let prefix = "." + (target as NSString).lastPathComponent + ".rebuild-"
            Self.removeAbandonedRebuilds(in: directory, prefix: prefix)
            let temporary = directory + "/" + prefix + "\(getpid())"
            defer { Self.removeDatabase(at: temporary) }
            let summary = try build(
                at: temporary, from: roots, zone: LibraryOptions.timeZone(configFile.file),
                policies: LibraryRoots(configFile.file?.libraryRoots ?? []), historyAfter: Self.historyStart())
            var result = summary
            result.library = target
            result.dryRun = dryRun
            // A root that went away during the scan leaves the library as it was, too.
            if !dryRun, let root = summary.offlineRoots.first {
                throw CLIError(
                    "the root \(Output.escaped(root)) could not be read: nothing was rebuilt, \(target) is as it was")
            }
            if !dryRun {
                result.keptAs = try Self.replace(target, with: temporary)
            }
            try report(result)
            if !summary.offlineRoots.isEmpty { throw ExitCode(1) }
        }

        /// The first of `roots` that is not a directory this process can list, with why.
        static func unreadableRoot(_ roots: [String]) -> (root: String, reason: String)? {
            for root in roots {
                do {
                    guard FileOperations.isDirectory(root, followingLinks: true) else {
                        return (
                            root, FileManager.default.fileExists(atPath: root) ? "not a directory" : "no such directory"
                        )
                    }
                    _ = try FileOperations.names(in: root)
                } catch {
                    return (root, "\(error)")
                }
            }
            return nil
        }

        /// The token a rebuilt library's history starts after: the milliseconds since 1970, past
        /// every token a program may have kept of the library it replaces (lost, damaged, or
        /// never read: opening it could write to it), whose tokens count its commits from 1, or
        /// from an earlier rebuild's start, and no library commits once a millisecond for long.
        static func historyStart(now: Date = Date()) -> Int64 {
            Int64(now.timeIntervalSince1970 * 1000)
        }

        /// Scans `roots` into a new library at `path` and brings back their photos' identifiers, their
        /// user albums and the edits the library's folder keeps; unless a dry run, writes the identifier logs of the roots that keep user
        /// state (`policies`) from the new library.
        private func build(
            at path: String, from roots: [String], zone: TimeZone, policies: LibraryRoots, historyAfter token: Int64
        ) throws -> Summary {
            let database: LibraryDatabase
            do {
                database = try LibraryDatabase(path: path)
                try database.startHistory(after: token)
            } catch {
                throw CLIError("cannot make a library at \(path): \(error)")
            }
            let scan: ScanReport
            let restored: ManifestSync.Restored
            let identifiers: IdentifierLogSync.Restored
            let edits: EditRestore.Restored
            do {
                scan = try FolderScanner(database: database, timeZone: zone).scan(roots: roots)
                identifiers = try IdentifierLogSync(database: database).restore(from: roots)
                restored = try ManifestSync(database: database).restore(from: roots)
                // The edits are named by the identifiers just given back; the import folder is the
                // library's, beside the file this rebuild replaces.
                edits = try EditRestore.restore(
                    into: database, importDirectory: PHPhotoLibrary.defaultImportDirectory(forLibraryAt: path),
                    timeZone: zone)
            } catch {
                throw CLIError("\(error)")
            }
            for problem in identifiers.unreadable {
                FileHandle.standardError.write(
                    Data("cannot read the identifier log \(problem); it is left as it is\n".utf8))
            }
            for problem in edits.skipped {
                FileHandle.standardError.write(Data("cannot bring back the edit in \(problem)\n".utf8))
            }
            if !dryRun {
                for outcome in IdentifierLogSync(database: database).catchUp(policies) {
                    if let error = outcome.error {
                        FileHandle.standardError.write(
                            Data("cannot write the identifier log of \(Output.escaped(outcome.root)): \(error)\n".utf8))
                    }
                }
            }
            let counts = try database.userStateCounts()
            return Summary(
                library: path, dryRun: dryRun, assets: counts.assets, fromSidecars: counts.withSidecars,
                fromIdentifierLogs: identifiers.identifiers, edits: edits.edits,
                favorites: counts.favorites, hidden: counts.hidden, rated: counts.rated,
                userAlbums: restored.albums, userFolders: restored.folders, missingAlbumAssets: restored.missingAssets,
                rejected: scan.rejected, offlineRoots: scan.offlineRoots, keptAs: nil)
        }

        private func report(_ summary: Summary) throws {
            if json {
                try Output.jsonLine(summary)
                return
            }
            let verb = summary.dryRun ? "would rebuild" : "rebuilt"
            print(
                "\(verb) \(Output.escaped(summary.library)): \(summary.assets) assets (\(summary.fromSidecars) with a "
                    + "sidecar), \(summary.favorites) favorites, \(summary.hidden) hidden, \(summary.rated) rated, "
                    + "\(summary.userAlbums) user albums, \(summary.userFolders) user folders")
            if summary.fromIdentifierLogs > 0 {
                print("\(summary.fromIdentifierLogs) identifiers came back from the roots' identifier logs")
            }
            if summary.edits > 0 {
                print("\(summary.edits) edit\(summary.edits == 1 ? "" : "s") came back from the library's folder")
            }
            if summary.missingAlbumAssets > 0 {
                print(
                    "\(summary.missingAlbumAssets) photos of user albums were not found on disk and are left out")
            }
            if summary.rejected > 0 { print("\(summary.rejected) files could not be read: see `photos rejected`") }
            for root in summary.offlineRoots {
                FileHandle.standardError.write(Data("offline: \(Output.escaped(root)) was not rebuilt\n".utf8))
            }
            if let kept = summary.keptAs { print("the old library is kept as \(Output.escaped(kept))") }
            if summary.dryRun { print("nothing was written (--dry-run)") }
        }

        /// Puts the rebuilt library at `target`, keeping the old one (and its WAL) beside it under a
        /// name nothing has; returns that name, or nil when there was no library.
        static func replace(_ target: String, with rebuilt: String) throws -> String? {
            var kept: String?
            // The old library, and a WAL left without it (SQLite would replay it into the new file):
            // moved aside together under a name nothing has, never removed.
            let present = try ["", "-wal", "-shm"].filter { try FileOperations.identity(target + $0) != nil }
            if !present.isEmpty {
                var name = target + ".before-rebuild"
                var suffix = 2
                while try ["", "-wal", "-shm"].contains(where: { try FileOperations.identity(name + $0) != nil }) {
                    name = target + ".before-rebuild-\(suffix)"
                    suffix += 1
                }
                for extra in present { try FileOperations.renameIfAbsent(target + extra, name + extra) }
                kept = name
            }
            // Its WAL too, should the last connection have left one: it holds committed pages.
            for extra in ["-wal", "-shm"] where (try FileOperations.identity(rebuilt + extra)) != nil {
                try FileOperations.renameIfAbsent(rebuilt + extra, target + extra)
            }
            try FileOperations.renameIfAbsent(rebuilt, target)
            try FileOperations.sync((target as NSString).deletingLastPathComponent, directory: true)
            return kept
        }

        /// Removes a library file this command made, with its WAL and shared memory, if still there.
        static func removeDatabase(at path: String) {
            for name in [path, path + "-wal", path + "-shm", path + "-journal"] { try? FileOperations.unlink(name) }
        }

        /// Removes the libraries rebuilds that were stopped (killed, the machine off) left in
        /// `directory` (`prefix` then their pid, and their `-wal`, `-shm` and `-journal`): a
        /// process that is gone finishes nothing there. A running one's is left alone.
        static func removeAbandonedRebuilds(in directory: String, prefix: String) {
            guard let names = try? FileOperations.names(in: directory) else { return }
            for name in names where name.hasPrefix(prefix) {
                let rest = name.dropFirst(prefix.count)
                let digits = rest.prefix(while: \.isNumber)
                guard let pid = Int64(digits),
                    ["", "-wal", "-shm", "-journal"].contains(String(rest.dropFirst(digits.count))),
                    !FileOperations.processIsAlive(pid)
                else { continue }
                try? FileOperations.unlink(directory + "/" + name)
            }
        }
    }
}
