import ArgumentParser
import Foundation
import Photos
import PhotosClient
import PhotosStore
import PhotosWire

/// `photos trash`: the assets in Recently Deleted, restoring them and erasing them for good.
struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "List, restore or erase deleted assets (Recently Deleted) and their files in the Trash.",
        subcommands: [List.self, Restore.self, Empty.self])

    /// One asset of Recently Deleted, as printed: a line per file (the table escapes each cell).
    static func lines(_ asset: API.TrashedAsset) -> [[String]] {
        asset.files.map { file in
            [asset.localIdentifier, asset.deletionDate, file.path, file.trashPath ?? "(not moved yet)"]
        }
    }

    /// Sends a restore or an empty to photosd (`POST /v1/trash/restore` or `/empty`), which moves
    /// the files with its own Trash and roots; its errors are the API's words. A restore some of whose
    /// assets could not come back answers what it did all the same (``API/TrashRestoreFailure``):
    /// that result is returned, its failures in it.
    static func submit(_ request: API.TrashRequest, to path: String, _ source: DaemonSource) throws -> API.TrashResult {
        let reply = try APIConnection.request(
            source.socket, "POST", path,
            headers: source.authorization.merging(["Content-Type": "application/json"]) { $1 },
            body: Array(try JSONEncoder().encode(request)), trusting: source.peers)
        guard reply.status == 200 else {
            if let partial = try? JSONDecoder().decode(API.TrashRestoreFailure.self, from: Data(reply.body)),
                partial.result.failed?.isEmpty == false
            {
                return partial.result
            }
            throw CLIError(reply.errorMessage)
        }
        return try JSONDecoder().decode(API.TrashResult.self, from: Data(reply.body))
    }

    /// The trashed assets `texts` name: identifiers, unique prefixes, or the original paths of their
    /// files. With `orInLibrary`, a text that names no trashed asset may name an asset of the library
    /// (restored already: a restore run again), as ``ObjectResolver`` reads it; it is an error only
    /// when it names neither.
    static func resolve(_ arguments: [String], in library: PHPhotoLibrary, orInLibrary: Bool = false) throws
        -> [String]
    {
        let texts = try StandardInputList.expanding(arguments)
        let trashed = try library.trashedAssets()
        // Indexed once: a restore of thousands names each by its path or its whole identifier.
        var byPath: [String: [Int]] = [:]
        var byIdentifier: [String: Int] = [:]
        for (index, asset) in trashed.enumerated() {
            byIdentifier[asset.localIdentifier.lowercased()] = index
            for path in Set(asset.files.map(\.path)) { byPath[path, default: []].append(index) }
        }
        // Each text's identifier, or nil for one that names no trashed asset (looked up in the
        // library afterwards, all at once: a rerun of a restore of thousands names them so).
        var resolved: [String?] = []
        for text in texts {
            let absolute = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
            let lowered = text.lowercased()
            let matches =
                if let indexes = byPath[(absolute as NSString).standardizingPath] {
                    indexes.map { trashed[$0] }
                } else if let index = byIdentifier[lowered] {
                    [trashed[index]]
                } else {
                    trashed.filter { $0.localIdentifier.lowercased().hasPrefix(lowered) }
                }
            guard let first = matches.first else {
                guard orInLibrary else {
                    throw CLIError("no asset \(Output.escaped(text)) in Recently Deleted (see photos trash list)")
                }
                resolved.append(nil)
                continue
            }
            guard matches.count == 1 else {
                throw CLIError(
                    "\(Output.escaped(text)) names several deleted assets: "
                        + matches.prefix(10).map(\.localIdentifier).joined(separator: ", "))
            }
            resolved.append(first.localIdentifier)
        }
        let others = zip(texts, resolved).compactMap { $1 == nil ? $0 : nil }
        var inLibrary: [String] = []
        if !others.isEmpty {
            let resolver = ObjectResolver(.library(library))
            do {
                inLibrary = try resolver.assets(others)
            } catch {
                // Named as the restore names it: the first text that names no asset at all.
                let unknown = others.first { (try? resolver.asset($0)) == nil } ?? others[0]
                throw CLIError(
                    "no asset \(Output.escaped(unknown)) in Recently Deleted (see photos trash list), nor in the "
                        + "library: \(error)")
            }
        }
        var identifiers: [String] = []
        var seen: Set<String> = []
        var next = inLibrary.makeIterator()
        for identifier in resolved {
            guard let identifier = identifier ?? next.next() else { continue }
            if seen.insert(identifier).inserted { identifiers.append(identifier) }
        }
        return identifiers
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the deleted assets: identifier, deletion date, each file's path and its place in the Trash."
        )

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        func run() throws {
            // The latest deletion first, as the smart album lists them; through photosd when it
            // serves this library (GET /v1/trash), else from the file: the same shape either way.
            let assets: [API.TrashedAsset]
            if let source = try daemon.daemon(for: options) {
                let reply = try APIConnection.request(
                    source.socket, "GET", "/v1/trash", headers: source.authorization, trusting: source.peers)
                guard reply.status == 200 else { throw CLIError(reply.errorMessage) }
                assets = try JSONDecoder().decode(API.TrashListing.self, from: Data(reply.body)).assets
            } else {
                assets = try options.open().trashedAssets().reversed().map(API.TrashedAsset.init)
            }
            if options.json {
                for asset in assets { try Output.jsonLine(asset) }
                return
            }
            Output.table(["IDENTIFIER", "DELETED", "PATH", "IN TRASH"], assets.flatMap(lines))
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Move deleted assets' files back from the Trash; the assets return with their identifiers, "
                + "favorites and albums.")

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Flag(help: "Print which files would move back; change nothing.")
        var dryRun = false

        @Argument(
            help: ArgumentHelp(
                "Deleted assets: identifiers (or unique prefixes) or the original paths of their files; - reads "
                    + "them from standard input, one a line.",
                valueName: "asset"))
        var assets: [String]

        func validate() throws {
            if assets.isEmpty { throw ValidationError("name at least one deleted asset to restore") }
        }

        func run() throws {
            let library = try options.open()
            // An asset back in the library already (this restore run again, once what stopped it is
            // fixed) is said so, and the rest restored.
            let identifiers = try resolve(assets, in: library, orInLibrary: true)
            let restored: API.TrashResult
            // Through photosd when it serves this library (its roots and its Trash), else the file.
            if let source = try daemon.daemon(for: options) {
                restored = try submit(
                    API.TrashRequest(identifiers: identifiers, dryRun: dryRun), to: "/v1/trash/restore", source)
            } else {
                do {
                    restored = API.TrashResult(
                        dryRun: dryRun, restore: try library.restoreFromTrash(identifiers, dryRun: dryRun))
                } catch {
                    throw CLIError("\(error)")
                }
            }
            try report(restored)
        }

        /// Prints what the restore did, asset by asset, then fails if an asset could not come back:
        /// what was restored is said either way.
        func report(_ restored: API.TrashResult) throws {
            for identifier in restored.alreadyRestored ?? [] {
                let reason = "already restored: not in Recently Deleted, it is in the library"
                if options.json {
                    try Output.jsonLine(
                        FileActionLine(action: "skip", localIdentifier: identifier, reason: reason, dryRun: dryRun))
                } else {
                    print("\(identifier)  \(reason)")
                }
            }
            for asset in restored.assets {
                for path in asset.files {
                    if options.json {
                        try Output.jsonLine(
                            FileActionLine(
                                action: "restore", localIdentifier: asset.localIdentifier, to: path, dryRun: dryRun))
                    } else {
                        print(
                            "\(asset.localIdentifier)  \(dryRun ? "would restore" : "restored") \(Output.escaped(path))"
                        )
                    }
                }
            }
            let failed = restored.failed ?? []
            for failure in failed {
                if options.json {
                    try Output.jsonLine(
                        FileActionLine(
                            action: "leave", localIdentifier: failure.localIdentifier, from: failure.trashPath,
                            to: failure.path, reason: failure.error.message, dryRun: dryRun))
                } else if failed.count > 1 {
                    // Each one named; the error at the end counts them.
                    let line = "\(failure.localIdentifier)  not restored: \(Output.escaped(failure.error.message))\n"
                    FileHandle.standardError.write(Data(line.utf8))
                }
            }
            guard let first = failed.first else { return }
            guard failed.count > 1 else { throw CLIError(first.error.message) }
            throw CLIError(
                "\(failed.count) of the assets were not restored and stay in Recently Deleted; the first: "
                    + first.error.message)
        }
    }

    struct Empty: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "empty",
            abstract: "Erase deleted assets for good, with their files in the Trash (all of them, or those named).")

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Flag(help: "Print which files would be erased; change nothing.")
        var dryRun = false

        @Flag(help: "Only the assets deleted more than trash_days days ago.")
        var expired = false

        @Argument(
            help: ArgumentHelp(
                "Deleted assets to erase (default: every one); - reads them from standard input, one a line.",
                valueName: "asset"))
        var assets: [String] = []

        func run() throws {
            let library = try options.open()
            var chosen: [TrashedAsset]
            if assets.isEmpty {
                chosen = expired ? try library.expiredTrashedAssets() : try library.trashedAssetsHere()
            } else {
                chosen = try library.trashedAssets(localIdentifiers: try resolve(assets, in: library))
                if expired {
                    let old = Set(try library.expiredTrashedAssets().map(\.assetId))
                    chosen = chosen.filter { old.contains($0.assetId) }
                }
            }
            guard !chosen.isEmpty else { return }
            let erased: API.TrashResult
            // Through photosd when it serves this library, naming the assets chosen here: one deleted
            // meanwhile is not erased unseen.
            if let source = try daemon.daemon(for: options) {
                erased = try submit(
                    API.TrashRequest(identifiers: chosen.map(\.localIdentifier), dryRun: dryRun), to: "/v1/trash/empty",
                    source)
            } else {
                do {
                    erased = API.TrashResult(
                        dryRun: dryRun, handled: try library.eraseTrashedAssets(chosen, dryRun: dryRun))
                } catch {
                    throw CLIError("\(error)")
                }
            }
            let handled = Set(erased.assets.map(\.localIdentifier))
            for asset in chosen where !handled.contains(asset.localIdentifier) {
                let reason =
                    "a photo or movie of it is back at its path (a restore that stopped, or another tool's), "
                    + "so it is not erased"
                if options.json {
                    try Output.jsonLine(
                        FileActionLine(
                            action: "keep", localIdentifier: asset.localIdentifier, reason: reason, dryRun: dryRun))
                } else {
                    print(
                        "\(asset.localIdentifier)  kept: \(reason); photos trash restore \(asset.localIdentifier) "
                            + "brings it back")
                }
            }
            for asset in erased.assets {
                let identifier = asset.localIdentifier
                if options.json {
                    if asset.files.isEmpty {
                        try Output.jsonLine(
                            FileActionLine(
                                action: "forget", localIdentifier: identifier, reason: "no file left in the Trash",
                                dryRun: dryRun))
                    }
                    for path in asset.files {
                        try Output.jsonLine(
                            FileActionLine(action: "erase", localIdentifier: identifier, from: path, dryRun: dryRun))
                    }
                    continue
                }
                if asset.files.isEmpty {
                    print("\(identifier)  \(dryRun ? "would forget" : "forgot") (no file left in the Trash)")
                }
                for path in asset.files {
                    print("\(identifier)  \(dryRun ? "would erase" : "erased") \(Output.escaped(path))")
                }
            }
        }
    }
}
