import ArgumentParser
import Foundation
import Photos
import PhotosWire

extension PhotosCommand {
    /// `photos mv ALBUM DEST`: rename a directory-backed album or folder, or move it into another
    /// directory-backed folder; its directory follows (roots with `write = "files"`). `photos mv ASSET
    /// ALBUM`: add a photo to a directory-backed album; its files move into the album's directory.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv",
            abstract:
                "Rename an album or folder, move it into a folder, or move a photo into an album; files follow.",
            discussion: """
                SOURCE is an album or folder: the directory it mirrors, or its identifier (or a unique \
                prefix). When DEST is a directory a folder mirrors, SOURCE moves into that folder; otherwise \
                DEST is its new name. A directory-backed album or folder needs a root with \
                write = "files" in the configuration; a name already taken gets a suffix, "Trip (2)". \
                Through photosd when it serves the library.

                SOURCE may also be a photo: one of its files, or its identifier. Then DEST is a directory-backed \
                album (its directory, or its identifier), and the photo's files (a Live Photo's movie, a \
                RAW+JPEG partner, their sidecars) move into that directory, keeping the photo's identifier, \
                favorite and user albums; when a name there is taken, every file of the photo gets the same \
                suffix, "IMG_1 (2).JPG". Each moved file is printed.

                  photos mv ~/Pictures/2024/Zoo Aquarium
                  photos mv ~/Pictures/2024/Zoo ~/Pictures/Animals/
                  photos mv ~/Pictures/2024/Zoo/IMG_1.JPG ~/Pictures/2024/Trip
                """)

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Argument(
            help: ArgumentHelp(
                "The album or folder (its directory or identifier), or a photo (one of its files or its identifier).",
                valueName: "source"))
        var source: String

        @Argument(
            help: ArgumentHelp(
                "A new name, or a folder's directory to move into; for a photo, the album to move it into.",
                valueName: "dest"))
        var destination: String

        @Flag(help: "Say what would be done; change nothing.")
        var dryRun = false

        func validate() throws {
            try PathArguments.requireNonEmpty([source], "the source")
            try PathArguments.requireNonEmpty([destination], "the destination")
        }

        func run() throws {
            let submitter = try ChangeSubmitter(options: options, daemon: daemon)
            let resolver = submitter.resolver
            if let asset = try asset(resolver) {
                try move(asset, into: try resolver.album(destination), submitter)
                return
            }
            let collection = try resolver.collection(source)
            let kind = collection.isFolder ? "folder" : "album"
            let before =
                collection.description.path ?? collection.description.localizedTitle ?? collection.localIdentifier
            let operation: API.ChangeOperation
            let plan: String
            var folder: String?
            if ObjectResolver.existingPath(destination, directory: true) != nil {
                let into = try resolver.folder(destination)
                folder = into
                operation = .addToFolder(.init(folder: into, collections: [collection.localIdentifier]))
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
                // Planned against the library file as the change checks it: refused where it would be,
                // with the name it would take.
                let planned: String?
                do {
                    planned = try planningLibrary(submitter).plannedDirectoryChange(
                        of: collection.localIdentifier, renamedTo: folder == nil ? destination : nil, into: folder)
                } catch {
                    throw CLIError(refusal: error)
                }
                if options.json {
                    try Output.jsonLine(
                        FileActionLine(
                            action: folder == nil ? "rename" : "move", localIdentifier: collection.localIdentifier,
                            from: before, to: planned ?? destination, dryRun: true))
                } else {
                    print("would \(plan)" + (planned.map { ": \(Output.escaped($0))" } ?? ""))
                }
                return
            }
            let result = try submitter.submit(API.ChangeBatch(changes: [operation]))
            let after = try? submitter.resolver.collection(collection.localIdentifier).description
            let now = after?.path ?? after?.localizedTitle ?? destination
            if options.json {
                try Output.jsonLine(
                    FileActionLine(
                        action: folder == nil ? "rename" : "move", localIdentifier: collection.localIdentifier,
                        from: before, to: now, dryRun: false, token: result.token))
            } else {
                print("\(collection.isFolder ? "folder" : "album") \(Output.escaped(before)) -> \(Output.escaped(now))")
            }
        }

        /// The asset SOURCE names, when it names one: one of its files, or an identifier that no album
        /// or folder has.
        private func asset(_ resolver: ObjectResolver) throws -> String? {
            if ObjectResolver.existingPath(source, directory: false) != nil { return try resolver.asset(source) }
            if ObjectResolver.existingPath(source, directory: true) != nil
                || (try? resolver.collection(source)) != nil
            {
                return nil
            }
            return try? resolver.asset(source)
        }

        /// Adds `asset` to `album` through photosd without a plan, and prints its files that moved.
        private func moveThroughDaemon(_ asset: String, into album: String, _ submitter: ChangeSubmitter) throws {
            let before = try submitter.resolver.files(ofAsset: asset)
            let result = try submitter.submit(
                API.ChangeBatch(changes: [.addToAlbum(.init(album: album, assets: [asset]))]))
            let after = try submitter.resolver.files(ofAsset: asset)
            for (from, to) in zip(before, after) where from != to {
                try say(asset, moved: from, to: to, token: result.token)
            }
        }

        /// Adds `asset` to the directory-backed album `album`: its files move into the album's directory.
        /// The plan is read from the library file as the change checks it, so the dry run and the
        /// printout name the files the change moves.
        private func move(_ asset: String, into album: String, _ submitter: ChangeSubmitter) throws {
            let moves: [AssetFileMove]
            do {
                moves = try planningLibrary(submitter).plannedAssetMoves([asset], intoAlbum: album)
            } catch let error as PHPhotosError where error.code != .accessRestricted {
                // Not a policy this command may not know of: no photosd moves it either (an album that
                // mirrors no directory would take the photo as a member, and nothing would move).
                throw CLIError(refusal: error)
            } catch  where !dryRun && !submitter.isLibraryFile {
                // photosd applies its own roots' policies, which this command's configuration (or the
                // library file it finds) may not hold: it decides, and what moved is read back afterwards.
                try moveThroughDaemon(asset, into: album, submitter)
                return
            } catch {
                throw CLIError(refusal: error)
            }
            if moves.isEmpty {
                // The album as the library names it, not as typed (`Trip/.`, `./Trip/`).
                let named = (try? submitter.resolver.collection(album).description).flatMap {
                    $0.path ?? $0.localizedTitle
                }
                guard options.json else {
                    return print("\(asset) is in \(Output.escaped(named ?? destination)) already: nothing moves")
                }
                return try Output.jsonLine(
                    FileActionLine(
                        action: "leave", localIdentifier: asset,
                        reason: "in \(named ?? destination) already: nothing moves", dryRun: dryRun))
            }
            if dryRun {
                for move in moves { try say(asset, moved: move.from, to: move.to, token: nil) }
                return
            }
            let result = try submitter.submit(
                API.ChangeBatch(changes: [.addToAlbum(.init(album: album, assets: [asset]))]))
            for move in moves { try say(asset, moved: move.from, to: move.to, token: result.token) }
        }

        /// The library a plan is read from: the file the change goes to, or the one photosd serves,
        /// never another the options would name (the default library, beside a daemon serving
        /// another one, knows none of its albums).
        private func planningLibrary(_ submitter: ChangeSubmitter) throws -> PHPhotoLibrary {
            guard case .daemon(let source) = submitter.target else { return try options.open() }
            guard let served = DaemonOptions.servedLibrary(socket: source.socket) else {
                throw CLIError("photosd on \(source.socket) does not say which library it serves")
            }
            var serving = options
            serving.library = served
            return try serving.open()
        }

        /// A file of `asset` moved (or, in a dry run, to move): a line, or with `--json` a ``FileActionLine``.
        private func say(_ asset: String, moved from: String, to: String, token: Int64?) throws {
            guard options.json else {
                let verb = dryRun ? "would move" : "moved"
                return print("\(asset)  \(verb) \(Output.escaped(from)) -> \(Output.escaped(to))")
            }
            try Output.jsonLine(
                FileActionLine(action: "move", localIdentifier: asset, from: from, to: to, dryRun: dryRun, token: token)
            )
        }
    }
}
