import ArgumentParser
import Foundation
import Photos
import PhotosWire

extension PhotosCommand {
    /// `photos albums`: list albums and smart albums.
    struct Albums: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "albums",
            abstract: "List albums: user albums, albums that mirror directories, and smart albums.")

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Flag(help: "Only smart albums.")
        var smart = false

        @Flag(help: "Only albums (user and directory albums), no smart albums.")
        var user = false

        func run() throws {
            if let source = try daemon.daemon(for: options) {
                let type = smart ? [("type", "smartAlbum")] : user ? [("type", "album")] : []
                return try CollectionOutput.print(from: source, "/v1/albums", type, json: options.json)
            }
            let library = try options.open()
            let fetchOptions = PHFetchOptions()
            fetchOptions.photoLibrary = library
            let type: PHAssetCollectionType? = smart ? .smartAlbum : user ? .album : nil
            var results: [PHFetchResult<PHAssetCollection>] = []
            for kind in [PHAssetCollectionType.album, .smartAlbum] where type == nil || type == kind {
                results.append(
                    PHAssetCollection.fetchAssetCollections(with: kind, subtype: .any, options: fetchOptions))
                // After each fetch: the next one's success would clear this one's reason.
                try options.requireAvailable(library)
            }
            try CollectionOutput.print(results, json: options.json)
        }
    }

    /// `photos folders`: list folders (collection lists).
    struct Folders: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "folders",
            abstract: "List folders: user folders and the folders that mirror directories.")

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        func run() throws {
            if let source = try daemon.daemon(for: options) {
                return try CollectionOutput.print(from: source, "/v1/folders", [], json: options.json)
            }
            let library = try options.open()
            let fetchOptions = PHFetchOptions()
            fetchOptions.photoLibrary = library
            let folders = PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: fetchOptions)
            try options.requireAvailable(library)
            try CollectionOutput.print([folders], json: options.json)
        }
    }
}

enum CollectionOutput {
    /// Prints the collections of some fetch results, in order: JSON Lines a page at a time, or a table.
    static func print<Collection: PHCollection>(_ results: [PHFetchResult<Collection>], json: Bool) throws {
        if json {
            for result in results { try Output.jsonLines(result) }
            return
        }
        var descriptions: [CollectionDescription] = []
        for result in results {
            try result.forEachDescriptionPage { descriptions += $0 }
        }
        table(descriptions)
    }

    /// The same listing, asked of photosd.
    static func print(from source: DaemonSource, _ path: String, _ query: [(String, String)], json: Bool) throws {
        if json { return try source.copyLines(path, query) }
        var descriptions: [CollectionDescription] = []
        let decoder = JSONDecoder()
        try source.eachLine(path, query) { line in
            descriptions.append(try decoder.decode(CollectionDescription.self, from: Data(line.utf8)))
        }
        table(descriptions)
    }

    static func table(_ descriptions: [CollectionDescription]) {
        Output.table(
            ["IDENTIFIER", "TITLE", "TYPE", "ASSETS", "PATH"],
            descriptions.map {
                [
                    $0.localIdentifier, $0.localizedTitle ?? "-", $0.subtype,
                    $0.estimatedAssetCount.map(String.init) ?? "-", $0.path ?? "-",
                ]
            })
    }
}

extension Output {
    /// Prints a fetch result's albums or folders as JSON Lines, a page at a time.
    static func jsonLines<Collection: PHCollection>(_ result: PHFetchResult<Collection>) throws {
        var writer = WireJSONWriter()
        try result.forEachDescriptionPage { page in
            writer.removeAll()
            for description in page { writer.appendLine(description) }
            FileHandle.standardOutput.write(Data(writer.bytes))
        }
    }
}
