import ArgumentParser
import Foundation
import Photos
import PhotosWire

/// `photos rm`: deletes assets as `PHAssetChangeRequest.deleteAssets` does, printing what happens to
/// which file.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete assets: their files go to the Trash (under roots with write = \"files\").",
        discussion: """
            Each file of the asset (the photo, a Live Photo's movie, a RAW+JPEG partner, their sidecars) \
            moves to the Trash of its file system, and the asset waits in Recently Deleted (photos trash) \
            for trash_days days. Files the library imported itself are removed. Under a root whose write \
            policy is not "files" nothing is deleted and the command fails naming the file and the root.
            """)

    @OptionGroup var options: LibraryOptions
    @OptionGroup var daemon: DaemonOptions

    @Flag(help: "Print what would happen to which file; change nothing.")
    var dryRun = false

    @Argument(
        help: ArgumentHelp(
            "The assets: identifiers (or unique prefixes) or paths of their files; - reads them from standard "
                + "input, one a line.", valueName: "asset"))
    var assets: [String]

    func validate() throws {
        if assets.isEmpty { throw ValidationError("name at least one asset to delete") }
    }

    /// What deleting an asset whose files are all gone from disk does.
    static let noFile = "none of its files is on disk, so nothing goes to the Trash"

    func run() throws {
        let library = try options.open()
        let resolver = ObjectResolver(.library(library))
        var identifiers: [String] = []
        var seen: Set<String> = []
        for identifier in try resolver.assets(try StandardInputList.expanding(assets))
        where seen.insert(identifier).inserted {
            identifiers.append(identifier)
        }
        // Only `-` can name none (an empty standard input, as a query that matched nothing gives).
        guard !identifiers.isEmpty else { return }
        let plan: [(identifier: String, files: [String], trashes: Bool)]
        do {
            // A deletion checks its files itself: the plan needs them only to show a dry run.
            plan = try library.deletionPlan(localIdentifiers: identifiers, checkingFiles: dryRun)
        } catch {
            throw CLIError(refusal: error)
        }
        if dryRun {
            for (identifier, files, trashes) in plan {
                if files.isEmpty { print("\(identifier)  would delete it: \(Self.noFile)") }
                for file in files {
                    print("\(identifier)  \(trashes ? "would trash" : "would remove") \(Output.escaped(file))")
                }
            }
            return
        }
        // Through photosd when it serves this library (its roots' policies and its Trash), else the file.
        _ = try ChangeSubmitter(options: options, daemon: daemon).submit(
            API.ChangeBatch(changes: [.deleteAssets(.init(assets: identifiers))]))
        let trashed = Dictionary(
            (try? library.trashedAssets().map { ($0.localIdentifier, $0) }) ?? [], uniquingKeysWith: { a, _ in a })
        for (identifier, files, trashes) in plan {
            guard trashes else {
                for file in files { print("\(identifier)  removed \(Output.escaped(file))") }
                continue
            }
            guard let kept = trashed[identifier], !kept.files.isEmpty else {
                // Nothing of it was left on disk to move.
                let waits = trashed[identifier] != nil ? " (it waits in Recently Deleted: photos trash)" : ""
                print("\(identifier)  deleted: \(Self.noFile)\(waits)")
                continue
            }
            for file in kept.files {
                let destination = file.trashName.map { file.trashDirectory + "/files/" + $0 } ?? "(pending)"
                print("\(identifier)  trashed \(Output.escaped(file.path)) -> \(Output.escaped(destination))")
            }
        }
    }
}
