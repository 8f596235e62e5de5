import ArgumentParser
import Foundation
import Photos
import PhotosWire

extension PhotosCommand {
    /// `photos assets`: list assets, filtered and sorted like a PhotoKit fetch.
    struct Assets: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List assets, with PhotoKit's fetch options.",
            discussion: """
                Predicates use PhotoKit's format and keys, and the names the JSON writes, e.g.
                  --predicate 'mediaType == video AND favorite == YES'
                  --predicate 'mediaSubtypes CONTAINS "photoScreenshot"'   (or '(mediaSubtypes & 4) != 0')
                  --predicate 'creationDate >= CAST("2024-06-01T00:00:00+02:00", "NSDate")'
                  --predicate 'filename LIKE[c] "IMG_*.HEIC"'
                  --predicate 'distanceToLocation(location, 48.8566, 2.3522) < 5'   (kilometres)
                Sort keys: creationDate, modificationDate, mediaType, pixelWidth, pixelHeight, duration...
                """)

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Option(help: ArgumentHelp("A PhotoKit predicate format.", valueName: "format"))
        var predicate: String?

        @Option(
            parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Sort by a key; prefix - for descending. Repeatable.", valueName: "[-]key"))
        var sort: [String] = []

        @Option(help: "At most this many assets (0: all).")
        var limit: Int = 0

        @Flag(help: "Include hidden assets.")
        var includeHidden = false

        @Flag(help: "Include every burst member, not only representatives.")
        var includeAllBursts = false

        @Option(help: ArgumentHelp(
            "Only the assets of this album: its identifier (or a unique prefix), or the directory it mirrors.",
            valueName: "album"))
        var album: String?

        func validate() throws {
            guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
        }

        func run() throws {
            if let source = try daemon.daemon(for: options) { return try run(through: source) }
            let library = try options.open()
            let fetchOptions = PHFetchOptions()
            fetchOptions.photoLibrary = library
            fetchOptions.fetchLimit = limit
            fetchOptions.includeHiddenAssets = includeHidden
            fetchOptions.includeAllBurstAssets = includeAllBursts
            if let predicate { fetchOptions.predicate = NSPredicate(format: predicate) }
            fetchOptions.sortDescriptors = sort.map { key in
                key.hasPrefix("-")
                    ? NSSortDescriptor(key: String(key.dropFirst()), ascending: false)
                    : NSSortDescriptor(key: key, ascending: true)
            }
            do {
                try fetchOptions.validate(for: .asset)
            } catch {
                throw CLIError("invalid predicate or sort: \(error)")
            }
            let result: PHFetchResult<PHAsset>
            if let album {
                let identifier = try ObjectResolver(.library(library)).album(album)
                let collectionOptions = PHFetchOptions()
                collectionOptions.photoLibrary = library
                guard
                    let collection = PHAssetCollection.fetchAssetCollections(
                        withLocalIdentifiers: [identifier], options: collectionOptions
                    ).firstObject
                else {
                    try options.requireAvailable(library)
                    throw CLIError("no album \(album)")
                }
                result = PHAsset.fetchAssets(in: collection, options: fetchOptions)
            } else {
                result = PHAsset.fetchAssets(with: fetchOptions)
            }
            try options.requireAvailable(library)
            if options.json {
                try Output.jsonLines(result)
                return
            }
            var rows: [[String]] = []
            try result.forEachDescriptionPage { page in rows += page.map(Self.row) }
            Output.table(Self.header, rows)
        }

        /// The same listing, asked of photosd.
        func run(through source: DaemonSource) throws {
            var query: [(String, String)] = []
            if let predicate { query.append(("predicate", predicate)) }
            for key in sort { query.append(("sort", key)) }
            if limit > 0 { query.append(("limit", "\(limit)")) }
            if includeHidden { query.append(("includeHidden", "true")) }
            if includeAllBursts { query.append(("includeAllBursts", "true")) }
            if let album { query.append(("in", try ObjectResolver(.daemon(source)).album(album))) }
            if options.json { return try source.copyLines("/v1/assets", query) }
            var rows: [[String]] = []
            let decoder = JSONDecoder()
            try source.eachLine("/v1/assets", query) { line in
                rows.append(Self.row(try decoder.decode(AssetDescription.self, from: Data(line.utf8))))
            }
            Output.table(Self.header, rows)
        }

        static let header = ["IDENTIFIER", "TYPE", "SIZE", "CREATED", "FLAGS", "FILE"]

        static func row(_ description: AssetDescription) -> [String] {
            [
                description.localIdentifier, description.mediaType,
                "\(description.pixelWidth)x\(description.pixelHeight)", description.creationDate ?? "-",
                (description.isFavorite ? "♥" : "") + (description.isHidden ? "hidden" : ""),
                description.resources.first?.path ?? "-",
            ]
        }
    }
}

extension Output {
    /// Prints a fetch result's assets as JSON Lines, a page at a time: memory stays flat however
    /// large the library, and each page is one write.
    static func jsonLines(_ result: PHFetchResult<PHAsset>) throws {
        var writer = WireJSONWriter()
        let page = 1000
        for start in stride(from: 0, to: result.count, by: page) {
            writer.removeAll()
            try result.writeAssetJSON(in: start..<start + page, as: .line, into: &writer)
            FileHandle.standardOutput.write(Data(writer.bytes))
        }
    }
}
