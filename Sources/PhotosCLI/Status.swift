import ArgumentParser
import Glibc
import Foundation
import Photos
import PhotosConfig
import PhotosStore
import PhotosWire

extension PhotosCommand {
    /// `photos status`: what photosd is doing with a library.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show what photosd is doing: roots (watching, polling, offline), watches, queue, totals, errors.")

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let location = try options.locate()
            let local = location.localPath
            let path = LibraryLocation.statusPath(forLibrary: local)
            // photosd's startup crawl, while it runs: the status file is written once it is done.
            if let progress = Self.startupProgress(library: local, statusPath: path) {
                if options.json {
                    try Output.jsonLine(progress)
                } else {
                    print("photosd starting (pid \(progress.pid)): \(progress.summary)")
                }
                return
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError("no status at \(path): photosd has not run on the library \(location)")
            }
            var status: DaemonStatus
            do {
                status = try DaemonStatus.read(from: path)
            } catch {
                throw CLIError("cannot read the status at \(path): \(error)")
            }
            // The hooks' cursors live in the library (any process can read them).
            if let database = try? LibraryDatabase(existingAt: location.path) { status.addHooks(from: database) }
            let running = kill(status.pid, 0) == 0
            status.running = running
            // The library cannot be used: say so, and exit 1 for scripts, after the status itself.
            let unavailable = status.library.map { $0.state != "available" } ?? false
            if options.json {
                try Output.jsonLine(status)
                if unavailable { throw ExitCode.failure }
                return
            }
            let updated = Date(timeIntervalSince1970: status.updatedAt)
            print(
                running
                    ? "photosd running (pid \(status.pid)), status of \(updated)"
                    : "photosd not running (pid \(status.pid)); its last status, of \(updated), says what it was doing")
            if let library = status.library, library.state != "available" {
                let retry = library.retryAt.map { " next try at \(Date(timeIntervalSince1970: $0))" } ?? ""
                print("library: \(library.state) after \(library.consecutiveFailures) failed scans;\(retry)")
                print("  \(library.reason ?? "unknown reason")")
            }
            Output.table(
                ["ROOT", running ? "STATE" : "LAST STATE", "REASON", "WRITE"],
                status.roots.map { root in
                    let write = root.write ?? "none"
                    return [
                        root.path, root.state, root.reason ?? "-",
                        root.writeRestriction.map { "\(write) (cannot: \($0))" } ?? write,
                    ]
                })
            print(
                "watches: \(status.watches) of \(status.watchBudget) allowed; \(status.unwatchedDirectories) directories not watched"
            )
            print("queue: \(status.queueDepth) changes waiting to settle")
            print(
                "since start: \(status.ingested) ingested, \(status.updated) updated, \(status.moved) moved, "
                    + "\(status.removed) removed, \(status.rejected) rejected"
                    + (status.rejected > 0 ? " (photos rejected says which and why)" : ""))
            if let startup = status.startup { print(startup.summary) }
            if !status.lastErrors.isEmpty {
                print("last errors:")
                for error in status.lastErrors { print("  \(Output.escaped(error))") }
            }
            if let hooks = status.hooks {
                print("hooks:")
                HookStatusTable.print(hooks)
            }
            if let thumbnails = status.thumbnails { print(Self.describe(thumbnails)) }
            if let imports = status.imports, !imports.isEmpty {
                print("imports:")
                ImportsCommand.table(imports)
            }
            if unavailable { throw ExitCode.failure }
        }

        /// The startup crawl's progress, when a photosd that is running is still crawling: its
        /// progress file names a live process, and the status file is not that process's yet.
        static func startupProgress(library: String, statusPath: String) -> StartupProgress? {
            let path = StartupProgress.path(forLibrary: library)
            guard FileManager.default.fileExists(atPath: path), let progress = try? StartupProgress.read(from: path),
                kill(progress.pid, 0) == 0
            else { return nil }
            if let status = try? DaemonStatus.read(from: statusPath), status.pid == progress.pid { return nil }
            return progress
        }

        /// The thumbnails' lines: what was made, and the cache.
        static func describe(_ thumbnails: ThumbnailStatus) -> String {
            func megabytes(_ bytes: Int) -> String { "\((bytes + (1 << 19)) >> 20) MB" }
            let sizes = thumbnails.sizes.map(String.init).joined(separator: ", ")
            let cache =
                thumbnails.bytes.map { "\(megabytes($0)) of \(megabytes(thumbnails.maximumBytes))" }
                ?? "not counted yet, bound \(megabytes(thumbnails.maximumBytes))"
            return "thumbnails (\(sizes) px): \(thumbnails.made) made, \(thumbnails.kept) kept already, "
                + "\(thumbnails.failed) failed; photos from before the start: \(thumbnails.photosAtStartDone) of "
                + "\(thumbnails.photosAtStart) done\n  cache: \(cache) in \(Output.escaped(thumbnails.directory))"
        }
    }
}
