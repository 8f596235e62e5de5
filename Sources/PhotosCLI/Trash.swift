import ArgumentParser
import Foundation
import Photos
import PhotosStore

/// `photos trash`: the assets in Recently Deleted, restoring them and erasing them for good.
struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "List, restore or erase deleted assets (Recently Deleted) and their files in the Trash.",
        subcommands: [List.self, Restore.self, Empty.self])

    /// One asset of Recently Deleted, as printed.
    static func lines(_ asset: TrashedAsset, library: PHPhotoLibrary) -> [[String]] {
        let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: asset.trashedDate))
        return asset.files.map { file in
            let place = file.trashName.map { file.trashDirectory + "/files/" + $0 } ?? "(not moved yet)"
            return [asset.localIdentifier, date, Output.escaped(file.path), Output.escaped(place)]
        }
    }

    /// The trashed assets `texts` name: identifiers, unique prefixes, or the original paths of their files.
    static func resolve(_ texts: [String], in library: PHPhotoLibrary) throws -> [String] {
        let trashed = try library.trashedAssets()
        var identifiers: [String] = []
        for text in texts {
            let absolute = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
            let byPath = trashed.filter { asset in
                asset.files.contains { $0.path == (absolute as NSString).standardizingPath }
            }
            let matches =
                byPath.isEmpty
                ? trashed.filter { $0.localIdentifier.lowercased().hasPrefix(text.lowercased()) } : byPath
            guard let first = matches.first else {
                throw CLIError("no asset \(Output.escaped(text)) in Recently Deleted (see photos trash list)")
            }
            guard matches.count == 1 else {
                throw CLIError(
                    "\(Output.escaped(text)) names several deleted assets: "
                        + matches.prefix(10).map(\.localIdentifier).joined(separator: ", "))
            }
            if !identifiers.contains(first.localIdentifier) { identifiers.append(first.localIdentifier) }
        }
        return identifiers
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the deleted assets: identifier, deletion date, each file's path and its place in the Trash."
        )

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let assets = try library.trashedAssets()
            if options.json {
                for asset in assets {
                    try Output.jsonLine(
                        TrashedAssetJSON(
                            localIdentifier: asset.localIdentifier,
                            deletionDate: ISO8601DateFormatter().string(
                                from: Date(timeIntervalSince1970: asset.trashedDate)),
                            files: asset.files.map { file in
                                .init(
                                    path: file.path,
                                    trashPath: file.trashName.map { file.trashDirectory + "/files/" + $0 })
                            }))
                }
                return
            }
            Output.table(["IDENTIFIER", "DELETED", "PATH", "IN TRASH"], assets.flatMap { lines($0, library: library) })
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move deleted assets' files back from the Trash; the assets return with their identifiers, "
                + "favorites and albums.")

        @OptionGroup var options: LibraryOptions

        @Flag(help: "Print which files would move back; change nothing.")
        var dryRun = false

        @Argument(
            help: ArgumentHelp(
                "Deleted assets: identifiers (or unique prefixes) or the original paths of their files.",
                valueName: "asset"))
        var assets: [String]

        func validate() throws {
            if assets.isEmpty { throw ValidationError("name at least one deleted asset to restore") }
        }

        func run() throws {
            let library = try options.open()
            let identifiers = try resolve(assets, in: library)
            let restored: [(String, [String])]
            do {
                restored = try library.restoreTrashedAssets(identifiers, dryRun: dryRun)
            } catch {
                throw CLIError("\(error)")
            }
            for (identifier, paths) in restored {
                for path in paths {
                    print("\(identifier)  \(dryRun ? "would restore" : "restored") \(Output.escaped(path))")
                }
            }
        }
    }

    struct Empty: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase deleted assets for good, with their files in the Trash (all of them, or those named).")

        @OptionGroup var options: LibraryOptions

        @Flag(help: "Print which files would be erased; change nothing.")
        var dryRun = false

        @Flag(help: "Only the assets deleted more than trash_days days ago.")
        var expired = false

        @Argument(
            help: ArgumentHelp("Deleted assets to erase (default: every one).", valueName: "asset"))
        var assets: [String] = []

        func run() throws {
            let library = try options.open()
            var chosen: [TrashedAsset]
            if assets.isEmpty {
                chosen = expired ? try library.expiredTrashedAssets() : try library.trashedAssets()
            } else {
                chosen = try library.trashedAssets(localIdentifiers: try resolve(assets, in: library))
                if expired {
                    let old = Set(try library.expiredTrashedAssets().map(\.assetId))
                    chosen = chosen.filter { old.contains($0.assetId) }
                }
            }
            let erased: [(String, [String])]
            do {
                erased = try library.eraseTrashedAssets(chosen, dryRun: dryRun)
            } catch {
                throw CLIError("\(error)")
            }
            for (identifier, paths) in erased {
                if paths.isEmpty {
                    print("\(identifier)  \(dryRun ? "would forget" : "forgot") (no file left in the Trash)")
                }
                for path in paths {
                    print("\(identifier)  \(dryRun ? "would erase" : "erased") \(Output.escaped(path))")
                }
            }
        }
    }
}

/// A deleted asset in `photos trash list --json`.
struct TrashedAssetJSON: Encodable {
    struct File: Encodable {
        var path: String
        var trashPath: String?
    }
    var localIdentifier: String
    var deletionDate: String
    var files: [File]
}
