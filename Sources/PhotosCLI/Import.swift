import ArgumentParser
import Foundation
import Photos
import PhotosCore

extension PhotosCommand {
    /// `photos import SRC... --to ROOT`: files the photos of drop folders (a card's DCIM, a phone's
    /// sync folder) into a root, in folders and under names made from when they were taken.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "File the photos and videos of folders into a root by date, moving or copying them.",
            discussion: """
                Each SOURCE (a file or a folder, walked whole) is read as a scan reads it; the files of one \
                photo (a Live Photo's movie, RAW+JPEG of one name, their .xmp, .aae and .THM sidecars) travel \
                together and get one new name. ROOT must be a root with write = "files" in the configuration. \
                A photo whose content the library already has is a duplicate: it stays where it is and is \
                listed (--duplicates trash moves it to the Trash, --duplicates keep imports it anyway). Files that are not photos or videos, or that \
                cannot be read whole, stay where they are and are listed with the reason. Nothing is ever \
                written over: a name already taken gets a suffix, "IMG_1 (2).JPG".

                --move (the default) removes each original once its place holds it and the library has \
                it; --copy leaves the originals and remembers what it took by content, so a card read \
                again is not imported twice. A stop at any moment (kill -9, a power cut) leaves every \
                photo in its folder, in the root, or in both, never in neither: the next opening of the \
                library finishes the work.

                The layout and name templates: {yyyy} {MM} {dd} {HH} {mm} {ss} (combined: \
                {yyyy-MM-dd}), {make} {model} {original} {ext} {counter:N}; see docs/configuration.md.

                  photos import /media/me/CARD/DCIM --to ~/Pictures --copy
                  photos import ~/Sync/Phone --to ~/Pictures --name "{yyyyMMdd-HHmmss}" --dry-run
                """)

        @OptionGroup var options: LibraryOptions

        @Argument(help: ArgumentHelp("Files or folders to import.", valueName: "source"))
        var sources: [String] = []

        @Option(help: ArgumentHelp("The root the photos are filed under.", valueName: "root"))
        var to: String

        @Option(help: ArgumentHelp("The folders under the root.", valueName: "template"))
        var layout = ImportLayout.defaultLayout

        @Option(help: ArgumentHelp("The new name, without its extension.", valueName: "template"))
        var name = ImportLayout.defaultName

        @Flag(help: "Move the files (the default) or copy them.")
        var mode: ImportDefinition.Mode = .move

        @Option(
            help: ArgumentHelp(
                "Photos whose content the library already has: skip (left and listed), trash (moved to the "
                    + "Trash, with --move only), or keep (imported anyway).", valueName: "skip|trash|keep"))
        var duplicates: ImportDefinition.Duplicates = .skip

        @Flag(help: "Print where each file would go; change nothing.")
        var dryRun = false

        func validate() throws {
            if sources.isEmpty { throw ValidationError("name at least one file or folder to import") }
            try PathArguments.requireNonEmpty(sources, "a file or folder to import")
            try PathArguments.requireNonEmpty([to], "--to")
            if duplicates == .trash, mode == .copy {
                throw ValidationError("--duplicates trash needs --move: a copy never touches the originals")
            }
        }

        func run() throws {
            let template: ImportLayout
            do {
                template = try ImportLayout(layout: layout, name: name)
            } catch {
                throw CLIError("\(error)")
            }
            let root = Self.absolute(to)
            let missing = sources.filter { !FileManager.default.fileExists(atPath: Self.absolute($0)) }
            if !missing.isEmpty {
                throw CLIError("no such file or folder: \(missing.map(Output.escaped).joined(separator: ", "))")
            }
            // A library not made yet is made, as `photos scan` makes one; a dry run plans against an
            // empty one and makes none.
            let library = try options.open(creating: !dryRun, orEmpty: dryRun)
            let definition = ImportDefinition(
                from: Self.absolute(sources[0]), to: root, layout: template, mode: mode,
                duplicates: duplicates)
            let importer = FolderImport(
                library: library, definition: definition, timeZone: library.configuration.timeZone)
            if dryRun {
                let plan: FolderImport.Plan
                do {
                    plan = try importer.plan(sources.map(Self.absolute))
                } catch {
                    throw CLIError("\(error)")
                }
                try printLeft(plan)
                for group in plan.groups {
                    for move in group.moves {
                        try say(
                            mode.rawValue, "would \(mode.rawValue)", from: move.source, to: move.destination)
                    }
                }
                let files = plan.groups.reduce(0) { $0 + $1.moves.count }
                if !options.json {
                    print(summary(plan, photos: plan.groups.count, files: files, imported: "would import"))
                }
                return
            }
            // Placed while the rest is read: what stays is listed once the import is over.
            let interactive = isatty(STDERR_FILENO) == 1
            let (plan, report): (FolderImport.Plan, FolderImport.Report)
            do {
                (plan, report) = try importer.importFiles(sources.map(Self.absolute)) { done, total in
                    guard interactive else { return }
                    FileHandle.standardError.write(Data("\r\(done)/\(total) photos   ".utf8))
                }
            } catch {
                if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                throw CLIError("\(error)")
            }
            if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            try printLeft(plan)
            // An original a read-only card kept was copied, in effect.
            let kept = Set(report.keptOriginals.map(\.path))
            for (source, destination) in report.placed {
                let moved = mode == .move && !kept.contains(source)
                try say(moved ? "move" : "copy", moved ? "moved" : "copied", from: source, to: destination)
            }
            for (source, trashPath) in report.trashed {
                try say("trash", "trashed", from: source, to: trashPath)
            }
            for failure in report.failed {
                FileHandle.standardError.write(
                    Data("cannot import \(Output.escaped(failure.path)): \(failure.reason)\n".utf8))
            }
            for left in report.untrashed {
                FileHandle.standardError.write(
                    Data("cannot trash the duplicate \(Output.escaped(left.path)): \(left.reason) (it stays)\n".utf8))
            }
            for kept in report.keptOriginals {
                FileHandle.standardError.write(
                    Data(
                        ("kept \(Output.escaped(kept.path)): imported, but it cannot be removed (\(kept.reason)); "
                            + "it is a duplicate now\n").utf8))
            }
            if !options.json {
                print(
                    summary(
                        plan, photos: plan.groups.count - report.failed.count, files: report.placed.count,
                        imported: "imported"))
            }
            if !report.failed.isEmpty || !report.untrashed.isEmpty { throw ExitCode.failure }
        }

        /// The duplicates, rejected and left files, a line each.
        private func printLeft(_ plan: FolderImport.Plan) throws {
            for duplicate in plan.duplicates {
                guard options.json else {
                    print(
                        "duplicate \(Output.escaped(duplicate.path)) (the library has "
                            + "\(Output.escaped(duplicate.existing)))")
                    continue
                }
                try Output.jsonLine(
                    FileActionLine(
                        action: "skip", from: duplicate.path, reason: "a duplicate of \(duplicate.existing)",
                        dryRun: dryRun))
            }
            for (files, action, verb) in [(plan.rejected, "reject", "rejected"), (plan.left, "leave", "left")] {
                for file in files {
                    guard options.json else {
                        print("\(verb) \(Output.escaped(file.path)): \(file.reason)")
                        continue
                    }
                    try Output.jsonLine(
                        FileActionLine(action: action, from: file.path, reason: file.reason, dryRun: dryRun))
                }
            }
        }

        /// A file placed (or to be): `VERB FROM -> TO`, or with `--json` a ``FileActionLine``.
        private func say(_ action: String, _ verb: String, from: String, to: String) throws {
            guard options.json else { return print("\(verb) \(Output.escaped(from)) -> \(Output.escaped(to))") }
            try Output.jsonLine(FileActionLine(action: action, from: from, to: to, dryRun: dryRun))
        }

        /// `imported N photos (M files), D duplicates, R rejected, L left`.
        private func summary(_ plan: FolderImport.Plan, photos: Int, files: Int, imported: String) -> String {
            "\(imported) \(photos) photos (\(files) files), \(plan.duplicates.count) duplicates, "
                + "\(plan.rejected.count) rejected, \(plan.left.count) left"
        }

        /// `path` made absolute against the working directory, standardized.
        static func absolute(_ path: String) -> String {
            let expanded = (path as NSString).expandingTildeInPath
            let absolute =
                expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
            return URL(fileURLWithPath: absolute).standardizedFileURL.path
        }
    }
}

extension ImportDefinition.Mode: EnumerableFlag {}
extension ImportDefinition.Duplicates: ExpressibleByArgument {}
