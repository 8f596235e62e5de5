import ArgumentParser
import Foundation
import Photos
import PhotosClient
import PhotosCore
import PhotosStore
import PhotosWire

extension PhotosCommand {
    /// `photos changes`: print the library's change log.
    struct Changes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "changes",
            abstract: "Print change-log entries: what each committed change inserted, updated and deleted.",
            discussion: """
                Each entry has a token; pass the last one you saw to --since to resume. Without --since, \
                the whole log is printed, or, with --follow, what is committed from now on (as tail -f).
                Without --json, one tab-separated line per object changed:
                  TOKEN  TIME  inserted|updated|deleted  asset|album|folder  IDENTIFIER  PATH  [PROPERTIES]
                TIME is the commit's (ISO 8601, in the config's time_zone, else the system's); PATH is the \
                asset's first file or the album's or folder's directory (a deleted object's last one; - \
                when there is none, or for a deletion read through photosd); PROPERTIES, for an update, \
                the properties that changed.
                """)

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        // Unconditional: `--since -1` is a value to refuse with its reason, not a missing one.
        @Option(
            parsing: .unconditional,
            help: "Only entries after this token (default: from the start; with --follow, from now).")
        var since: Int64?

        @Flag(help: "Keep running and print new entries as they are committed (by any process).")
        var follow = false

        func validate() throws {
            if let since, since < 0 { throw ValidationError("--since takes a token: a whole number from 0") }
        }

        func run() async throws {
            if let source = try daemon.daemon(for: options) { return try run(through: source) }
            let library = try options.open()
            let lines = ChangeLines(zone: library.configuration.timeZone, paths: ChangeLines.paths(in: library))
            func print(_ entry: LibraryChange) throws {
                if options.json { return try Output.jsonLine(entry) }
                try lines.print(entry)
            }
            do {
                guard follow else {
                    for entry in try library.database.changes(after: since ?? 0) { try print(entry) }
                    return
                }
                unblockTerminationSignals()
                let start = try since ?? library.database.currentToken()
                for try await entry in library.database.changeFeed(after: start) {
                    try print(entry)
                    // A reader at the other end of a pipe sees each entry as it comes (nil: every stream).
                    fflush(nil)
                }
            } catch let error as StoreError where error.code == .historyExpired {
                let code = PHPhotosError.Code.persistentChangeTokenExpired.rawValue
                throw CLIError("\(error.message) (error \(code))")
            }
        }

        /// The same entries, asked of photosd (its change feed, for --follow).
        ///
        /// Following, from a token known at the start (the newest, without --since): when photosd
        /// stops or restarts, the stream ends, and the follower says so on standard error, waits for
        /// photosd to listen again and resumes after the last entry it printed: nothing is missed or
        /// printed twice across a restart, as when it reads the library file.
        func run(through source: DaemonSource) throws {
            let decoder = JSONDecoder()
            let lines =
                options.json
                ? nil
                : ChangeLines(
                    zone: LibraryOptions.timeZone(try options.configFile().file),
                    paths: ChangeLines.paths(through: source))
            guard follow else {
                // Without --since, the whole log; JSON as photosd wrote it.
                try source.eachLine("/v1/changes", since.map { [("since", "\($0)")] } ?? []) { line in
                    if let lines {
                        try lines.print(try decoder.decode(LibraryChange.self, from: Data(line.utf8)))
                    } else {
                        Swift.print(line)
                    }
                }
                return
            }
            /// Prints an entry; its token, where the follower resumes.
            func output(_ line: String) throws -> Int64 {
                let entry = try decoder.decode(LibraryChange.self, from: Data(line.utf8))
                if let lines { try lines.print(entry) } else { Swift.print(line) }
                return entry.token
            }
            unblockTerminationSignals()
            var last = try since ?? source.newestToken()
            var waiting = false
            while true {
                do {
                    try source.eachLine("/v1/changes", [("since", "\(last)"), ("follow", "true")], follow: true) {
                        line in
                        if waiting {
                            Self.say("photosd is back: following after token \(last)")
                            waiting = false
                        }
                        last = try output(line)
                        fflush(nil)
                    }
                } catch let error as APIConnection.ConnectionError where !error.untrustedPeer {
                    // The stream broke, or nothing listens yet: photosd stopped or is starting again.
                }
                if !waiting {
                    Self.say("photosd stopped: waiting for it, to follow on after token \(last)")
                    waiting = true
                }
                usleep(250_000)
            }
        }

        /// A line on standard error, for the person watching.
        private static func say(_ text: String) {
            FileHandle.standardError.write(Data("photos: \(text)\n".utf8))
        }
    }
}

/// The change log as lines a person reads: per object, the token, the commit's time, the kind of
/// change, the object's type, identifier and path, and an update's properties.
struct ChangeLines {
    /// The objects' paths, by identifier: `(assets, albums, folders)` to whatever of them is found.
    typealias Paths = (_ assets: [String], _ albums: [String], _ folders: [String]) throws -> [String: String]

