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
                if files.isEmpty {
                    try say(identifier, "delete", text: "would delete it: \(Self.noFile)", reason: Self.noFile)
                }
                for file in files {
                    try say(
                        identifier, trashes ? "trash" : "remove",
                        text: "\(trashes ? "would trash" : "would remove") \(Output.escaped(file))", from: file)
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
                for file in files { try say(identifier, "remove", text: "removed \(Output.escaped(file))", from: file) }
                continue
            }
            guard let kept = trashed[identifier], !kept.files.isEmpty else {
                // Nothing of it was left on disk to move.
                let waits = trashed[identifier] != nil ? " (it waits in Recently Deleted: photos trash)" : ""
                try say(identifier, "delete", text: "deleted: \(Self.noFile)\(waits)", reason: Self.noFile)
                continue
            }
            for file in kept.files {
                let destination = file.trashName.map { file.trashDirectory + "/files/" + $0 }
                try say(
                    identifier, "trash",
                    text: "trashed \(Output.escaped(file.path)) -> \(Output.escaped(destination ?? "(pending)"))",
                    from: file.path, to: destination)
            }
        }
    }

    /// One line of what happened to an asset's file: `text` after its identifier, or with `--json`
    /// a ``FileActionLine``.
    private func say(
        _ identifier: String, _ action: String, text: String, from: String? = nil, to: String? = nil,
        reason: String? = nil
    ) throws {
        guard options.json else { return print("\(identifier)  \(text)") }
        try Output.jsonLine(
            FileActionLine(
                action: action, localIdentifier: identifier, from: from, to: to, reason: reason, dryRun: dryRun))
    }
}
