import ArgumentParser
import Foundation
import Photos

extension PhotosCommand {
    /// `photos albums`: list albums and smart albums.
    struct Albums: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List albums: user albums, albums that mirror directories, and smart albums.")

        @OptionGroup var options: LibraryOptions

        @Flag(help: "Only smart albums.")
        var smart = false

        @Flag(help: "Only albums (user and directory albums), no smart albums.")
        var user = false

        func run() throws {
            let library = try options.open()
            let fetchOptions = PHFetchOptions()
            fetchOptions.photoLibrary = library
            let type: PHAssetCollectionType? = smart ? .smartAlbum : user ? .album : nil
            var albums: [PHAssetCollection] = []
            for kind in [PHAssetCollectionType.album, .smartAlbum] where type == nil || type == kind {
                albums += PHAssetCollection.fetchAssetCollections(with: kind, subtype: .any, options: fetchOptions)
                // After each fetch: the next one's success would clear this one's reason.
                try options.requireAvailable(library)
            }
            try CollectionOutput.print(albums, json: options.json, timeZone: library.configuration.timeZone)
        }
    }

    /// `photos folders`: list folders (collection lists).
    struct Folders: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List folders: user folders and the folders that mirror directories.")

        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let fetchOptions = PHFetchOptions()
            fetchOptions.photoLibrary = library
            let folders = PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: fetchOptions)
            try options.requireAvailable(library)
            try CollectionOutput.print(Array(folders), json: options.json, timeZone: library.configuration.timeZone)
        }
    }
}

enum CollectionOutput {
    static func print(_ collections: [PHCollection], json: Bool, timeZone: TimeZone) throws {
        let descriptions = collections.map { CollectionDescription($0, timeZone: timeZone) }
        if json {
            for description in descriptions { try Output.jsonLine(description) }
            return
        }
        Output.table(
            ["IDENTIFIER", "TITLE", "TYPE", "ASSETS", "PATH"],
            descriptions.map {
                [
                    $0.localIdentifier, $0.localizedTitle ?? "-", $0.subtype, $0.estimatedAssetCount.map(String.init) ?? "-",
                    $0.path ?? "-",
                ]
            })
    }
}
