import ArgumentParser
import Foundation
import Photos
import PhotosWire

extension PhotosCommand {
    /// `photos mv ALBUM DEST`: rename a directory-backed album or folder, or move it into another
    /// directory-backed folder; its directory follows (roots with `write = "files"`).
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv",
            abstract: "Rename an album or folder, or move it into a folder; a mirrored directory is renamed or moved.",
            discussion: """
                SOURCE is an album or folder: the directory it mirrors, or its identifier (or a unique \
                prefix). When DEST is a directory a folder mirrors, SOURCE moves into that folder; otherwise \
                DEST is its new name. A directory-backed album or folder needs a root with \
                write = "files" in the configuration; a name already taken gets a suffix, "Trip (2)". \
                Through photosd when it serves the library.

                  photos mv ~/Pictures/2024/Zoo Aquarium
                  photos mv ~/Pictures/2024/Zoo ~/Pictures/Animals/
                """)

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Argument(help: ArgumentHelp("The album or folder: its directory, or its identifier.", valueName: "source"))
        var source: String

        @Argument(help: ArgumentHelp("A new name, or a folder's directory to move into.", valueName: "dest"))
        var destination: String

        @Flag(help: "Say what would be done; change nothing.")
        var dryRun = false

        func run() throws {
            let submitter = try ChangeSubmitter(options: options, daemon: daemon)
            let resolver = submitter.resolver
            let collection = try resolver.collection(source)
            let kind = collection.isFolder ? "folder" : "album"
            let before =
                collection.description.path ?? collection.description.localizedTitle ?? collection.localIdentifier
            let operation: API.ChangeOperation
            let plan: String
            if ObjectResolver.existingPath(destination, directory: true) != nil {
                let folder = try resolver.folder(destination)
                operation = .addToFolder(.init(folder: folder, collections: [collection.localIdentifier]))
                plan = "move \(kind) \(Output.escaped(before)) into \(Output.escaped(destination))"
            } else {
                guard !destination.contains("/") else {
                    throw CLIError(
                        "\(Output.escaped(destination)): no such directory (to rename, give a name without '/')")
                }
                operation =
                    collection.isFolder
                    ? .renameFolder(.init(folder: collection.localIdentifier, title: destination))
                    : .renameAlbum(.init(album: collection.localIdentifier, title: destination))
                plan = "rename \(kind) \(Output.escaped(before)) to \(Output.escaped(destination))"
            }
            if dryRun {
                print("would \(plan) (a name already taken would get a suffix)")
                return
            }
            let result = try submitter.submit(API.ChangeBatch(changes: [operation]))
            let after = try? submitter.resolver.collection(collection.localIdentifier).description
            let now = after?.path ?? after?.localizedTitle ?? destination
            if options.json {
                let line: [String: Any] = [
                    "localIdentifier": collection.localIdentifier, "from": before, "to": now, "token": result.token,
                ]
                let data = try JSONSerialization.data(
                    withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("\(collection.isFolder ? "folder" : "album") \(Output.escaped(before)) -> \(Output.escaped(now))")
            }
        }
    }
}
