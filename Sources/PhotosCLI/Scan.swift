import ArgumentParser
import Foundation
import Synchronization
import Glibc
import Photos
import PhotosConfig
import PhotosIngest
import PhotosStore
import PhotosWire

extension PhotosCommand {
    /// `photos scan`: make the library match directories on disk, once.
    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Crawl directories and make the library match them: assets, folders and albums.",
            discussion: """
                Each root becomes a folder; each directory holding media an album; a directory holding \
                such directories a folder. Rescanning reads only new or changed files (a stat per file), \
                keeps identifiers, favorites and albums of files that moved, and never removes another \
                root's assets. A root that cannot be read is marked offline, not emptied; a directory \
                that exists but cannot be listed keeps its assets, albums and folders, unavailable. XMP \
                sidecars that other tools wrote or changed beside known photos are merged into their assets. \
                Creates the library if it does not exist, and then gives it back what the roots keep of \
                a library before it, as photos rebuild does: identifiers, user albums and edits.
                """)

        @Option(
            name: .long,
            help: ArgumentHelp("The library file, or a postgresql:// URL (created if missing).", valueName: "file"))
        var library: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "photosd's config file, for its library (default: $XDG_CONFIG_HOME/photosd/config.toml).",
                valueName: "file"))
        var config: String?

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @Option(
            name: .customLong("time-zone"),
            help: ArgumentHelp(
                "The time zone for file dates that carry no UTC offset (default: the config's time_zone, "
                    + "else the system's).",
                valueName: "identifier"))
        var timeZone: String?

        @Argument(help: ArgumentHelp("Directories to scan.", valueName: "root"))
        var roots: [String]

        func validate() throws {
            guard !roots.isEmpty else { throw ValidationError("name at least one directory to scan") }
            try PathArguments.requireNonEmpty(roots, "a directory to scan")
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("unknown time zone '\(timeZone)' (use an identifier such as Europe/Paris)")
            }
        }

        func run() throws {
            let configFile: (file: ConfigFile?, path: String)
            do {
                configFile = try ConfigFile.load(named: config)
            } catch {
                throw CLIError("\(error)")
            }
            let location = LibraryOptions.locate(library: library, config: configFile)
            let database: LibraryDatabase
            do {
                database = try LibraryDatabase(location: location.path)
            } catch {
                throw CLIError("cannot open the library at \(location): \(error)")
            }
            let interactive = isatty(STDERR_FILENO) == 1
            let start = ContinuousClock.now
            let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? LibraryOptions.timeZone(configFile.file)
            // Told after every directory: shown at most ten times a second.
            let shown = Mutex(start)
            let report = try FolderScanner(database: database, timeZone: zone).scan(roots: roots) { progress in
                let now = ContinuousClock.now
                guard interactive,
                    shown.withLock({ shown in
                        guard now - shown >= .milliseconds(100) else { return false }
                        shown = now
                        return true
                    })
                else { return }
                let seconds =
                    Double((now - start).components.attoseconds) / 1e18 + Double((now - start).components.seconds)
                let rate = seconds > 0 ? Int(Double(progress.seen) / seconds) : 0
                FileHandle.standardError.write(
                    Data(
                        ("\r\(progress.directoriesDone)/\(progress.directories) folders, \(progress.seen) seen, "
                            + "\(progress.read) read, \(progress.ingested) ingested, \(progress.rejected) rejected, "
                            + "\(rate) files/s   ").utf8))
            }
            if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            // What other tools wrote into the sidecars of known photos is taken, as photosd takes it;
            // a sidecar is written back only under a root whose config allows it.
            let policies = LibraryRoots(configFile.file?.libraryRoots ?? [])
            let sync = SidecarSync(database: database, timeZone: zone).batched()
            for sidecar in report.sidecarsToSync {
                do {
                    _ = try sync.syncChangedSidecar(at: sidecar) { policies.policy(for: $0) != .none }
                } catch {
                    FileHandle.standardError.write(
                        Data("cannot merge the sidecar \(Output.escaped(sidecar)): \(error)\n".utf8))
                }
            }
            let mayWrite = { (path: String) in policies.policy(for: path) != .none }
            for (file, outcome) in sync.syncMovedPhotos(at: report.movedFiles, mayWrite: mayWrite)
                + sync.syncJoinedPhotos(at: report.joinedPhotos, mayWrite: mayWrite)
            {
                if case .failure(let error) = outcome {
                    FileHandle.standardError.write(
                        Data("cannot write the sidecar of \(Output.escaped(file)): \(error)\n".utf8))
                }
            }
            // A library this scan made takes back what the roots keep of the one before it, as a rebuild
            // does: its photos' identifiers from the identifier logs, its user albums from the manifests.
            // Otherwise the catch-up below would write the new identifiers over the logged ones.
            if database.isNew { restoreFromRoots(database, at: location.path, timeZone: zone) }
            // Each root that keeps user state notes where its photos now are, under which identifiers,
            // so that a rebuild gives them back (after the scan's commits, never inside them).
            for outcome in IdentifierLogSync(database: database).catchUp(policies) {
                if let error = outcome.error {
                    FileHandle.standardError.write(
                        Data("cannot write the identifier log of \(Output.escaped(outcome.root)): \(error)\n".utf8))
                }
            }
            // A root that cannot be read (mistyped, not mounted) was not scanned: the others were
            // committed, and the exit status says that one was not.
            let failed = report.offlineRoots.isEmpty ? nil : ExitCode(1)
            // A root the library knows is kept, offline; a path it never read is no root of it.
            let known = report.offlineRoots.isEmpty ? [] : Set((try? database.rootPaths()) ?? [])
            func offline(_ root: String) -> String {
                known.contains(root)
                    ? "offline: \(Output.escaped(root)) \(Self.why(root)); its assets are kept\n"
                    : "not scanned: \(Output.escaped(root)) \(Self.why(root)) (it is not made a root)\n"
            }
            if json {
                try Output.jsonLine(report)
                for root in report.offlineRoots { FileHandle.standardError.write(Data(offline(root).utf8)) }
                if let failed { throw failed }
                return
            }
            let elapsed = ContinuousClock.now - start
            // Deleted assets whose files are back (another tool's restore), said only when there are.
            let restored = report.restored > 0 ? ", \(report.restored) restored from the Trash" : ""
            FileHandle.standardError.write(
                Data(
                    """
                    scanned \(report.seen) files in \(elapsed): \(report.ingested) ingested, \(report.updated) updated, \
                    \(report.moved) moved, \(report.removed) removed, \(report.rejected) rejected, \
                    \(report.unchanged) unchanged, \(report.skipped) not media\(restored)

                    """.utf8))
            if !report.stillChanging.isEmpty {
                FileHandle.standardError.write(
                    Data("\(report.stillChanging.count) files were still being written; scan again later:\n".utf8))
                for path in report.stillChanging.prefix(10) {
                    FileHandle.standardError.write(Data("  \(Output.escaped(path))\n".utf8))
                }
            }
            for root in report.offlineRoots { FileHandle.standardError.write(Data(offline(root).utf8)) }
            for directory in report.unreadableDirectories {
                FileHandle.standardError.write(
                    Data(
                        ("unreadable: \(Output.escaped(directory.path)) (\(directory.reason)); its assets, albums and "
                            + "folders are kept, unavailable, until it can be read\n").utf8))
            }
            if report.rejected > 0 {
                FileHandle.standardError.write(
                    Data("see `photos rejected` for the files that could not be read\n".utf8))
            }
            if let failed { throw failed }
        }

        /// Gives a library this scan made the identifiers of the roots' identifier logs, the user
        /// albums and folders of their manifests and the edits its folder keeps; says on standard
        /// error what could not be read.
        private func restoreFromRoots(_ database: LibraryDatabase, at path: String, timeZone zone: TimeZone) {
            let roots = self.roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            do {
                let identifiers = try IdentifierLogSync(database: database).restore(from: roots)
                for problem in identifiers.unreadable {
                    FileHandle.standardError.write(
                        Data("cannot read the identifier log \(problem); it is left as it is\n".utf8))
                }
                _ = try ManifestSync(database: database).restore(from: roots)
                let edits = try EditRestore.restore(
                    into: database, importDirectory: PHPhotoLibrary.defaultImportDirectory(forLibraryAt: path),
                    timeZone: zone)
                for problem in edits.skipped {
                    FileHandle.standardError.write(Data("cannot bring back the edit in \(problem)\n".utf8))
                }
            } catch {
                FileHandle.standardError.write(
                    Data("cannot bring back the identifiers and albums the roots keep: \(error)\n".utf8))
            }
        }

        /// Why a root could not be scanned, in words: "does not exist", "is not a directory", "cannot be read".
        static func why(_ root: String) -> String {
            var info = stat()
            guard stat(root, &info) == 0 else {
                return errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))"
            }
            return info.st_mode & S_IFMT == S_IFDIR ? "cannot be read" : "is not a directory"
        }
    }

    /// `photos duplicates`: groups of assets whose files have identical content.
    struct Duplicates: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "duplicates",
            abstract: "List groups of assets whose files have identical content.",
            discussion: """
                Files that share a size with another file are hashed (once; the hash is kept) and compared.
                """)

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            try FolderScanner(database: library.database).updateContentHashes()
            let groups = try library.database.duplicateGroups()
            if options.json {
                for group in groups {
                    try Output.jsonLine(group.map { ["localIdentifier": $0.assetLocalIdentifier, "path": $0.path] })
                }
                return
            }
            for (index, group) in groups.enumerated() {
                if index > 0 { print() }
                for member in group { print("\(member.assetLocalIdentifier)  \(Output.escaped(member.path))") }
            }
        }
    }

    /// `photos rejected`: the files that looked like media but could not be read.
    struct Rejected: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rejected",
            abstract: "List files that look like media but could not be read, with the reason.")

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let files = try library.database.rejectedFiles()
            if options.json {
                for file in files {
                    try Output.jsonLine(API.RejectedFile(file))
                }
                return
            }
            Output.table(["PATH", "CODE", "REASON"], files.map { [$0.path, $0.code, $0.reason] })
        }
    }
}