    /// The zone the commit times are written in.
    let zone: TimeZone
    let paths: Paths

    func print(_ entry: LibraryChange) throws {
        let kinds = [("asset", entry.asset), ("album", entry.assetCollection), ("folder", entry.collectionList)]
        func all(_ changes: ObjectChanges) -> [String] { changes.inserted + changes.updated + changes.deleted }
        let found = try paths(all(entry.asset), all(entry.assetCollection), all(entry.collectionList))
        // To the second: a person reads the time, the token orders the entries.
        let date = Date(timeIntervalSince1970: entry.timestamp.rounded(.down))
        let time = ISO8601.string(date, offset: zone.secondsFromGMT(for: date))
        var text = ""
        func line(_ kind: String, _ name: String, _ id: String, _ properties: String? = nil) {
            let path = Output.escaped(found[id] ?? "-")
            text += "\(entry.token)\t\(time)\t\(kind)\t\(name)\t\(id)\t\(path)"
            text += (properties.map { "\t" + $0 } ?? "") + "\n"
        }
        for (name, changes) in kinds {
            for id in changes.inserted { line("inserted", name, id) }
            for id in changes.updated {
                line("updated", name, id, changes.changedProperties[id]?.joined(separator: ",") ?? "")
            }
            for id in changes.deleted { line("deleted", name, id) }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Paths from the library file: the objects as they are now, else as they were deleted.
    static func paths(in library: PHPhotoLibrary) -> Paths {
        { assets, albums, folders in
            var found: [String: String] = [:]
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            if !assets.isEmpty {
                // The first file, as the asset JSON lists it first; not the whole description (its
                // dates through Foundation's formatter, its albums): a table of 30,000 lines took 16 s.
                // All the entry's assets' files in one read: one a file took 2 s for 20,000 lines.
                let result = PHAsset.fetchAssets(withLocalIdentifiers: assets, options: options)
                let fetched = result.objects(at: IndexSet(integersIn: 0..<result.count))
                for (id, resources) in PHAssetResource.assetResources(for: fetched) {
                    found[id] = resources.first?.fileURL.relativePath
                }
            }
            let plain = PHFetchOptions()
            plain.photoLibrary = library
            if !albums.isEmpty {
                PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: albums, options: plain).enumerateObjects {
                    album, _, _ in found[album.localIdentifier] = album.directoryPath
                }
            }
            if !folders.isEmpty {
                PHCollectionList.fetchCollectionLists(withLocalIdentifiers: folders, options: plain).enumerateObjects {
                    folder, _, _ in found[folder.localIdentifier] = folder.directoryPath
                }
            }
            let gone = (assets + albums + folders).filter { found[$0] == nil }
            for (id, object) in try library.database.deletedObjects(localIdentifiers: gone) {
                found[id] = object.resources.first?.path ?? object.path
            }
            return found
        }
    }

    /// What the table reads of an asset's JSON: its first file. Decoding whole descriptions (dates,
    /// places, albums) took most of a 20,000-line table's 2.6 s.
    private struct FirstFile: Decodable {
        struct Resource: Decodable { let path: String }
        let localIdentifier: String
        let resources: [Resource]
    }

    /// Paths asked of photosd (its listings, a few hundred identifiers a request); a deleted object,
    /// which its listings no longer hold, by its tombstone in the library file photosd serves, when
    /// this user may read that file (else its path is `-`).
    static func paths(through source: DaemonSource) -> Paths {
        { assets, albums, folders in
            var found: [String: String] = [:]
            let decoder = JSONDecoder()
            for (endpoint, identifiers) in [("/v1/assets", assets), ("/v1/albums", albums), ("/v1/folders", folders)] {
                for start in stride(from: 0, to: identifiers.count, by: 200) {
                    let chunk = identifiers[start..<min(start + 200, identifiers.count)]
                    let listed = chunk.map(PhotoKitPredicate.stringLiteral).joined(separator: ",")
                    var query = [("predicate", "localIdentifier IN {\(listed)}")]
                    if endpoint == "/v1/assets" { query += [("includeHidden", "true"), ("includeAllBursts", "true")] }
                    try source.eachLine(endpoint, query) { line in
                        if endpoint == "/v1/assets" {
                            let asset = try decoder.decode(FirstFile.self, from: Data(line.utf8))
                            found[asset.localIdentifier] = asset.resources.first?.path
                        } else {
                            let collection = try decoder.decode(CollectionDescription.self, from: Data(line.utf8))
                            found[collection.localIdentifier] = collection.path
                        }
                    }
                }
            }
            let gone = (assets + albums + folders).filter { found[$0] == nil }
            if !gone.isEmpty, let served = DaemonOptions.servedLibrary(socket: source.socket),
                let database = try? LibraryDatabase(existingAt: served)
            {
                for (id, object) in try database.deletedObjects(localIdentifiers: gone) {
                    found[id] = object.resources.first?.path ?? object.path
                }
            }
            return found
        }
    }
}
