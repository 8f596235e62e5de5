import ArgumentParser
import Foundation
import Photos
import PhotosWire

extension PhotosCommand {
    /// `photos assets`: list assets, filtered and sorted like a PhotoKit fetch.
    struct Assets: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "assets",
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

        @OptionGroup var query: QueryOptions

        func run() throws {
            if let source = try daemon.daemon(for: options) { return try run(through: source) }
            let library = try options.open()
            let result = try query.fetchAssets(in: library, options: options)
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
            let album = try query.album.map { try ObjectResolver(.daemon(source)).album($0) }
            let parameters = query.listingQuery(album: album)
            if options.json { return try source.copyLines("/v1/assets", parameters) }
            var rows: [[String]] = []
            let decoder = JSONDecoder()
            try source.eachLine("/v1/assets", parameters) { line in
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
